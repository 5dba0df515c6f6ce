"""A tap is never lost: the sim board's button pins run the handler Buttons gave their irq() (virtual interrupts),
which latches each edge with its time; poll() debounces them after a commit that held the button task, so a
press and release that both came while the controller was busy still count, once, and a bounce still does not."""
# mp-heap: 264K
import simhw

from harness.tables import cleanup, new_app
from tablectl.hw import buttons as buttonsmod
from tablectl.hw.buttons import Buttons


def board_buttons():
    b = simhw.SimBoard(virtual_clock=True)
    return b, Buttons(b.buttons, ticks=b.ticks_ms)


def tap(b, role, ms):
    b.press(role)
    b.clock.advance(ms)
    b.release(role)


def test_a_tap_between_two_polls_is_one_press():
    b, bt = board_buttons()
    assert bt.poll(b.ticks_ms()) == []
    tap(b, "SHAKE", 50)  # pressed and released while no poll ran (a commit held the task)
    b.clock.advance(40)
    assert bt.poll(b.ticks_ms()) == ["SHAKE"]
    for _ in range(5):
        b.clock.advance(10)
        assert bt.poll(b.ticks_ms()) == []
    tap(b, "SHAKE", 35)  # and the next tap counts again
    assert bt.poll(b.ticks_ms()) == ["SHAKE"]


def test_bounces_between_polls_are_no_press_and_a_bouncy_tap_is_one():
    b, bt = board_buttons()
    for _ in range(4):
        tap(b, "BELL", 5)
        b.clock.advance(5)
    b.clock.advance(40)
    assert bt.poll(b.ticks_ms()) == []  # contacts that never stayed closed 30 ms
    b.press("BELL")
    b.clock.advance(3)
    b.release("BELL")
    b.clock.advance(2)
    tap(b, "BELL", 60)  # a bounce, then held: one press
    b.clock.advance(3)
    b.press("BELL")  # bouncing on release
    b.clock.advance(2)
    b.release("BELL")
    b.clock.advance(50)
    assert bt.poll(b.ticks_ms()) == ["BELL"]


def test_a_long_hold_between_polls_is_the_press_and_its_long_press():
    b, bt = board_buttons()
    tap(b, "VOID", 1200)
    assert bt.poll(b.ticks_ms()) == ["VOID", "VOID_LONG"]
    b.clock.advance(40)
    assert bt.poll(b.ticks_ms()) == []


def test_a_press_still_held_after_the_commit_counts_from_its_edge():
    b, bt = board_buttons()
    b.press("ENTER")
    b.clock.advance(80)  # the commit; the button is still down when the task polls again
    assert bt.poll(b.ticks_ms()) == ["ENTER"]
    b.clock.advance(10)
    assert bt.poll(b.ticks_ms()) == []
    b.release("ENTER")
    b.clock.advance(40)
    assert bt.poll(b.ticks_ms()) == [] and not bt.pressed("ENTER")


def test_a_full_ring_drops_edges_and_the_pins_are_still_read():
    b, bt = board_buttons()
    for _ in range(buttonsmod.EDGES):  # twice the ring's edges: the later ones are dropped
        tap(b, "2", 1)
    b.press("3")
    b.clock.advance(40)
    assert bt.poll(b.ticks_ms()) == []  # '3' went down after the ring filled: polling sees it from now
    b.clock.advance(40)
    assert bt.poll(b.ticks_ms()) == ["3"]
    tap(b, "4", 50)
    assert bt.poll(b.ticks_ms()) == ["4"]  # the ring has room again


def test_a_tap_during_a_confirms_commit_is_handled_after_it():
    app = new_app()
    b, c = app.board, app.controller
    app.dispatch("SHAKE")
    b.clock.advance(app.config["shake_ms"])
    app.tick()
    for k in ("BELL", "2", "2", "5", "ENTER"):
        app.dispatch(k)
    assert c.state == "result"
    seen = []

    def dealer_taps(what):  # while CONFIRM runs (it turns the lamps off, then commits): a tap of SHAKE
        if what == "lamps" and not seen:
            seen.append(c.state)
            tap(b, "SHAKE", 45)

    b.listeners.append(dealer_taps)
    app.dispatch("CONFIRM")
    b.listeners.remove(dealer_taps)
    assert seen and c.state == "idle" and c.round_no == 2
    b.clock.advance(10)
    app.poll()  # the button task's next pass, after the commit
    assert c.state == "shaking"
    cleanup()
