"""What a frame's payload does to the records: 'r' full values, 'p' changed keys, 'q' changed keys of
dict-valued keys, 'd' names removed (apply); and the commits an atomic() block folds into one frame (hold).
"""
from tablectl.storage.errors import LogError


def merged(value, sub):
    """A copy of dict `value` with the keys of `sub` set (a deep patch of one key)."""
    if not isinstance(value, dict):
        raise LogError("a deep patch of a key that holds no dict")
    value = dict(value)
    value.update(sub)
    return value


def empty():
    """What an atomic() block holds before its first commit: (full, patch, gone, entries, deep)."""
    return {}, {}, [], [], {}


def hold(held, full, patch, gone, entries, deep):
    """Fold one commit into those atomic() holds: (full, patch, gone, entries, deep)."""
    hf, hp, hg, he, hq = held
    for name in full or ():
        hf[name] = full[name]
        hp.pop(name, None)
        hq.pop(name, None)
        if name in hg:  # removed, then saved again: the frame's removals come after its full values
            hg.remove(name)
    for name in patch or ():
        if name in hf:
            value = dict(hf[name])
            value.update(patch[name])
            hf[name] = value
        else:
            hp[name] = dict(hp.get(name, {}))
            hp[name].update(patch[name])
            if name in hq:
                for k in patch[name]:
                    hq[name].pop(k, None)
    for name in deep or ():
        for k in deep[name]:
            sub = deep[name][k]
            if name in hf:
                value = dict(hf[name])
                value[k] = merged(value[k], sub)
                hf[name] = value
            elif k in hp.get(name, ()):
                hp[name][k] = merged(hp[name][k], sub)
            else:
                hq[name] = dict(hq.get(name, {}))
                hq[name][k] = merged(hq[name].get(k, {}), sub)
    for name in gone or ():
        hf.pop(name, None)
        hp.pop(name, None)
        hq.pop(name, None)
        if name not in hg:
            hg.append(name)
    for e in entries or ():
        he.append(e)
    return held


def held_value(held, name, value):
    """Record `name`, committed as `value` (None: none), with what the atomic() holds `held` do to it."""
    hf, hp, hg, he, hq = held
    if name in hf:
        return hf[name]
    if name in hg or value is None:
        return None
    if name in hp or name in hq:
        value = dict(value)
        value.update(hp.get(name, {}))
        deep = hq.get(name, {})
        for k in deep:
            value[k] = merged(value.get(k), deep[k])
    return value


def apply(state, obj):
    """Change `state` ({name: value}) as the payload obj says."""
    r = obj.get("r")
    if r:
        for name in r:
            state[name] = r[name]
    p = obj.get("p")
    if p:
        for name in p:
            if name not in state:
                raise LogError("record '%s' patched before it was written" % name)
            state[name].update(p[name])
    q = obj.get("q")  # deep patches: the changed keys of a record's dict-valued keys
    if q:
        for name in q:
            if name not in state:
                raise LogError("record '%s' patched before it was written" % name)
            rec = state[name]
            for k in q[name]:
                rec[k] = merged(rec.get(k), q[name][k])
    d = obj.get("d")
    if d:
        for name in d:
            state.pop(name, None)
