"""A board's first boot of the flash-log firmware: the records an older firmware kept as files come along.

Older firmware kept each record as two files, NAME.0 and NAME.1, one line each:
"<seq> <crc32 as 8 hex> <JSON>", the CRC over "NAME <seq> <JSON>"; the newest valid copy counted. On a
fresh log, migrate() takes the newest valid 'config' and 'round' from the filesystem root into the log's
first checkpoint, with a journal entry naming where they came from, so a pool is never lost to an
upgrade. Nothing is migrated when neither exists; a record with files but no valid copy leaves the table
halted (a 'halt' record, a tilt until a RAM clear), as the older firmware would have been.
The files themselves stay where they are: the log is no longer fresh, so they are never read again.
"""
import json

from tablectl.crc import crc32
from tablectl.store import join

NAMES = ("config", "round")


def _decode(name, raw):
    a = raw.find(b" ")
    if raw[-1:] != b"\n" or a < 1 or raw[a + 9:a + 10] != b" ":
        return None
    try:
        seq = int(raw[:a])
        crc = int(raw[a + 1:a + 9], 16)
    except ValueError:
        return None
    body = raw[a + 10:-1]
    if crc32(body, crc32(("%s %d " % (name, seq)).encode())) != crc:
        return None
    try:
        obj = json.loads(body)
    except ValueError:
        return None
    return (seq, obj) if isinstance(obj, dict) else None


def _newest(root, name):
    """(value, copies found): the newest valid copy of an old record file pair."""
    best, found = None, 0
    for slot in ("0", "1"):
        try:
            with open(join(root, name + "." + slot), "rb") as f:
                raw = f.read()
        except OSError:
            continue
        found += 1
        got = _decode(name, raw)
        if got is not None and (best is None or got[0] > best[0]):
            best = got
    return (best[1] if best else None), found


def migrate(log, root):
    """Move the old records under `root` into the fresh `log`; True if there were any. A record with files
    but no valid copy becomes a 'halt' record: the table tilts on it, as the older firmware would have,
    until a RAM clear (which resets the configuration when that is the record lost)."""
    records, notes, bad = {}, [], []
    for name in NAMES:
        value, found = _newest(root, name)
        if value is not None:
            records[name] = value
            notes.append(name)
        elif found:
            bad.append(name)
    if not notes and not bad:
        return False
    if bad:
        records["halt"] = {"why": "older firmware's record %s has no valid copy" % " and ".join(bad),
                           "config_lost": "config" in bad}
        notes.append("%s unreadable" % "+".join(bad))
    log.checkpoint(records, [[1, (records.get("round") or {}).get("round", 0), "migrated", 0, 0,
                              ("from files: " + ", ".join(notes))[:48]]])
    return True
