"""The bench session as a board plays it: booted by main.py, the rounds of fwround.py played from a task beside the
controller's own, then the figures on one line and the process ends.

The sim board starts task() when env TABLECTL_SESSION is "ROUNDS" (boards/sim/board.py), so the firmware
boots exactly as on a board (main.py: board.make(), App(board), its tasks), in the heap the port was given,
with nothing imported or collected for it beforehand. The sim board's virtual clock (TABLECTL_CLOCK=virtual)
lets a dice round's shake take no real time. Printed at the end:

    BENCH <game> rounds N frames N erases N programs N journal N lat_med us lat_max us heap_used bytes rom 0|1

and the process exits (SystemExit, which asyncio does not catch): 0, or 1 after a line BENCH-FAIL <why>.
"""
import array
import gc
import sys
import time

from fwround import play  # imported with this module, when the board is made (before the table boots)

_ROUNDS = int(__import__("os").getenv("TABLECTL_SESSION") or 0)
# made with this module, before the table boots: the latencies in us of two timed keys a round, the
# harness's only block of any size (after the boot the heap need not have one that long free)
LAT = array.array("H", range(2 * _ROUNDS))


def _probe():
    import os
    return bool(os.getenv("TABLECTL_PROBE"))


def _sort(lat, n):
    # insertion sort in place: sorted() would want a block as long as the array at the end of a long session
    for i in range(1, n):
        v, j = lat[i], i - 1
        while j >= 0 and lat[j] > v:
            lat[j + 1] = lat[j]
            j -= 1
        lat[j + 1] = v


async def task(board, rounds):
    try:
        await _session(board, rounds)
    except Exception as e:  # out of memory, most likely: the table failed the session
        print("BENCH-FAIL", type(e).__name__, e)
        sys.print_exception(e)
        raise SystemExit(1)
    raise SystemExit(0)


async def _session(board, rounds):
    from tablectl import app as appmod
    from tablectl.hw.clock import sleep_ms
    await sleep_ms(0)  # App.run has started every task: the table is running
    app = appmod.current
    game = app.config["game"]
    if board.__class__.__name__ and _probe():
        gc.collect()
        import micropython
        print("BOOT heap", gc.mem_alloc())
        micropython.mem_info(1)
    lat = LAT
    mark = [0, 0]  # [start ticks_us or 0, latencies recorded]

    def on_change(what):
        if what == "lamps" and mark[0]:
            lat[mark[1]] = min(65535, time.ticks_diff(time.ticks_us(), mark[0]))
            mark[0] = 0
            mark[1] += 1

    def timed(ev):
        mark[0] = time.ticks_us()
        app.controller.handle(ev)

    board.listeners.append(on_change)
    log, j0 = app.log, app.journal.writes
    f0, e0, p0 = log.frames, log.erases, log.programs
    for r in range(rounds):
        failed = play(app, r, timed)
        if failed:
            raise ValueError(failed)
        await sleep_ms(0)  # the button, controller, display and watchdog tasks run between rounds
    n = mark[1]
    _sort(lat, n)
    gc.collect()
    print("BENCH", game, "rounds", rounds, "frames", log.frames - f0, "erases", log.erases - e0, "programs",
          log.programs - p0, "journal", app.journal.writes - j0, "lat_med", lat[n // 2] if n else -1,
          "lat_max", lat[n - 1] if n else -1, "heap_used", gc.mem_alloc(),
          "rom", int(sys.modules["tablectl"].__file__.startswith("/rom/")))
