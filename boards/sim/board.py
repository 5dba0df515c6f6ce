"""Simulated board for the unix port: virtual pins, lamps, text display and jackpot digits that tests and the simulator read and drive.

    import board
    b = board.make(virtual_clock=True)   # ticks move only on b.clock.advance(ms)
    b.press('BELL'); b.release('BELL')   # the dealer's buttons, by role (see tablectl/games/base.py)
    b.set_seat(3, True)                  # a chip on seat 3's progressive sensor (seats 1..7, 1 = dealer's left)
    b.set_cover(False)                   # the shaker cover unclipped (the shaker's interlock opens)
    b.snapshot()                         # every output as plain data
    b.listeners.append(fn)               # fn(what) on every output change: 'lamps', 'display',
                                         # 'jackpot', 'shaker', 'bell', 'betting_lamp', 'wdt'
    b.tasks()                            # extra coroutines App.run() starts: b.extra_tasks (links)

The virtual hardware is in simhw.py (boards/qemu wires the same). The real drivers run on it: the lamp
driver writes a virtual WS2812 chain, the jackpot driver a virtual MAX7219 (its register writes are
decoded back into digits), so what the tests and the simulator see is what the driver sent. ROOT is the folder the controller keeps its records in
(env TABLECTL_ROOT, default 'simstate').
"""
import os

from simhw import ROLES, SimBoard  # noqa: F401  (ROLES: the link and the tests read it here)

ROOT = (os.getenv("TABLECTL_ROOT") if hasattr(os, "getenv") else None) or "simstate"


class UnixSimBoard(SimBoard):
    def tasks(self):
        extra = list(self.extra_tasks)
        # the host simulator (tools/sim) asks for its link and the REPL on the pty through the environment
        if os.getenv("TABLECTL_LINK"):
            import link
            extra.append(link.task(self, os.getenv("TABLECTL_LINK")))
        if os.getenv("TABLECTL_REPL"):
            import simrepl
            extra.append(simrepl.task())
        return extra


def make(virtual_clock=False):
    return UnixSimBoard(virtual_clock)
