"""What a table does with damaged or torn flash and with a RAM clear at any time: a fallback is journalled and shown,
a state older than what the log proves is a tilt, a hit is never paid twice, a damaged journal entry is skipped,
and a RAM clear works once the journal's oldest entries have gone (the defects an independent campaign found)."""
# mp-heap: 308K
from harness.ramblockdev import damage_record, flip, log_frames
from tablectl import service
from tablectl.storage import F_ENT, F_REC
from harness.tables import cleanup, drive, keyed, new_app, restart

# seat 5: royal flush, the supervisor's key turned for it (configuration 'supervisor', issue 21)
ROYAL = ("HIT", "5", "ENTER", "5", "ENTER") + tuple("141131121111101") + ("ENTER",)


def royal(app):
    drive(app, *ROYAL)
    keyed(app, drive, app, "ENTER")


def royal_settled():
    """A Caribbean Stud table: seat 5 locked, its royal flush entered and settled (the table shows the award)."""
    app = new_app("caribbean_stud")
    app.board.set_seat(5, True)
    app.tick()
    drive(app, "LOCK")
    royal(app)
    assert drive(app, "CONFIRM") == [True] and app.controller.state == "paying"
    return app


def pays(app):
    return [(r[1], r[3], r[4]) for r in app.journal.records(100) if r[2] == "pay"]


def test_a_damaged_settled_hit_followed_by_more_is_a_tilt_never_a_second_payment():
    app = royal_settled()
    drive(app, "CONFIRM")  # paid: betting again, a frame after the settled one
    frames = [f for f in log_frames(app.board.flash) if f[5] and any(e[2] == "pay" for e in f[5].get("j", ()))]
    block, off, flags, seq, n, obj = frames[-1]
    flip(app.board.flash, block, off + 12 + n // 2)  # the frame that settled the royal
    app = restart(app)
    assert app.tilt and "damaged" in app.tilt and app.controller.state == "tilt"
    assert app.controller.handle("CONFIRM") is False  # nothing can be paid from a tilt
    app = restart(app)
    assert app.tilt  # nor does a reboot clear it
    service.use(app)
    keyed(app, lambda: service.ram_clear(service.ram_clear().data["code"]))
    assert app.tilt is None and app.controller.state == "betting"
    service.use(None)
    cleanup()


def test_a_torn_settlement_resumes_before_it_is_journalled_and_pays_once():
    app = royal_settled()
    frames = log_frames(app.board.flash)
    block, off, flags, seq, n, obj = frames[-1]
    assert obj["p"]["round"]["state"] == "paying"  # the settlement is the newest frame: the power cut tore it
    flip(app.board.flash, block, off + 12 + n - 2)
    app = restart(app)
    assert app.tilt is None and app.controller.state == "locked" and app.controller.hits  # the hit still entered
    status = service_status(app)
    assert status.data["torn"] and "power cut tore" in repr(status), repr(status)
    assert [r[2] for r in app.journal.records(3)][-2:] == ["torn_write", "boot"]
    assert pays(app) == []
    drive(app, "CONFIRM", "CONFIRM")
    assert len(pays(app)) == 1 and pays(app)[0][1] == 5  # paid once
    app = restart(app)
    assert app.tilt is None and len(pays(app)) == 1 and app.controller.state == "betting"
    cleanup()


def service_status(app):
    service.use(app)
    try:
        return service.status()
    finally:
        service.use(None)


def test_a_damaged_journal_entry_is_skipped_counted_and_never_stops_a_boot():
    app = new_app()
    drive(app, "SHAKE")
    app.board.clock.advance(5000)
    app.tick()
    app = restart(app)  # its boot entry is a frame of journal entries alone
    drive(app, "BELL")
    boot = [f for f in log_frames(app.board.flash) if f[2] == F_ENT and f[5]["j"][0][2] == "boot"][-1]
    block, off, flags, seq, n, obj = boot
    flip(app.board.flash, block, off + 12 + n - 4, 0x80)  # inside the entry's text: no longer UTF-8 there
    app = restart(app)
    assert app.tilt is None and app.controller.state == "closed"
    status = service_status(app)
    assert status.data["lost"] == 1 and "damaged journal frame" in repr(status)
    service.use(app)
    text = repr(service.journal(50))
    service.use(None)
    assert "1 damaged journal frame skipped" in text and "bell" in text, text
    assert flags & F_REC == 0
    cleanup()


def test_ram_clear_works_once_the_ring_has_dropped_the_oldest_entries_from_play_and_from_a_tilt():
    app = new_app()
    for r in range(80):  # well past one turn of the test flash's 16 blocks: the journal's first entries are gone
        drive(app, "SHAKE")
        app.board.clock.advance(5000)
        app.tick()
        drive(app, "BELL", "1", "2", str(r % 6 + 1), "ENTER", "CONFIRM")
    assert app.log.bseq > 16 and app.journal.seq > 320  # the ring turned: block 0's entries were erased
    service.use(app)
    assert keyed(app, lambda: service.ram_clear(service.ram_clear().data["code"])).data == {"cleared": True}
    assert app.meters.rounds == 0 and app.controller.round_no == 1
    drive(app, "SHAKE")
    app.board.clock.advance(5000)
    app.tick()
    drive(app, "BELL")
    damage_record(app.board.flash, "round")
    drive(app, "1", "1", "1", "ENTER")
    app = restart(app)
    assert app.tilt
    service.use(app)
    assert keyed(app, lambda: service.ram_clear(service.ram_clear().data["code"])).data == {"cleared": True}
    assert app.tilt is None and restart(app).tilt is None
    service.use(None)
    cleanup()
