"""A running App a technician's service calls act on (tablectl.app.current, the key switch on), the sim board and
a virtual clock on a scratch folder; done() after each test puts everything back (both runtimes)."""
import gc

import board  # boards/sim: on the path of host_tests/conftest.py and of harness/mpy.py

from harness.ramblockdev import damage_record, flash_file as flash_of, remove_dir, scratch_dir
from tablectl import app as appmod
from tablectl import service
from tablectl.service import outputs
from tablectl.config import Config
from tablectl.storage import Log
from tablectl.store import Store

ROOTS = []
REAL_SLEEP = outputs._sleep


def new_app(game="sicbo", **cfg):
    """A running App (registered as tablectl.app.current) on an empty folder, the sim board, a virtual clock."""
    gc.collect()
    root = scratch_dir("sv")
    ROOTS.append(root)
    flash = flash_of(root)
    if game != "sicbo" or cfg:
        Config(Store(Log(flash))).change(0, game=game, **cfg)
    app = appmod.App(board.make(virtual_clock=True, flash=flash), root)
    app.board.set_service_key(True)  # the technician's key switch on: the calls may change the table
    app.tick()  # and seen (journalled), as the controller task has within milliseconds of a boot
    appmod.current = app
    return app


def done():
    """No App left current, the real sleep back, the scratch folders gone."""
    appmod.current = None
    service.use(None)
    outputs._sleep = REAL_SLEEP
    while ROOTS:
        remove_dir(ROOTS.pop())


def corrupt(app, name):
    """Damage the newest frame that writes record `name`, then journal something after it (so the log
    proves a later state than the one left readable)."""
    damage_record(app.board.flash, name)
    app.journal.append("note", 0)


def reboot(app):
    gc.collect()
    app = appmod.App(board.make(virtual_clock=True, flash=flash_of(app.root)), app.root)
    app.board.set_service_key(True)
    appmod.current = app
    return app
