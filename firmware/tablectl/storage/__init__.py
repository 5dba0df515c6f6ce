"""The table's power-fail-safe log on raw flash: records and journal entries in CRC-framed frames appended
into erased space, so that a flash block is erased once it fills instead of once a write.

    log = Log(dev)                  # dev: a block device (tablectl.storage.ring)
    log.watch('config')             # frames writing it are flagged: log.vital_lost after damage (Store does it)
    log.problem                     # '' or why the log cannot be trusted: the table tilts
    log.get(name), log.names()      # the committed records, rebuilt from flash at boot
    log.commit(full={'config': {...}}, patch={'round': {'state': 'betting'}}, entries=[...])
    with log.atomic():              # the commits inside become one frame: all of it or none after a cut
        ...
    log.checkpoint(records, entries)  # the whole state restated (a RAM clear: records left out are gone)
    log.entries(n)                  # the last n journal entries, oldest first, and damaged frames met
    log.idle()                      # between keys: erase the next block ahead, or write a due checkpoint

One question a module: frame (a frame's bytes, streamed in and out a page at a time), ring (the blocks,
their headers, the frames a block holds), records (what a payload does to the records), replay (boot and
the damage rules; unload_replay() frees it after boot), writer (commits, checkpoints, idle erases).
docs/storage.md describes the format and every kind of damage.
"""
import sys

from tablectl.storage.errors import LogError, Refused
from tablectl.storage.frame import F_ACK, F_CKPT, F_END, F_ENT, F_REC, F_VITAL
from tablectl.storage.writer import Log


def unload_replay():
    """Drop the boot's replay module from RAM (a Log built later imports it again): True if it was loaded."""
    name = __name__ + ".replay"
    if name not in sys.modules:
        return False
    del sys.modules[name]
    pkg = sys.modules[__name__]
    if "replay" in pkg.__dict__:
        delattr(pkg, "replay")
    return True
