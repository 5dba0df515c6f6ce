"""Boot's replay (tablectl.storage.replay) leaves RAM after boot (issue 20): unload_replay() frees its heap, a
Log built later boots as well as the first, and the App drops it once it has booted."""
# mp-heap: 212K
import gc
import sys

from harness.ramblockdev import RamBlockDev, skip
from tablectl.storage import Log, unload_replay

NAME = "tablectl.storage.replay"


def written():
    dev = RamBlockDev(block_size=4096, blocks=6, prog=256)
    log = Log(dev)
    log.commit(full={"round": {"n": 1, "h": [1, 2, 3]}}, entries=[[1, 1, "open", 0, 0, ""]])
    log.commit(patch={"round": {"n": 2}}, entries=[[2, 1, "result", 5, 0, ""]])
    return dev


def test_a_log_built_after_the_replay_was_dropped_boots_to_the_same_state_and_journal():
    dev = written()
    first = Log(dev.reboot())
    assert NAME in sys.modules
    assert unload_replay() is True and NAME not in sys.modules
    assert unload_replay() is False  # nothing left to drop
    again = Log(dev.reboot())  # imports it anew
    assert again.problem == "" and again.get("round") == first.get("round") == {"n": 2, "h": [1, 2, 3]}
    assert again.jseq == first.jseq == 2 and again.chain == first.chain and again.entries(5) == first.entries(5)


def test_dropping_the_replay_frees_its_heap():
    if not hasattr(gc, "mem_alloc"):
        skip("gc.mem_alloc is MicroPython-only")
    Log(written().reboot())
    gc.collect()
    loaded = gc.mem_alloc()
    unload_replay()
    gc.collect()
    freed = loaded - gc.mem_alloc()
    # the module's code and its globals: about 5 KB on the 64-bit unix port from .mpy files (under 1 KB where
    # the code is frozen or in ROMFS: only its objects are in the heap); a reference kept anywhere frees none
    assert freed > 2048, freed


def test_the_app_drops_the_replay_once_it_has_booted():
    import board
    from harness.ramblockdev import flash_file, remove_dir, scratch_dir
    from tablectl import app as appmod
    root = scratch_dir("unload")
    try:
        app = appmod.App(board.make(virtual_clock=True, flash=flash_file(root)), root)
        assert app.tilt is None and NAME not in sys.modules
        app2 = appmod.App(board.make(virtual_clock=True, flash=flash_file(root)), root)  # a reboot: loads it, drops it
        assert app2.tilt is None and NAME not in sys.modules and app2.log.jseq > app.log.jseq
    finally:
        remove_dir(root)
