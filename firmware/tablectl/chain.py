"""The journal's tamper-evident chain: each entry's SHA-256 over the chain before it and the entry's text.

    link(prev, entry)       -> the 32-byte chain value after `entry` ([seq, round, event, a, b, text(, time, epoch)])
    text(entry)             -> the entry as the chain hashes it: "seq round event a b text" (a stamped entry:
                               then a newline, which no entry's text holds, and "time epoch", time '-' if None)
    START                   -> the chain before a new journal's first entry (32 zero bytes)

The flash log keeps, in every frame holding entries, the chain before them ('c'), so boot checks that
each frame continues the one before; the export gives each entry's value, so a host checks an exported
file, and the next export, without the table. The same functions run on the board and on the host.
"""
import binascii
import hashlib

START = bytes(32)


def text(entry):
    bare = "%d %d %s %d %d %s" % (entry[0], entry[1], entry[2], entry[3], entry[4], entry[5])
    if len(entry) == 6:
        return bare
    return "%s\n%s %d" % (bare, "-" if entry[6] is None else "%d" % entry[6], entry[7])


def link(prev, entry):
    h = hashlib.sha256(prev)
    h.update(text(entry).encode())
    return h.digest()


def extend(prev, entries):
    """The chain value after `entries` (a list, or None for none) have followed `prev`."""
    for e in entries or ():
        prev = link(prev, e)
    return prev


def hexed(value):
    return binascii.hexlify(value).decode()


def unhexed(text_value):
    """32 bytes from 64 hex digits; ValueError for anything else."""
    try:
        value = binascii.unhexlify(text_value)
    except (ValueError, TypeError):
        raise ValueError("not a chain value: %r" % (text_value,))
    if len(value) != 32:
        raise ValueError("not a chain value: %r" % (text_value,))
    return value
