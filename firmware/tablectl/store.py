"""Power-fail-safe records: each named record kept as two alternating generations with sequence number and CRC-32.

    store = Store('/state')            # the folder is created if missing
    store.save('pool', {'p': 1234})    # one record file written (tmp + rename); store.writes += 1
    store.load('pool')                 # -> newest valid dict; None if the record was never written
    store.clear('pool')                # removes every generation (RAM clear)

A record named NAME lives in NAME.0 and NAME.1; save number s goes to NAME.<s & 1>, so the previous
generation is never touched while the new one is written. Each file is one line of text:

    <seq> <crc32 as 8 hex digits> <JSON object>\\n

where the CRC-32 covers "NAME <seq> <JSON>" (the name is included so a file copied or renamed onto
another record is not accepted). A save writes NAME.tmp completely, closes it, then renames it onto
the target generation: LittleFS renames atomically, so a power cut leaves the old file or the new
one, and the other generation is intact either way. load() returns the valid generation with the
highest sequence number. If generations exist but none is valid it raises Tilt naming the record
and what is wrong with each copy: the controller must stop there, never invent a value.
Money and counters in records are plain ints (JSON), never floats.
"""
import io
import json
import os
import sys

try:
    from binascii import crc32 as _crc32
except ImportError:  # some ports build binascii without crc32
    _crc32 = None

# On MicroPython a save never holds a record's text whole: after hours of play a 64 KB heap may have no
# free block that long. json.dump hands the text out in small pieces, to _Crc and then straight into the
# file (its stream takes them as bytes): the file is written once, front to back, as before, since on
# LittleFS going back to patch the header would copy a flash block (three erases a save instead of one).
# CPython's json.dump writes str, which a binary file refuses: there the text is built once, as on a
# MicroPython built without io.IOBase.
_MICROPYTHON = sys.implementation.name == "micropython"
_STREAM = _MICROPYTHON and hasattr(io, "IOBase")
if _STREAM:
    class _Crc(io.IOBase):
        """The CRC-32 of what json.dump writes into it."""

        def __init__(self, crc):
            self.crc = crc

        def write(self, data):
            self.crc = crc32(data, self.crc)
            return len(data)

_HEX = b"0123456789abcdefABCDEF"
_TABLE = None


def _table():
    global _TABLE
    if _TABLE is None:
        t = []
        for n in range(256):
            c = n
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            t.append(c)
        _TABLE = t
    return _TABLE


def crc32_table(data, crc=0):
    """CRC-32 (IEEE 802.3, as zlib/binascii) from a 256-entry table: the fallback when binascii lacks it."""
    t = _table()
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc = t[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def crc32(data, crc=0):
    """CRC-32 of bytes `data`, continuing from `crc`; always a non-negative int."""
    if _crc32 is not None:
        return _crc32(data, crc) & 0xFFFFFFFF
    return crc32_table(data, crc)


class Tilt(Exception):
    """Stored state cannot be trusted: the controller halts with this message instead of guessing."""


def _check_name(name):
    if not isinstance(name, str) or not name or len(name) > 24:
        raise ValueError("record name must be 1..24 characters, got %r" % (name,))
    for ch in name:
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch == "_"):
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


def check_plain(obj, where="record"):
    """ValueError unless obj is made of dict (str keys), list, tuple, str, int, bool and None only:
    MicroPython's json.dumps writes other objects as text json.loads cannot read back, and money
    must never be a float."""
    if obj is None or isinstance(obj, (str, int, bool)):  # MicroPython: a bool is not an int
        return
    if isinstance(obj, (list, tuple)):
        for x in obj:
            check_plain(x, where)
        return
    if isinstance(obj, dict):
        for k in obj:
            if not isinstance(k, str):
                raise ValueError("%s: key %r is not a string" % (where, k))
            check_plain(obj[k], where)
        return
    raise ValueError("%s: %s values cannot be stored" % (where, type(obj).__name__))


def _encoded(name, seq, obj):
    """(header, body) of one record file, the JSON body encoded once: the CRC runs on over the name
    and sequence number into the body, so the record text is never copied whole into the heap again."""
    body = json.dumps(obj).encode()
    crc = crc32(body, crc32(("%s %d " % (name, seq)).encode()))
    return ("%d %08x " % (seq, crc)).encode(), body


def encode(name, seq, obj):
    """The bytes of one record file (see the module docstring)."""
    header, body = _encoded(name, seq, obj)
    return header + body + b"\n"


def decode(name, raw):
    """(seq, dict) from the bytes of a record file; ValueError saying what is wrong. The bytes are checked
    and parsed where they lie (through a memoryview): the file's bytes are the one copy of the record's
    text a load makes (on a long-fragmented heap, each more would need another block that long)."""
    if raw[-1:] != b"\n":
        raise ValueError("truncated")
    a = raw.find(b" ")
    b = a + 9  # "<seq> <crc32 as 8 hex digits> "
    if a < 1 or raw[b:b + 1] != b" " or not raw[:a].isdigit():
        raise ValueError("bad header")
    for c in raw[a + 1:b]:  # int() would let spaces and a sign through
        if c not in _HEX:
            raise ValueError("bad header")
    seq = int(raw[:a])
    crc = int(raw[a + 1:b], 16)
    body = memoryview(raw)[b + 1:-1]
    if crc32(body, crc32(("%s %d " % (name, seq)).encode())) != crc:
        raise ValueError("bad CRC")
    try:
        obj = json.loads(body if _MICROPYTHON else bytes(body))  # CPython's json does not read a memoryview
    except ValueError:  # on CPython invalid UTF-8 too
        raise ValueError("bad JSON")
    if not isinstance(obj, dict):
        raise ValueError("not an object")
    return seq, obj


class Store:
    """Named power-fail-safe records in folder `root`; `writes` counts record files written."""

    def __init__(self, root="/"):
        self.root = root
        self.writes = 0
        self._seq = {}  # name -> sequence number of the newest valid generation seen or written
        if root not in ("", ".", "/") and not exists(root):
            os.mkdir(root)

    def _path(self, name, suffix):
        return join(self.root, name + suffix)

    def _read(self, name):
        """([(seq, dict) valid generations], [problem strings], any generation file present)."""
        found, problems, present = [], [], False
        for slot in ("0", "1"):
            path = self._path(name, "." + slot)
            try:
                with open(path, "rb") as f:
                    raw = f.read()
            except OSError:
                problems.append("%s.%s: missing" % (name, slot))
                continue
            present = True
            try:
                found.append(decode(name, raw))
            except ValueError as e:
                problems.append("%s.%s: %s" % (name, slot, e))
        return found, problems, present

    def load(self, name):
        """The newest valid generation of record `name`, None if none was ever written, else Tilt."""
        _check_name(name)
        found, problems, present = self._read(name)
        if not found:
            if present:
                raise Tilt("record '%s' has no valid copy (%s)" % (name, "; ".join(problems)))
            return None
        seq, obj = found[0]
        for s, o in found[1:]:
            if s > seq:
                seq, obj = s, o
        self._seq[name] = seq
        return obj

    def save(self, name, obj):
        """Write `obj` (a JSON-able dict) as the next generation of record `name`."""
        _check_name(name)
        if not isinstance(obj, dict):
            raise ValueError("record '%s': a dict is stored, got %s" % (name, type(obj).__name__))
        check_plain(obj, "record '%s'" % name)
        seq = self._seq.get(name)
        if seq is None:
            found = self._read(name)[0]
            seq = max([s for s, _ in found]) if found else 0
        seq += 1
        tmp = self._path(name, ".tmp")
        target = self._path(name, "." + str(seq & 1))
        if _STREAM:
            crc = _Crc(crc32(("%s %d " % (name, seq)).encode()))
            json.dump(obj, crc)  # a first pass for the CRC, which the header carries
            with open(tmp, "wb") as f:
                f.write("%d %08x " % (seq, crc.crc))
                json.dump(obj, f)
                f.write(b"\n")
        else:
            header, body = _encoded(name, seq, obj)
            with open(tmp, "wb") as f:  # in pieces: header + body joined would be one more copy
                f.write(header)
                f.write(body)
                f.write(b"\n")
        try:
            os.rename(tmp, target)  # LittleFS replaces the older generation in one atomic commit
        except OSError:
            # FAT refuses to rename onto an existing file; the other generation still holds the
            # previous state while the target is briefly missing
            os.remove(target)
            os.rename(tmp, target)
        self._seq[name] = seq
        self.writes += 1
        return seq

    def clear(self, name):
        """Remove every generation of record `name` (load() then returns None)."""
        _check_name(name)
        for suffix in (".tmp", ".1", ".0"):
            path = self._path(name, suffix)
            if exists(path):
                os.remove(path)
        self._seq.pop(name, None)

    def names(self):
        """Names of the records present in the folder, sorted."""
        seen = set()
        for entry in os.listdir(self.root or "."):
            if entry.endswith(".0") or entry.endswith(".1"):
                seen.add(entry[:-2])
        return sorted(seen)
