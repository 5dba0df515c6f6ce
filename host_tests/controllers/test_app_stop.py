"""How the running table stops: Ctrl-C at the REPL holds the armed watchdog (a person is servicing the board),
a crash does not (the watchdog resets the board); either way the shaker and bell are left off."""
# mp-heap: 200K
import gc

import board  # boards/sim

import mptest
from harness.ramblockdev import flash_file, remove_dir, scratch_dir
from tablectl import app as appmod


def run_until_raised(exc):
    """appmod.run() on the sim board with a real clock until `exc` arrives in the watchdog task, after its
    second feed (as Ctrl-C, or a fault, arrives wherever the table happens to be); the board, after run()
    has raised it."""
    gc.collect()
    root = scratch_dir("stop")
    b = board.make(flash=flash_file(root, 8))
    feed = b.wdt.feed

    def feed_then_raise():
        feed()
        if b.wdt.feeds >= 2:
            raise exc

    b.wdt.feed = feed_then_raise
    try:
        mptest.raises(type(exc), appmod.run, b)
    finally:
        remove_dir(root)
    return b


def test_ctrl_c_holds_the_watchdog_and_leaves_the_outputs_off():
    b = run_until_raised(KeyboardInterrupt())
    assert b.wdt.held
    assert b.shaker_pin.value() == 0 and b.bell_pin.value() == 0


def test_a_crash_is_not_held_so_the_watchdog_resets_the_board():
    b = run_until_raised(RuntimeError("a fault in a task"))
    assert not b.wdt.held
    assert b.shaker_pin.value() == 0 and b.bell_pin.value() == 0
