"""A table for a test: the App on the sim board with a virtual clock, its flash a file in a scratch folder;
restarted as a power cut, driven through handle(), cleaned up after (both runtimes)."""
import gc

import board  # boards/sim: on the path of host_tests/conftest.py and of harness/mpy.py

from harness.ramblockdev import flash_file as flash_of, remove_dir, scratch_dir
from tablectl import app as appmod
from tablectl.config import Config
from tablectl.storage import Log
from tablectl.store import Store

ROOTS = []


def new_app(game="sicbo", **cfg):
    """A fresh App with a virtual clock on an empty folder (its flash a file there), configured for `game`."""
    gc.collect()  # the previous test's App is garbage: keep the heap in one piece
    root = scratch_dir("ctl")
    ROOTS.append(root)
    flash = flash_of(root)
    if game != "sicbo" or cfg:
        Config(Store(Log(flash))).change(0, game=game, **cfg)
    return appmod.App(board.make(virtual_clock=True, flash=flash), root)


def restart(app):
    """Power cut and boot: the old App is dropped as it stands, a new board and App boot on the same flash
    (`app` may be its folder, so that the caller can let go of the old App before the new one boots)."""
    gc.collect()
    root = app if isinstance(app, str) else app.root
    return appmod.App(board.make(virtual_clock=True, flash=flash_of(root)), root)


def keyed(app, call, *args, **kw):
    """A service call as a technician makes one: the key switch turned on for it, then off again."""
    app.board.set_service_key(True)
    try:
        return call(*args, **kw)
    finally:
        app.board.set_service_key(False)


def drive(app, *events):
    """handle() each event; returns the list of results (True accepted, False refused)."""
    return [app.controller.handle(e) for e in events]


def press(app, role, hold_ms=60):
    """Press a button on the sim board for hold_ms, polling every 10 ms as the button task does."""
    b = app.board
    b.press(role)
    for _ in range(hold_ms // 10):
        b.clock.advance(10)
        app.poll()
    b.release(role)
    for _ in range(6):
        b.clock.advance(10)
        app.poll()


def cleanup():
    while ROOTS:
        remove_dir(ROOTS.pop())


def state_of(app):
    """Everything a refusal must leave alone: the saved record, the outputs but the display, the counters."""
    snap = app.board.snapshot()
    del snap["display"]
    return (app.controller.record(), snap, app.store.writes, app.journal.seq)


def check_refusals(game, events, accepted, to_state):
    """Every event in every state of `accepted` ({state: events accepted there}): an accepted one is
    True; a refused one is False, shows why on the display's second line and changes nothing."""
    for state in accepted:
        app = None
        for event in events:
            if app is None:  # a fresh table after an accepted event (a refused one changed nothing)
                cleanup()
                app = new_app(game)
                to_state(app, state)
            before = state_of(app)
            ok = app.controller.handle(event)
            assert ok == (event in accepted[state]), (state, event, ok)
            if ok:
                app = None
            else:
                assert state_of(app) == before, (state, event)
                assert app.controller.message and app.board.display.lines[1] == app.controller.message
        cleanup()
