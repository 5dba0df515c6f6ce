"""Time of day and epochs in the journal (issue 26 items 3 and 5): TIME NOT SET until the technician sets the clock,
each setting journalled with before and after, a clock that goes back (or is lost in a power cut) not set again,
the time and the epoch under the chain, round numbers that never repeat across RAM clears (CPython and the unix port)."""
# mp-heap: 280K
# (several Apps booted, the service compiled in: as test_service)
import gc
import json

import board

from harness.ramblockdev import RamBlockDev, log_frames, rewrite_payload
from tablectl import app as appmod
from tablectl import service
from tablectl.journal import Journal, entry
from tablectl.storage import Log
from tablectl.timeofday import NOT_SET
from tablectl.utc import date, days, fields, parse, seconds, text
from mptest import raises

T0 = seconds(2026, 12, 2, 8, 30, 0)
FLASH = bytearray(4096 * 6)  # one flash for every test, allocated once: 24 KB blocks come and go badly


def fresh_flash():
    for i in range(len(FLASH)):
        FLASH[i] = 0xFF
    return RamBlockDev(block_size=4096, blocks=6, data=FLASH)


def fresh_board():
    gc.collect()
    return board.make(virtual_clock=True, flash=fresh_flash())


def new_app(dev=None, b=None):
    gc.collect()
    b = b or board.make(virtual_clock=True, flash=dev or fresh_flash())
    app = appmod.App(b)
    service.use(app)
    return app


def keyed(app, fn):
    app.board.set_service_key(True)
    app.tick()
    try:
        return fn()
    finally:
        app.board.set_service_key(False)
        app.tick()


def teardown_function(function):
    service.use(None)
    appmod.current = None


def stamped(app, n=40):
    return app.journal.records(n, True)


def test_the_calendar_is_its_own_inverse_every_day_of_the_century_and_agrees_with_known_dates():
    assert days(2000, 1, 1) == 0 and days(2000, 3, 1) == 60 and days(2026, 12, 2) == 9832
    assert date(-1) == (1999, 12, 31) and days(2100, 3, 1) - days(2100, 2, 28) == 1  # 2100 is no leap year
    last = None
    for n in range(days(2000, 1, 1), days(2100, 1, 1) + 1):
        y, m, d = date(n)
        assert days(y, m, d) == n, n
        if last is not None:
            assert (y, m, d) > last
        last = (y, m, d)
    assert fields(T0 + 59) == (2026, 12, 2, 8, 30, 59)
    assert text(T0) == "2026-12-02T08:30:00Z" and text(None) == "-"


def test_a_time_is_parsed_strictly_with_one_line_for_anything_else():
    assert parse("2026-12-02 08:30:00") == T0 == parse("2026-12-02T08:30:00Z")
    assert parse("2028-02-29 23:59:59") == seconds(2028, 3, 1) - 1
    for bad, why in (("2027-02-29 00:00:00", "no such date"), ("2026-13-01 00:00:00", "no such date"),
                     ("2026-04-31 00:00:00", "no such date"), ("2026-12-02 24:00:00", "no such time"),
                     ("2026-12-02 08:60:00", "no such time"), ("2021-01-01 00:00:00", "outside 2024..2099"),
                     ("2026-12-2 08:30:00", "YYYY-MM-DD"), ("2026-12-02", "YYYY-MM-DD"),
                     ("2026-12-02 08:3a:00", "YYYY-MM-DD"), ("+026-12-02 08:30:00", "YYYY-MM-DD"),
                     (T0, "the time is text"), (None, "the time is text")):
        msg = raises(ValueError, parse, bad)
        assert why in msg and "\n" not in msg, (bad, msg)


def test_until_set_the_status_says_time_not_set_and_entries_carry_none_then_the_setting_is_journalled():
    app = new_app()
    rep = service.status()
    assert rep.data["time"] is None and NOT_SET in repr(rep), repr(rep)
    assert all(r[6] is None and r[7] == 1 for r in stamped(app))
    assert "service key is off" in raises(ValueError, service.set_time, "2026-12-02 08:30:00")
    msg = keyed(app, lambda: raises(ValueError, service.set_time, "2026-02-30 08:30:00"))
    assert "no such date" in msg
    seq = app.journal.seq
    keyed(app, lambda: service.set_time("2026-12-02 08:30:00"))
    setting = [r for r in stamped(app) if r[2] == "time_set"]
    assert [r[3:7] for r in setting] == [(0, T0, "by the technician, was -", T0)], setting
    assert app.journal.seq > seq and all(r[6] is not None for r in stamped(app) if r[0] > setting[0][0])
    app.board.clock.advance(61000)
    rep = service.status()
    assert rep.data["time"] == T0 + 61 and "time 2026-12-02T08:31:01Z (UTC)" in repr(rep), repr(rep)
    keyed(app, lambda: service.set_time("2026-12-01 00:00:00"))  # back a day: allowed, journalled before/after
    last = [r for r in stamped(app) if r[2] == "time_set"][-1]
    assert last[3] == T0 + 61 and last[4] == seconds(2026, 12, 1) == last[6]
    line = [x for x in repr(service.journal(40)).split("\n") if "time_set" in x][-1]
    assert "before 2026-12-02T08:31:01Z after 2026-12-01T00:00:00Z" in line, line


def test_a_set_clock_survives_a_reboot_and_a_clock_that_goes_back_is_not_set_again_until_set():
    b = fresh_board()
    app = new_app(b=b)
    keyed(app, lambda: service.set_time("2026-12-02 08:30:00"))
    b.clock.advance(5000)
    app = new_app(b=b)  # a power cut: the board's clock kept counting (a battery-backed one)
    assert app.clock.now() == T0 + 5 and [r[2] for r in stamped(app)][-1] == "boot"
    assert stamped(app)[-1][6] == T0 + 5
    b.rtc.set(T0 - 3600)  # the clock goes back on its own: the next entry carries no time, and the loss is said
    app.journal.append("service", 0, text="x")
    assert stamped(app)[-1][6] is None and service.status().data["time"] is None
    app.idle()
    lost = stamped(app)[-1]
    assert lost[2:5] == ("time_lost", T0 + 5, T0 - 3600) and lost[6] is None, lost
    app.idle()
    assert stamped(app)[-1][0] == lost[0]  # once
    b.rtc.set(T0 + 7200)  # forward again: still not set, only a setting sets it
    app = new_app(b=b)
    assert app.clock.now() is None and NOT_SET in repr(service.status())


def test_a_clock_lost_in_a_power_cut_boots_not_set_and_journals_it():
    b = fresh_board()
    app = new_app(b=b)
    keyed(app, lambda: service.set_time("2026-12-02 08:30:00"))
    b.rtc.base = None  # a Pico's RTC after the power came back: nothing
    app = new_app(b=b)
    assert [r[2] for r in stamped(app)][-2:] == ["time_lost", "boot"]
    assert NOT_SET in repr(service.status()) and "earlier than 2026-12-02T08:30:00Z" in repr(service.status())


def test_a_power_cut_between_the_journalled_setting_and_the_clock_leaves_it_not_set():
    class Cut(Exception):
        pass

    b = fresh_board()
    app = new_app(b=b)
    keyed(app, lambda: service.set_time("2026-12-02 08:30:00"))

    def cut(t):
        raise Cut()
    b.rtc.set = cut  # the power goes after the entry is on flash, before the clock takes the time
    app.board.set_service_key(True)
    app.tick()
    try:
        service.set_time("2026-12-03 00:00:00")
    except Cut:
        pass
    del b.rtc.set
    app = new_app(b=b)
    assert app.clock.now() is None  # the clock reads earlier than the journal's last setting
    assert [r[2] for r in stamped(app)][-3:] == ["time_set", "time_lost", "boot"]


def test_a_damaged_time_or_epoch_field_is_not_an_entry_and_with_its_crc_made_right_a_tilt():
    good = [3, 2, "lock", 1, 500, "", T0, 1]
    assert entry(good) == (3, 2, "lock", 1, 500, "", T0, 1) and entry(good[:6])[6:] == (None, 0)
    for k, bad in ((6, "12"), (6, -1), (6, True), (6, 1.5), (7, 0), (7, None), (7, "1"), (7, False)):
        rec = list(good)
        rec[k] = bad
        assert entry(rec) is None, rec
    assert entry(good[:7]) is None and entry(good + [1]) is None
    b = fresh_board()
    app = new_app(b=b)
    keyed(app, lambda: service.set_time("2026-12-02 08:30:00"))
    dev = b.flash
    frames = [f for f in log_frames(dev) if f[5] and f[5].get("j") and f[5]["j"][0][6] is not None]

    def later(raw):
        obj = json.loads(raw)
        obj["j"][0][6] += 1  # a second later: the CRC made right, the chain is not
        new = json.dumps(obj).encode()
        return new + b" " * (len(raw) - len(new))
    rewrite_payload(dev, frames[0][0], frames[0][1], later)
    assert "journal chain broken" in Log(dev).problem


def test_round_numbers_never_repeat_across_ram_clears_and_status_shows_epoch_round():
    app = new_app()
    seen = []
    for epoch in (1, 2, 3, 4):
        assert app.journal.epoch == epoch and service.status().data["epoch"] == epoch
        app.controller.handle("SHAKE")
        app.board.clock.advance(app.config["shake_ms"])
        app.tick()
        for key in ("BELL", "1", "2", "3", "ENTER", "CONFIRM"):
            assert app.controller.handle(key), (key, app.controller.message)
        assert "round %d.2" % epoch in repr(service.status()), repr(service.status())
        keyed(app, lambda: service.ram_clear(service.ram_clear().data["code"]))
        assert app.controller.round_no == 1
    rounds = [(r[7], r[1]) for r in stamped(app, 200) if r[2] == "result"]
    assert rounds == [(1, 1), (2, 1), (3, 1), (4, 1)]  # round 1 four times, each in its own epoch
    cleared = [r for r in stamped(app, 200) if r[2] == "ram_cleared"]
    assert [(r[7], r[1], r[5]) for r in cleared] == [(2, 1, "epoch 2"), (3, 1, "epoch 3"), (4, 1, "epoch 4"),
                                                     (5, 1, "epoch 5")]
    app = new_app(dev=app.board.flash)  # a reboot keeps the epoch
    assert app.journal.epoch == 5 and "round 5.1" in repr(service.status())
    lines = []
    Journal.export(app.journal, 1, lines.append, "t")
    assert any(" 4.1 result " in x for x in lines) and any(" 5.1 boot " in x for x in lines), lines


def test_a_board_without_a_clock_refuses_the_setting_before_journalling_it():
    b = fresh_board()
    b.rtc = None
    app = new_app(b=b)
    app.board.set_service_key(True)
    app.tick()
    seq = app.journal.seq
    assert "no real-time clock" in raises(ValueError, service.set_time, "2026-12-02 08:30:00")
    assert app.journal.seq == seq and NOT_SET in repr(service.status())
