"""The on-flash format of the storage package is the one tablectl.log wrote before the split (issue 20): a
scripted session's flash images, byte for byte, against their SHA-256 as the old module left them. Every kind
of frame is in it: whole records, patches, deep patches, removals, atomic() joins, journal entries, long frames
streamed in two passes, checkpoints, a torn write and its acknowledgement, idle erases, a RAM clear, the ring
wrapped; on a Pico's geometry (4 KB blocks, 256-byte pages) and on a small ring of 1 KB blocks."""
# mp-heap: 156K
import binascii
import hashlib
import sys

from harness.ramblockdev import PowerCut, RamBlockDev
from tablectl.journal import Journal
from tablectl.storage import Log
from tablectl.store import Store

# what tablectl.log (main before the split, dfaf5f8) left on the flash after session() on each geometry: the
# JSON text of a payload is the interpreter's (MicroPython's dicts keep no insertion order), so each has its own
IMAGES = {
    "cpython": {
        (4096, 6, 256): "721d7aafbab755dd5999841864a9eddf14a974209fef31ed62d85775c28efaa3",
        (1024, 6, 16): "568e011a8a8ba1fed9d95f2d2f050a1cd0d5c64e50412376367c7132c0afb7b7",
    },
    "micropython": {
        (4096, 6, 256): "48b58f5f456eb6422741a500124aa9eaf60229fd4a11607b1bf131e8388d6993",
        (1024, 6, 16): "eb046b5d6f435ede0bd05408ddf439a553f895e6225f2e67fbbdbe9cb796a64f",
    },
}[sys.implementation.name]


def session(dev, rounds, kept=20):
    """A table's writes, deterministic; returns the device (a new one after the power cut)."""
    log = Log(dev)
    store, journal = Store(log), Journal(log)
    with log.atomic():
        store.save("config", {"v": {"game": "sicbo", "seats": 7}, "p": {}}, full=True)
        journal.append("factory_setup", 0, text="game 'sicbo'")
    history = []
    for i in range(1, rounds + 1):
        history = (history + [[i % 6 + 1, i % 5 + 1, i % 4 + 1]])[-kept:]
        rec = {"round": i, "state": "betting", "h": history,
               "m": {"in": {"t": 100 * i, "n": i}, "out": {"t": 37 * i, "n": i // 2}}}
        if i % 7 == 0:
            rec["note"] = "x" * (300 + i % 50)  # a frame over a page: the second, streamed pass
        with log.atomic():
            store.save("round", rec)
            journal.append("result", i, a=i % 17, b=250 * i, text="round %d" % i)
        if i % 3 == 0:
            journal.append("lock", i, a=i)  # a frame of entries alone
        if i % 11 == 0:
            store.save("tmp", {"k": i})
        elif i % 11 == 5:
            store.clear("tmp")
        if i % 4 == 0:
            log.idle()
        if i == rounds // 2:  # the power fails in the middle of a round's frame
            dev.cut_after(1)
            try:
                store.save("round", {"round": i, "state": "paying"})
            except PowerCut:
                pass
            dev = dev.reboot()
            log = Log(dev)
            store, journal = Store(log), Journal(log)
            journal.append("torn_write", 0, a=log.torn, text="a write cut by a power failure was discarded")
    records = {"config": store.peek("config"), "epoch": {"n": 2}}
    log.checkpoint(records, journal.entries((("ram_clear", 0, 0, 0, ""), ("ram_cleared", 0, 0, 0, ""))))
    store.save("round", {"round": 1, "state": "betting", "h": []})
    return dev


def digest(dev):
    return binascii.hexlify(hashlib.sha256(bytes(dev.data)).digest()).decode()


def test_the_flash_image_of_a_scripted_session_is_byte_for_byte_the_old_modules_on_a_picos_geometry():
    dev = session(RamBlockDev(block_size=4096, blocks=6, prog=256), 160)
    assert digest(dev) == IMAGES[(4096, 6, 256)]
    log = Log(dev.reboot())  # and it reads back
    assert log.problem == "" and log.get("round")["round"] == 1 and log.get("epoch") == {"n": 2}


def test_the_flash_image_of_a_scripted_session_is_byte_for_byte_the_old_modules_on_a_small_ring():
    dev = session(RamBlockDev(block_size=1024, blocks=6, prog=16), 60, kept=4)
    assert digest(dev) == IMAGES[(1024, 6, 16)]
