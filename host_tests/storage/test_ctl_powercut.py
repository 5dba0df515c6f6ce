"""Power cuts at every program and every erase of the flash (a Pico's geometry: 4 KB blocks, 256-byte pages), each
cut leaving the operation half done, not done, or noisy, across the play of every controller, a hit with its
cards, a void with carried bets, a pool change that waits for a hit, a RAM clear from play and from a tilt, a
game change with its code and the ring's wrap (the journal's rotation). After each cut the table boots as
main.py boots it (App(board)) and: it is exactly where it was before or after the step the cut interrupted;
the pool balances; no hit is paid twice, even once the interrupted round is finished; a tilt is still there
after another reboot; the table plays on."""
# mp-heap: 472K
import gc

import board  # boards/sim

from harness.ramblockdev import PowerCut, RamBlockDev, damage_record
from harness.tables import keyed
from tablectl import app as appmod
from tablectl import service
from tablectl.config import Config
from tablectl.storage import Log
from tablectl.store import Store

VARIANTS = ((None, 0), (0, 0), (None, 7))  # (bytes of the cut operation done: None half; noise seed)
BLOCK = 4096
# the flash and its picture, allocated once for every test: 48 KB blocks of heap come and go badly. A progressive
# plays on 12 blocks: a smaller ring keeps one block for a checkpoint, which its records at their largest outgrow
# (tablectl.bound.checkpoint: such a configuration is refused)
FLASH = bytearray(BLOCK * 12)
IMAGE = bytearray(BLOCK * 12)


def boot(dev):
    gc.collect()
    app = appmod.App(board.make(virtual_clock=True, flash=dev))
    service.use(app)
    return app


def view(app):
    """What must survive a cut: the round as the controller would save it, or the tilt."""
    if app.tilt:
        return ("tilt",)
    rec = app.controller.record()
    return (rec["state"], rec["round"], str(rec.get("dice")), str(rec.get("number")), str(rec.get("hist")),
            str(rec.get("pool")), str(rec.get("hits")), str(rec.get("awards")), str(rec.get("m")),
            app.config["game"], str(sorted(app.config.values.items())), str(sorted(app.config.pending.items())),
            app.journal.epoch)  # a RAM clear's epoch moves with what it wipes, never alone


def pays(app):
    return [(r[1], r[3]) for r in app.journal.records(80) if r[2] == "pay"]


def finish(app):
    """End whatever round the table resumed in, as a dealer would: confirm it (settling its hits), else void."""
    c = app.controller
    for _ in range(12):
        if c.state in ("idle", "betting"):
            return
        if c.state == "result" or c.state in ("locked", "paying"):
            c.handle("CONFIRM")
        else:
            c.handle("VOID_LONG")
    raise AssertionError("round not finished: %s %s" % (c.state, c.message))


def run_cuts(game, setup, steps, blocks=None, wraps=False):
    """Play setup(app) on a fresh flash, then cut the power at every program and erase of steps (which, with
    wraps, must erase a block the ring used before); the number of cuts checked."""
    blocks = blocks or (6 if game in ("sicbo", "fantan") else 12)
    data = memoryview(FLASH)[:BLOCK * blocks]
    for i in range(len(data)):
        data[i] = 0xFF
    dev = RamBlockDev(block_size=BLOCK, blocks=blocks, data=data, prog=256)
    if game != "sicbo":
        Config(Store(Log(dev))).change(0, game=game)
    setup(boot(dev))
    app = boot(dev)  # the steps start from a boot, as the table would after setup (a tilt shows now)
    image = dev.snapshot(memoryview(IMAGE)[:BLOCK * blocks])
    views = [view(app)]
    ops = dev.ops
    for step in steps:  # the clean run: the view after each step
        step(app)
        views.append(view(app))
    total = dev.ops - ops
    assert total >= 1
    if wraps:
        assert app.log.bseq > blocks and app.log.erases >= 1, (app.log.bseq, app.log.erases)
    app = None
    checked = 0
    for n in range(1, total + 1):
        for done, noise in VARIANTS:
            app = again = None  # the last iteration's tables go before the next boots
            dev.restore(image)
            dev = dev.reboot()
            app = boot(dev)
            dev.cut_after(n, done, noise)
            k = 0
            try:
                for k in range(len(steps)):
                    steps[k](app)
            except (PowerCut, OSError):
                pass
            else:
                raise AssertionError("no cut after %d ops" % n)
            dev = dev.reboot()
            app = None
            again = boot(dev)
            got = view(again)
            assert got in (views[k], views[k + 1]), (n, done, noise, k, got, views[k], views[k + 1])
            if again.tilt:  # never cleared by a reboot
                dev = dev.reboot()
                why, again = again.tilt, None
                assert boot(dev).tilt == why
                continue
            pool = getattr(again.controller, "pool", None)
            if pool is not None:
                assert pool.pool + pool.reserve + pool.paid == pool.seeded + pool.contributed, n
            finish(again)
            paid = pays(again)
            assert len(paid) == len(set(paid)), (n, paid)  # a hit paid once, whatever the cut
            checked += 1
    return checked


def ev(*names):
    return lambda app: [app.controller.handle(e) for e in names]


def shake(app):
    app.controller.handle("SHAKE")
    app.board.clock.advance(app.config["shake_ms"])
    app.tick()


def lock(*on):
    def go(app):
        for s in range(1, 8):
            app.board.set_seat(s, s in on)
        app.tick()
        app.controller.handle("LOCK")
    return go


def nothing(app):
    pass


def test_power_cut_at_every_program_and_erase_of_dice_rounds():
    steps = [shake, ev("BELL"), ev("2", "2", "5", "ENTER"), ev("CONFIRM"), shake, ev("VOID_LONG")]
    assert run_cuts("sicbo", nothing, steps) > 10


def test_power_cut_at_every_program_and_erase_of_a_fantan_round():
    assert run_cuts("fantan", nothing, [ev("SHAKE"), ev("BELL"), ev("1", "7", "ENTER"), ev("CONFIRM")]) > 10


def test_power_cut_in_a_hit_with_cards_a_void_with_carried_bets_and_a_pool_change_CSP_10_7_CSP_11_1():
    royal = ev("HIT", "2", "ENTER", "5", "ENTER", *"141131121111101", "ENTER")  # seat 2: A K Q J 10 of spades
    supervisor = lambda app: keyed(app, ev("ENTER"), app)  # the top award: the supervisor's key
    steps = [lock(1, 2, 5), royal, supervisor, ev("CONFIRM"), ev("CONFIRM"),
             lambda app: keyed(app, service.configure, rate_bp=1500, limit_cents=25000300),  # waits for a hit
             lock(3), ev("VOID_LONG", "ENTER"), lock(3, 4),  # the void's bet carried (CSP-11.1): counted once
             ev("HIT", "3", "ENTER", "1", "ENTER", *"023043063083103", "ENTER"),  # a flush: the change applies,
             ev("CONFIRM"),
             ev("CONFIRM")]                                                  # the pool above the new limit
    assert run_cuts("caribbean_stud", nothing, steps) > 20


def test_power_cut_in_a_ram_clear_from_play_leaves_it_cleared_or_as_it_was():
    def play(app):
        lock(1, 2)(app)
        ev("HIT", "1", "ENTER", "1", "ENTER", *"021031071141131", "ENTER", "CONFIRM", "CONFIRM")(app)
        lock(4)(app)
        ev("CONFIRM")(app)

    def clear(app):
        keyed(app, lambda: service.ram_clear(service.ram_clear().data["code"]))

    assert run_cuts("fortune3", play, [clear, lock(2)]) > 5


def test_power_cut_in_a_ram_clear_from_a_tilt_leaves_it_cleared_or_still_tilted():
    def tilted(app):
        shake(app)
        ev("BELL")(app)
        damage_record(app.board.flash, "round")
        ev("3", "3", "3", "ENTER")(app)  # a frame after the damage: the log proves a later state

    def clear(app):
        assert app.tilt
        keyed(app, lambda: service.ram_clear(service.ram_clear().data["code"]))

    assert run_cuts("sicbo", tilted, [clear, shake]) > 5


def test_power_cut_in_a_game_change_with_its_code():
    def change(app):
        msg = ""
        try:
            keyed(app, service.configure, game="baccarat_a")
        except ValueError as e:
            msg = str(e)
        code = msg.split("confirm='")[1][:6]  # the pool holds money: the change needs its code
        keyed(app, service.configure, game="baccarat_a", confirm=code)

    assert run_cuts("caribbean_stud", lock(1, 6), [ev("CONFIRM"), change, lock(2)]) > 5


def test_power_cut_where_the_ring_wraps_and_the_oldest_journal_entries_go():
    def rounds(n):
        def go(app):
            for r in range(n):
                shake(app)
                ev("BELL", str(r % 6 + 1), "4", "6", "ENTER", "CONFIRM")(app)
        return go

    steps = []
    for r in range(4):  # each key a step: the state before or after each one
        steps += [shake, ev("BELL"), ev(str(r + 1), "4", "6", "ENTER"), ev("CONFIRM")]
    assert run_cuts("sicbo", rounds(14), steps, blocks=5, wraps=True) > 10
