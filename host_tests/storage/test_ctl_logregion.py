"""A board whose build leaves no raw flash region keeps the log in a file on LittleFS (hw.wiring.table_flash), which
wears a stock Pico's flash out in weeks: the table tilts NO LOG REGION and plays nothing, unless the technician
accepts the file with the configuration key log_file_ok, the one change configure() takes in that tilt."""
# mp-heap: 264K
import gc

import board

from harness.ramblockdev import remove_dir, scratch_dir
from harness.tables import keyed
from tablectl import app as appmod
from tablectl import service
from tablectl.config import Config
from tablectl.hw.fileflash import FileFlash
from tablectl.hw.wiring import table_flash
from tablectl.storage import Log
from tablectl.store import Store
from mptest import raises


def boot(root, **cfg):
    gc.collect()
    flash = table_flash(None, 256, path=root + "/tablelog.bin")  # no region: the file fallback
    if cfg:
        Config(Store(Log(flash))).change(0, **cfg)
    app = appmod.App(board.make(virtual_clock=True, flash=flash), root)
    service.use(app)
    return app


def test_the_file_fallback_tilts_no_log_region_by_default():
    root = scratch_dir("nolog")
    try:
        app = boot(root)
        assert app.tilt == "NO LOG REGION" and app.controller.state == "tilt"
        assert app.controller.handle("SHAKE") is False and app.board.shaker_pin.value() == 0
        assert "NO LOG REGION" in str(service.status())
        # any other change is refused in this tilt, and changes nothing
        e = raises(ValueError, keyed, app, service.configure, game="fantan")
        assert "tilt" in e
        e = raises(ValueError, keyed, app, service.configure, log_file_ok=True, game="fantan")
        assert "tilt" in e and app.config["game"] == "sicbo" and app.tilt == "NO LOG REGION"
        # the technician accepts the file: the table comes up at once, and after a reboot too
        keyed(app, service.configure, log_file_ok=True)
        assert app.tilt is None and app.controller.state == "idle"
        assert app.controller.handle("SHAKE") is True
        app = boot(root)
        assert app.tilt is None and app.config["log_file_ok"] is True
    finally:
        service.use(None)
        remove_dir(root)


def test_a_raw_region_never_tilts_and_the_key_is_refused_other_than_a_bool():
    root = scratch_dir("nolog_ok")
    try:
        flash = table_flash(None, 256, path=root + "/tablelog.bin")
        assert flash.file_fallback is True
        app = appmod.App(board.make(virtual_clock=True, flash=FileFlash(root + "/flash.bin")), root)  # a raw region
        assert app.tilt is None
        service.use(app)
        e = raises(ValueError, keyed, app, service.configure, log_file_ok=1)
        assert "log_file_ok" in e and app.config["log_file_ok"] is False
    finally:
        service.use(None)
        remove_dir(root)
