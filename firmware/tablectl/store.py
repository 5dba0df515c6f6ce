"""Named power-fail-safe records (the round, the configuration) kept in the table's flash log (tablectl.storage).

    store = Store(log)
    store.save('round', {'state': 'betting', ...})   # one frame holding the keys that changed
    store.load('round')          # -> a copy of the committed dict; None if the record was never written
    store.clear('round')         # the record is gone (load() -> None)
    store.names()                # the records present
    store.geometry()             # (a block's bytes of frames, the program unit, a checkpoint's room): tablectl.bound

A save commits only the top-level keys whose values changed since the last save (all of them if a key
went away, or with full=True); the log's atomic() block joins it with the journal entries of the same
step in one frame. The store keeps the dict it was given as the committed value, to compare the next
save with: give it a new dict each time, and never change that dict, or a list or dict in it, after
the save (a changed list would look saved when it is not: save() refuses a value that is the very
object the last save held). Money and counters are plain ints (JSON), never floats.
"""
import os

from tablectl.valid import name_ok

_CONTAINERS = (list, dict)


class Tilt(Exception):
    """Stored state cannot be trusted: the controller halts with this message instead of guessing."""


def _check_name(name):
    if not isinstance(name, str) or not name or len(name) > 24:
        raise ValueError("record name must be 1..24 characters, got %r" % (name,))
    if not name_ok(name):
        raise ValueError("record name %r: only a-z, 0-9 and _ allowed" % name)


def join(root, name):
    """Path of `name` inside folder `root` ('' or '.' is the current folder)."""
    if root in ("", "."):
        return name
    return root + name if root.endswith("/") else root + "/" + name


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


_PLAIN = (str, int, bool, type(None))  # a value of exactly one of these types is checked by one `in`


def check_plain(obj, where="record"):
    """ValueError unless obj is made of dict (str keys), list, tuple, str, int, bool and None only:
    MicroPython's json.dumps writes other objects as text json.loads cannot read back, and money
    must never be a float."""
    if obj is None or isinstance(obj, (str, int, bool)):  # MicroPython: a bool is not an int
        return
    # an item of one of _PLAIN's types is checked here, not by a call: the calls were most of a record's check
    if isinstance(obj, (list, tuple)):
        for x in obj:
            if type(x) not in _PLAIN:
                check_plain(x, where)
        return
    if isinstance(obj, dict):
        for k in obj:
            if type(k) is not str:
                _check_key(k, where)
            x = obj[k]
            if type(x) not in _PLAIN:
                check_plain(x, where)
        return
    raise ValueError("%s: %s values cannot be stored" % (where, type(obj).__name__))


def _check_key(k, where):
    if not isinstance(k, str):
        raise ValueError("%s: key %r is not a string" % (where, k))


def copy(obj):
    """A copy of a record's lists and dicts (what load() hands out: the caller may change it)."""
    if isinstance(obj, dict):
        return dict((k, copy(obj[k])) for k in obj)
    if isinstance(obj, list):
        return [copy(x) for x in obj]
    return obj


def _changed(old, new):
    """The keys of dict `new` that differ from dict `old` ({} if none), None unless both are dicts and `new`
    keeps every key of `old` (then the key is saved whole)."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return None
    for k in old:
        if k not in new:
            return None
    return dict((k, new[k]) for k in new if k not in old or old[k] != new[k])


def _shared(old, new):
    """How many of list `new`'s first items are the very objects (not copies) that list `old`, saved and so
    checked, holds in a run from some place on: a history moved on by one result (the oldest gone, one
    appended) is checked by its new result alone, where its 20 took 400k instructions on a Pico."""
    if type(old) is not list or not new:
        return 0
    first = new[0]
    k, n = 0, len(old)
    while k < n and old[k] is not first:
        k += 1
    j = 0
    while k + j < n and j < len(new) and new[j] is old[k + j]:
        j += 1
    return j


class Store:
    """Named records in a flash log; `writes` counts the saves and clears that changed something."""

    def __init__(self, log, vital="config"):
        self.log = log
        log.watch(vital)  # the configuration: boot says whether damage took a change of it
        self.writes = 0

    def load(self, name):
        """A copy of the committed value of record `name`, None if there is none."""
        _check_name(name)
        value = self.log.get(name)
        return None if value is None else copy(value)

    def peek(self, name):
        """The committed value of record `name` itself (None if there is none): read it, never change it."""
        return self.log.get(name)

    def adopt(self, name, obj):
        """Hold `obj` as the committed value of `name` from now on, writing nothing: for a reader that made
        an equivalent value of its own (the same meaning when read back), so the heap keeps one."""
        self.log.adopt(name, obj)

    def geometry(self):
        """(bytes of frames a block holds, program unit, bytes the ring keeps for a checkpoint): what the records'
        bounds are checked against when a configuration is accepted (tablectl.bound)."""
        return self.log.usable(), self.log.prog, self.log.room()

    def atomic(self):
        """`with store.atomic():` the saves and journal entries inside become one frame of the log."""
        return self.log.atomic()

    def save(self, name, obj, full=False):
        """Commit `obj` (a JSON-able dict) as record `name`: the keys that changed, or all of it."""
        _check_name(name)
        if not isinstance(obj, dict):
            raise ValueError("record '%s': a dict is stored, got %s" % (name, type(obj).__name__))
        where = "record '%s'" % name
        old = self.log.value(name)  # inside an atomic() block: with what the block holds already
        if old is obj:
            raise ValueError("record '%s': save a new dict, not the one saved last" % name)
        if old is None or full or any(k not in obj for k in old):
            check_plain(obj, where)
            self.log.commit(full={name: obj})
            self.writes += 1
            return
        patch = {}
        deep = {}
        for k in obj:
            v = obj[k]
            if k in old and old[k] is v and isinstance(v, _CONTAINERS):
                raise ValueError("record '%s': key '%s' holds the object saved last time: build a new one"
                                 % (name, k))
            if k not in old or old[k] != v:
                # only what is written is checked (a key equal to its saved value was checked when saved):
                # what a step costs is what it changes, not the whole record (the dealer's ENTER)
                if type(k) is not str:
                    _check_key(k, where)
                sub = _changed(old.get(k), v)
                if sub is None:
                    if type(v) is list:
                        for i in range(_shared(old.get(k), v), len(v)):
                            x = v[i]
                            if type(x) not in _PLAIN:
                                check_plain(x, where)
                    else:
                        check_plain(v, where)
                    patch[k] = v
                else:  # a dict of which a few keys changed (the meters): only those, not its whole text
                    check_plain(sub, where)
                    deep[k] = sub
        if patch or deep:
            self.log.commit(patch={name: patch} if patch else None, deep={name: deep} if deep else None)
            self.writes += 1

    def clear(self, name):
        """Remove record `name` (load() then returns None)."""
        _check_name(name)
        if self.log.value(name) is not None:
            self.log.commit(gone=[name])
            self.writes += 1

    def names(self):
        """Names of the records present, sorted."""
        return self.log.names()
