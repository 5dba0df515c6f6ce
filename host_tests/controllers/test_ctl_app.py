"""The App on the sim board: boot, resume, tilt on an untrustworthy record, the asyncio tasks and the watchdog
(the harness the controller tests share, new_app, restart, drive: harness/tables.py)."""
# mp-heap: 310K
import board  # boards/sim: on the path of host_tests/conftest.py and of harness/mpy.py

from harness.ramblockdev import damage_record
from harness.tables import cleanup, drive, new_app, press, restart
from tablectl import app as appmod
from tablectl.config import Config


def test_first_boot_starts_idle_round_1_and_journals_boot():
    app = new_app()
    c = app.controller
    assert c.state == "idle" and c.round_no == 1 and not c.busy()
    assert app.board.display.lines == ["ROUND 1", "PRESS SHAKE"]
    assert app.journal.records(5)[-1][2] == "boot"
    assert app.store.load("round")["state"] == "idle"
    cleanup()


def test_resume_after_restart_keeps_round_and_history():
    app = new_app()
    drive(app, "SHAKE")
    app.board.clock.advance(5000)
    app.tick()
    drive(app, "BELL", "1", "2", "3", "ENTER", "CONFIRM")
    app2 = restart(app)
    assert app2.controller.round_no == 2 and app2.controller.history() == [(1, (1, 2, 3))]
    assert app2.meters.rounds == 1
    cleanup()


def test_corrupt_round_record_tilts_and_refuses_every_button():
    app = new_app()
    drive(app, "SHAKE")
    app.board.clock.advance(5000)
    app.tick()  # betting: saved, then later frames (a bell) prove the round went on
    drive(app, "BELL")
    damage_record(app.board.flash, "round")
    drive(app, "1", "2", "3", "ENTER")
    app2 = restart(app)
    assert app2.tilt is not None and "damaged" in app2.tilt
    assert app2.controller.state == "tilt"
    assert app2.board.display.lines[0].startswith("TILT")
    assert drive(app2, "SHAKE", "BELL", "CONFIRM") == [False, False, False]
    assert app2.board.shaker_pin.value() == 0
    app3 = restart(app2)
    assert app3.tilt == app2.tilt  # a reboot never clears it
    # the technician's RAM clear (confirmed in service) brings the table back from scratch
    app3.ram_clear([])
    assert app3.tilt is None and app3.controller.state == "idle"
    assert restart(app3).tilt is None
    cleanup()


def test_game_from_config_selects_the_controller():
    for game, state in (("sicbo", "idle"), ("fish_prawn_crab", "idle"), ("fantan", "idle"),
                        ("caribbean_stud", "betting"), ("fortune3", "betting"), ("baccarat_b", "betting")):
        app = new_app(game)
        assert app.controller.game == game and app.controller.state == state
    cleanup()


def test_buttons_through_the_board_pins():
    app = new_app()
    press(app, "SHAKE")
    assert app.controller.state == "shaking" and app.board.shaker_pin.value() == 1
    app.board.clock.advance(3000)
    app.tick()
    assert app.controller.state == "betting" and app.board.shaker_pin.value() == 0
    press(app, "BELL")
    for d in "665":
        press(app, d)
    press(app, "ENTER")
    assert app.controller.state == "result" and app.controller.dice == (6, 6, 5)
    assert "big" in app.board.lit() and "double_6" in app.board.lit()
    press(app, "VOID")  # a short press does not void
    assert app.controller.state == "result" and app.controller.message
    press(app, "VOID", hold_ms=1200)
    assert app.controller.state == "idle" and app.board.lit() == {}
    cleanup()


def _run(app, ms, stop_after=None):
    import asyncio
    from tablectl.hw.clock import sleep_ms

    async def until():
        await sleep_ms(ms)
        if stop_after:
            stop_after()

    async def main():
        await app.run(until())

    asyncio.run(main())


def test_run_feeds_the_watchdog_while_every_task_lives():
    app = new_app()
    app.watchdog_ms = 100
    _run(app, 700)
    assert appmod.current is app
    assert app.board.wdt.feeds >= 2
    cleanup()


def test_a_dead_task_stops_the_watchdog_feeds():
    app = new_app()

    def broken(now):
        raise RuntimeError("controller bug")

    app.controller.tick = broken
    app.watchdog_ms = 100
    _run(app, 700)
    assert app.board.wdt.feeds == 0
    assert "controller" in app.supervisor.stalled()
    cleanup()


def test_shaker_off_when_the_run_ends_by_an_exception():
    app = new_app()
    drive(app, "SHAKE")
    assert app.board.shaker_pin.value() == 1

    def boom():
        raise KeyboardInterrupt

    try:
        _run(app, 100, boom)
    except KeyboardInterrupt:
        pass
    assert app.board.shaker_pin.value() == 0 and app.board.bell_pin.value() == 0
    cleanup()


def test_posted_events_reach_the_controller():
    app = new_app("fantan")
    app.post("SHAKE")
    app.post("BELL")
    app.poll()
    assert app.controller.state == "closed"
    cleanup()


def test_sim_watchdog_trips_without_feeds_and_a_feed_resets_it():
    b = board.make(virtual_clock=True)
    wdt = b.wdt
    b.clock.advance(wdt.timeout_ms - 1)
    assert not wdt.tripped()
    wdt.feed()
    b.clock.advance(wdt.timeout_ms - 1)
    assert not wdt.tripped() and wdt.feeds == 1
    b.clock.advance(1)
    assert wdt.tripped()


def test_switching_away_from_a_progressive_journals_the_closing_pool():
    app = new_app("caribbean_stud")
    app.board.set_seat(1, True)
    app.tick()
    drive(app, "LOCK", "CONFIRM")
    app.controller.pool.reserve = 700  # as a limit lowered below the pool leaves it (a reserve is wiped too)
    app.controller.pool.pool -= 700
    app.controller.save()
    pool = app.controller.pool.pool
    app.config.change(app.controller.round_no, game="fantan")
    app.config_changed({"game": "fantan"})
    closed = [r for r in app.journal.records(5) if r[2] == "pool_closed"]
    assert closed and closed[0][3:6] == (pool, 700, "caribbean_stud")
    assert app.controller.game == "fantan" and app.controller.round_no == 2
    cleanup()


def damage(app, name):
    """Damage the newest frame writing record `name`, and write after it: a state the log proves stale."""
    damage_record(app.board.flash, name)
    app.journal.append("note", 0)


def test_a_tilt_is_journalled_with_its_reason_once_per_boot():
    app = new_app("fantan")
    damage(app, "round")
    seq = app.journal.seq
    app2 = restart(app)
    recs = [r for r in app2.journal.records(10) if r[0] > seq]
    assert [r[2] for r in recs] == ["tilt"] and "damaged" in recs[0][5], recs
    assert app2.controller.game == "fantan" and not app2.config_lost  # the configuration was readable
    cleanup()


def test_a_tilt_whose_journal_cannot_be_written_still_halts_and_says_why():
    from tablectl.journal import Journal
    app = new_app()
    damage(app, "round")
    append = Journal.append

    def full(self, *args, **kw):
        raise OSError(28)  # ENOSPC

    Journal.append = full
    try:
        app2 = restart(app)
    finally:
        Journal.append = append
    assert app2.controller.state == "tilt" and "damaged" in app2.tilt
    assert app2.board.display.lines[0].startswith("TILT")
    cleanup()


def test_a_config_tilt_knows_no_game_and_ram_clear_resets_the_configuration():
    app = new_app("fantan", seats=5)
    damage(app, "config")
    app2 = restart(app)
    assert app2.config_lost and app2.controller.game is None and app2.controller.status()["game"] is None
    app2.ram_clear([])
    defaults = Config(None)
    assert app2.tilt is None and not app2.config_lost
    assert app2.config.values == defaults.values and app2.controller.game == defaults["game"]
    assert app2.journal.records(1)[0][2:] == ("restart", 0, 0, defaults["game"])
    app3 = restart(app2)  # the defaults hold across the next boot: no tilt, the same game
    assert app3.tilt is None and app3.controller.game == defaults["game"]
    cleanup()


def test_an_idle_reconfiguration_is_journalled_as_one_not_as_a_boot():
    app = new_app()
    seq, old = app.journal.seq, app.controller
    app.config.change(app.controller.round_no, pay_5_16=24)
    app.config_changed({"pay_5_16": 24})
    events = [r[2] for r in app.journal.records(10) if r[0] > seq]
    assert events == ["config", "reconfigured"], events
    assert app.controller is not old and app.controller.state == "idle"  # rebuilt for the new pays
    cleanup()
