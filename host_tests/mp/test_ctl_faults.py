"""A table (App as main.py boots it) on a flash log under repeated faults (issue 20): brown-out boot series, a damage
tilt no number of reboots clears, a duplicated block, a RAM clear on the smallest ring with its own checkpoint
damaged; every one of them ends in play or in a tilt a RAM clear clears, never in an exception out of App()."""
# mp-heap: 288K
import gc

import board  # boards/sim

from ramblockdev import PowerCut, RamBlockDev, flip, log_frames
from test_ctl_app import keyed
from tablectl import app as appmod
from tablectl import service
from tablectl.config import Config
from tablectl.log import F_END, Log
from tablectl.store import Store

BLOCK = 4096
FLASH = bytearray(BLOCK * 16)


def flash(blocks, size=BLOCK):
    data = memoryview(FLASH)[:size * blocks]
    for i in range(len(data)):
        data[i] = 0xFF
    return RamBlockDev(block_size=size, blocks=blocks, data=data, prog=256)


def boot(dev):
    gc.collect()
    app = appmod.App(board.make(virtual_clock=True, flash=dev))
    service.use(app)
    return app


def rounds(app, n):
    """n sic bo rounds as a dealer plays them."""
    for r in range(n):
        app.controller.handle("SHAKE")
        app.board.clock.advance(app.config["shake_ms"])
        app.tick()
        for e in ("BELL", "1", "2", str(r % 6 + 1), "ENTER", "CONFIRM"):
            app.controller.handle(e)


def ram_clear(app):
    return keyed(app, lambda: service.ram_clear(service.ram_clear().data["code"]))


def test_a_ram_clear_with_its_checkpoint_damaged_is_cleared_by_another_on_the_smallest_rings():
    for blocks in (5, 8):
        for before in range(0, 60, 3):  # wherever the RAM clear falls between two of the ring's checkpoints
            d = flash(blocks)
            app = boot(d)
            rounds(app, before)
            ram_clear(app)
            rounds(app, 1)
            end = [f for f in log_frames(d, payloads=False) if f[2] is not None and f[2] & F_END][-1]
            flip(d, end[0], end[1] + 12 + end[4] // 2)
            d = d.reboot()
            app = None
            app = boot(d)
            assert app.tilt, (blocks, before)
            for _ in range(3):  # a reboot never clears it
                d = d.reboot()
                app = None
                app = boot(d)
                assert app.tilt, (blocks, before)
            assert ram_clear(app).data == {"cleared": True}, (blocks, before)
            assert app.tilt is None
            rounds(app, 2)
            d = d.reboot()
            app = None
            app = boot(d)
            assert app.tilt is None and app.meters.rounds == 2, (blocks, before, app.tilt)
    service.use(None)
