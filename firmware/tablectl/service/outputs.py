"""The service's output tests: lamp_test(), display_test(), shaker_test(), each refused mid-round.

They run inside the event loop (aiorepl), so they feed the board's watchdog at least every FEED_MS;
each puts back what the outputs showed before. shaker_test() only where the game has the electric
shaker (the controller's electric(), SB-2.1, FPC-2.1).
"""
import time

from tablectl.service.context import Report, feed, int_arg, journal_call, may_change, running_app

FEED_MS = 500  # the longest sleep between two watchdog feeds in an output test (the boards' WDT: 5 s)
LAMP_STEP_MS = 500  # lamp_test(step_ms) at most: 120 lamps then take a minute, not twenty
DISPLAY_STEP_MS = 2000


def _sleep(ms):
    if ms > 0:
        time.sleep_ms(ms) if hasattr(time, "sleep_ms") else time.sleep(ms / 1000)


def _wait(app, ms):
    """Sleep ms, the watchdog fed before, after and every FEED_MS in between."""
    feed(app)
    while ms > 0:
        step = min(ms, FEED_MS)
        _sleep(step)
        ms -= step
        feed(app)


def lamp_test(step_ms=150):
    from tablectl.hw.lamps import WIN
    app = running_app()
    int_arg("step_ms", step_ms, 0, LAMP_STEP_MS)
    may_change(app, "lamp_test")
    journal_call(app, "lamp_test %d ms a lamp" % step_ms)
    lamps = app.board.lamps
    saved = lamps.snapshot()
    try:
        for i in range(lamps.count):
            lamps.clear()
            lamps.set(i, WIN)
            lamps.show()
            _wait(app, step_ms)
        for i in range(lamps.count):
            lamps.set(i, WIN)
        lamps.show()
        _wait(app, step_ms * 4)
    finally:
        lamps.restore(saved)
    return Report("lamp_test", ["%d lamps lit one by one, then all together; check each by eye"
                                % lamps.count], {"lamps": lamps.count})


def display_test(step_ms=500):
    app = running_app()
    int_arg("step_ms", step_ms, 0, DISPLAY_STEP_MS)
    may_change(app, "display_test")
    journal_call(app, "display_test %d ms" % step_ms)
    board = app.board
    display = board.display
    saved = list(display.lines)
    try:
        for ch in ("8", "#"):
            for row in range(display.rows):
                display.text(row, ch * display.cols)
            _wait(app, step_ms)
    finally:
        for row in range(display.rows):
            display.text(row, saved[row])
    lines = ["text display: %d x %d filled with '8' then '#'" % (display.rows, display.cols)]
    jackpot = board.jackpot  # None: this board has no jackpot digits
    if jackpot is not None:
        eights = int("8" * jackpot.n)  # all segments; as cents the point shows too
        jackpot.show_cents(eights)
        _wait(app, step_ms)
        jackpot.blank()
        app.controller.redraw_digits()
        lines.append("jackpot digits: all segments, then blank until the controller redraws them")
    return Report("display_test", lines, None)


def shaker_test(ms=None):
    from tablectl.hw.clock import ticks_diff, ticks_ms
    app = running_app()
    shaker = app.board.shaker  # every board has the output (hw.wiring.Board); the game says if a shaker is on it
    if ms is not None:
        int_arg("ms", ms, 1, shaker.max_on_ms, " (the shaker's max on-time)")
    may_change(app, "shaker_test")
    if not app.controller.electric():  # SB-2.1, FPC-2.1: only the dice games have one
        raise ValueError("shaker_test refused: %s has no electric shaker%s"
                         % (app.controller.game or "this table", " (in tilt)" if app.tilt else ""))
    if ms is None:
        ms = min(app.config["shake_ms"], shaker.max_on_ms)
    journal_call(app, "shaker_test %d ms" % ms)
    start = ticks_ms()
    try:
        shaker.on(ms)  # the driver refuses with the cover open (SB-2.1)
        # real time bounds the wait even if the board's clock is virtual; off whatever happens
        while shaker.service() and ticks_diff(ticks_ms(), start) < ms:
            _wait(app, 10)
    finally:
        shaker.off()
    ran = ticks_diff(ticks_ms(), start)
    return Report("shaker_test", ["shaker ran %d ms (asked %d, max %d) and is off" % (ran, ms, shaker.max_on_ms)],
                  {"ms": ms, "ran_ms": ran})
