"""Power cut at every block write of a dice round and of a progressive round, on LittleFS (a RAM block device
that fails mid-write): after each cut the controller boots, never tilts, and is exactly in the state before
or after the step the cut interrupted; a locked bet is counted once and the pool balances to the cent."""
# mp-heap: 312K
import gc

from ramblockdev import PowerCut, RamBlockDev, mount_fresh, need_vfs, remount, unmount
from test_ctl_app import board
from tablectl import app as appmod
from tablectl.config import Config
from tablectl.store import Store

MOUNT = "/ctlcut"


def boot(dev=None):
    gc.collect()
    return appmod.App(board.make(virtual_clock=True), MOUNT, journal_bytes=2048)


def view(app):
    """What must survive a cut: the saved state of the round (the record as the controller would save it)."""
    c = app.controller
    rec = c.record()
    return (rec["state"], rec["round"], str(rec.get("dice")), str(rec.get("hist")), str(rec.get("pool")),
            str(rec.get("hits")), str(rec.get("m")))


def run_cuts(game, steps):
    need_vfs()
    dev = RamBlockDev(block_size=256, blocks=64)
    mount_fresh(dev, MOUNT)
    try:
        if game != "sicbo":
            Config(Store(MOUNT)).change(0, game=game)
        app = boot()
        image = dev.snapshot()
        views = [view(app)]
        ops = [dev.ops]
        for step in steps:  # the clean run: the state after each step and the block ops it took
            step(app)
            views.append(view(app))
            ops.append(dev.ops)
        total = dev.ops - ops[0]
        assert total > 10, total
        app = None
        checked = 0
        for n in range(1, total + 1):
            dev.restore(image)
            dev = remount(dev, MOUNT)
            app = boot()
            dev.cut_after(n)
            k = 0
            try:
                for k in range(len(steps)):
                    steps[k](app)
            except (PowerCut, OSError):
                pass
            else:
                raise AssertionError("no cut after %d ops" % n)
            app = None
            dev = remount(dev, MOUNT)
            again = boot()
            assert again.tilt is None, (n, again.tilt)
            got = view(again)
            assert got in (views[k], views[k + 1]), (n, k, got, views[k], views[k + 1])
            pool = getattr(again.controller, "pool", None)
            if pool is not None:
                assert pool.pool + pool.reserve + pool.paid == pool.seeded + pool.contributed
            checked += 1
        return checked
    finally:
        unmount(MOUNT)


def test_power_cut_at_every_block_write_of_a_dice_round():
    def shake(app):
        app.controller.handle("SHAKE")
        app.board.clock.advance(app.config["shake_ms"])
        app.tick()

    def ev(*names):
        return lambda app: [app.controller.handle(e) for e in names]

    steps = [shake, ev("BELL"), ev("2", "2", "5", "ENTER"), ev("CONFIRM"), shake, ev("VOID_LONG")]
    assert run_cuts("sicbo", steps) > 10


def test_power_cut_at_every_block_write_of_a_progressive_round_bets_counted_once():
    def lock(app):
        for s in (1, 2, 5):
            app.board.set_seat(s, True)
        app.tick()
        app.controller.handle("LOCK")

    def ev(*names):
        return lambda app: [app.controller.handle(e) for e in names]

    steps = [lock, ev("HIT", "2", "ENTER", "4", "ENTER", "ENTER"), ev("CONFIRM"), ev("CONFIRM"), lock,
             ev("VOID_LONG"), lock]
    assert run_cuts("caribbean_stud", steps) > 10
