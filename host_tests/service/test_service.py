"""The technician's service calls on a real App with the sim board: readable reports, configure refused
mid-round and pool changes held until the next hit (CSP-10.3), output tests, confirmed RAM clear; at the
REPL a refusal is one line, in scripts an exception."""
# mp-heap: 376K
# (the test compiles from source and boots several Apps; the firmware's own 64 KB budget is the demo's)
import service as repl  # firmware/service.py: what a technician imports at the REPL
from harness.ramblockdev import flash_file as flash_of
from harness.service_table import corrupt, done, new_app, reboot
from tablectl import app as appmod
from tablectl import service  # the calls as scripts use them: a refusal raises ValueError
from tablectl.service import outputs, reports
from tablectl.config import DEFAULTS, Config
from tablectl.storage import Log
from tablectl.store import Store
from mptest import raises


def teardown_function(function):
    """After every test, passed or failed (pytest's hook; tools/mptest.py calls it the same way)."""
    done()


def drive(app, *events):
    """The dealer's keys, the service key turned off for them (no round starts with it on) and back after."""
    key = app.board.service_key.value()
    app.board.set_service_key(False)
    try:
        for e in events:
            assert app.controller.handle(e), (e, app.controller.message)
    finally:
        app.board.set_service_key(key)


def royal_hit_round(app, seats=(1,)):
    """Caribbean Stud round on the panel: seats bet, LOCK, a royal flush on the first seat, CONFIRM,
    CONFIRM (keypad class 5 = royal_flush, CSP-10.2.1)."""
    for s in seats:
        app.board.set_seat(s, True)
    drive(app, "LOCK", "HIT", str(seats[0]), "ENTER", "5", "ENTER", *"141131121111101", "ENTER")
    key = app.board.service_key.value()
    app.board.set_service_key(True)  # the top award: the supervisor's key (issue 21)
    assert app.controller.handle("ENTER"), app.controller.message
    app.board.set_service_key(key)
    drive(app, "CONFIRM", "CONFIRM")


def test_every_call_says_when_no_app_runs():
    appmod.current = None
    service.use(None)
    for call in (service.status, service.meters, service.config, service.journal, service.lamp_test):
        assert "no application running" in raises(ValueError, call)


def test_the_repl_shows_a_refusal_as_one_line_and_scripts_still_get_the_exception():
    """firmware/service.py: every call of tablectl.service; a refusal comes back false, shown as one line
    REFUSED: <reason> (no traceback), with the reason in .reason; tablectl.service raises the same reason."""
    assert sorted(n for n in service.CALLS if callable(getattr(repl, n, None))) == sorted(service.CALLS)
    appmod.current = None
    repl.use(None)
    gone = repl.status()
    assert not gone and repr(gone) == str(gone) == "REFUSED: " + gone.reason, gone
    assert "no application running" in gone.reason and "\n" not in repr(gone)
    app = new_app()
    rep = repl.status()
    assert rep and rep.data["state"] == "idle"  # an answer is the Report itself
    out = []
    rep.emit(out.append)  # as the sim and qemu REPL print it, a line at a time: the text of repr()
    assert "".join(out) == repr(rep) + "\n" and max(len(piece) for piece in out) < len(repr(rep)) // 2
    drive(app, "SHAKE")
    writes = app.store.writes
    refused = repl.configure(pay_5_16=24)
    assert not refused and refused.reason == raises(ValueError, service.configure, pay_5_16=24)
    assert repr(refused).startswith("REFUSED: configure refused: round 1 in progress"), repr(refused)
    assert app.store.writes == writes and app.config["pay_5_16"] == 18
    assert repr(repl.history("x")) == "REFUSED: n must be an integer 1..200, got 'x'"


def test_status_and_reports_read_as_text():
    app = new_app()
    rep = service.status()
    text = repr(rep)
    assert text == str(rep) and text.startswith("status\n")
    assert "game sicbo, state idle, round 1" in text, text
    assert rep.data["busy"] is False and rep.data["round"] == 1
    drive(app, "SHAKE")  # a round starts: the electric shaker runs (SB-2.1)
    rep = service.status()
    assert rep.data["busy"] is True and "(round in progress)" in repr(rep)


def test_configure_refused_mid_round_changes_nothing():
    app = new_app()
    drive(app, "SHAKE")
    writes, seq = app.store.writes, app.journal.seq
    msg = raises(ValueError, service.configure, pay_5_16=24)
    assert "refused" in msg and "round 1" in msg, msg
    assert app.config["pay_5_16"] == 18 and app.store.writes == writes and app.journal.seq == seq


def test_configure_validates_applies_and_journals():
    app = new_app()
    writes = app.store.writes
    assert "18..30" in raises(ValueError, service.configure, pay_5_16=31)  # SB-6.6
    assert "unknown" in raises(ValueError, service.configure, colour="red")
    most = app.board.shaker.max_on_ms
    for bad in (most + 1, 999, "4000"):  # SB-2.1: this board's driver stops the shaker at its max on-time
        msg = raises(ValueError, service.configure, shake_ms=bad)
        assert msg == "shake_ms: must be an integer 1000..%d (this board's shaker max on-time), got %r" % (
            most, bad), msg
    msg = raises(ValueError, service.configure, 24)  # a value without its key
    assert "key=value" in msg and "24" in msg, msg
    assert "key=value" in raises(ValueError, service.configure, 24, pay_5_16=24)
    assert app.store.writes == writes and app.config["pay_5_16"] == 18
    assert service.configure(shake_ms=most).data["applied"] == {"shake_ms": most}
    rep = service.configure(pay_5_16=24, history_len=10)
    assert rep.data == {"applied": {"pay_5_16": 24, "history_len": 10}, "deferred": {}}
    assert "pay_5_16 = 24 (now)" in repr(rep)
    assert app.config["pay_5_16"] == 24 and Config(Store(Log(flash_of(app.root))))["pay_5_16"] == 24
    assert "pay_5_16 18->24" in repr(service.journal(5))
    text = repr(service.config())
    assert "* pay_5_16" in text and "  shaker" in text  # '*' marks what differs from the default
    assert "seats" not in text and "fixed_" not in text, text  # a sic bo table's keys only
    every = service.config(all=True)
    assert every.data["shown"] == sorted(DEFAULTS) and "  seats" in repr(every), repr(every)
    # a new game rebuilds the controller at once (the table is idle)
    service.configure(game="fantan")
    assert app.controller.status()["game"] == "fantan" and service.status().data["game"] == "fantan"


def test_pool_change_waits_for_the_next_hit_CSP_10_3():
    app = new_app("caribbean_stud")
    rate = DEFAULTS["rate_bp"]
    rep = service.configure(rate_bp=1000, seats=5)
    assert rep.data == {"applied": {"seats": 5}, "deferred": {"rate_bp": 1000}}
    assert "rate_bp = 1000 (after the next hit)" in repr(rep)
    assert "after the next hit: rate_bp=1000" in repr(service.status())
    assert "-> 1000 after the next hit" in repr(service.config())
    # a round without a hit: contributions still at the posted rate
    pool = app.controller.pool
    app.board.set_seat(2, True)
    drive(app, "LOCK", "CONFIRM")
    assert pool.contributed == DEFAULTS["bet_cents"] * rate // 10000 and app.config["rate_bp"] == rate
    app.board.set_seat(2, False)
    royal_hit_round(app)
    assert app.config["rate_bp"] == 1000 and app.config.pending == {}
    events = [r[2] for r in app.journal.records(30)]
    assert "cfg_pending" in events and "cfg_applied" in events
    assert events.index("cfg_applied") > events.index("pay")  # applied after the hit was paid
    before = app.controller.pool.contributed
    app.board.set_seat(1, True)
    drive(app, "LOCK")
    assert app.controller.pool.contributed - before == DEFAULTS["bet_cents"] * 1000 // 10000


def test_meters_balance_and_last_hits():
    app = new_app("caribbean_stud")
    royal_hit_round(app, seats=(3, 5))
    rep = service.meters()
    pool = app.controller.pool
    d = rep.data
    assert d["pool_cents"] == pool.pool and d["paid_cents"] == pool.paid and d["reserve_cents"] == pool.reserve
    assert d["contributed_cents"] == 2 * DEFAULTS["bet_cents"] * DEFAULTS["rate_bp"] // 10000
    assert d["balanced"] is True and "OK" in repr(rep)
    assert d["rounds"] == 1 and d["bets"] == 2 and d["hits_royal_flush"] == 1
    assert d["last_hits"] == [(1, 3, "royal_flush", d["paid_royal_flush_cents"])]
    # CSP-10.2.1: max(fixed, the pool) -- the pool had grown by the contributions
    assert d["paid_royal_flush_cents"] == max(DEFAULTS["fixed_royal_flush"], DEFAULTS["seed_cents"] + d["contributed_cents"])
    assert "round 1.1 seat 3 royal_flush" in repr(rep)  # epoch 1 (no RAM clear yet), round 1
    # one unit a field, and the report says which: amounts in dollars.cents, never labelled cents
    text = repr(rep)
    assert text.startswith("meters (money in dollars.cents") and "_cents" not in text, text
    # each meter for the lifetime (since the RAM clear) and the shift (its first: the same figures)
    table = dict((line.split()[0], line.split()[1:]) for line in rep.lines[1:] if len(line.split()) == 3)
    assert table["pool"] == [dollars(pool.pool)] * 2 and table["rounds"] == ["1", "1"], text
    assert rep.lines[0].split() == ["lifetime", "shift", "1"], text


def test_history_and_journal_counts():
    app = new_app("fantan")
    assert "n must be" in raises(ValueError, service.journal, 0)
    assert "n must be" in raises(ValueError, service.history, "5")
    assert "no rounds yet" in repr(service.history(5))
    j = service.journal(3)
    assert len(j.data) <= 3 and j.data[-1][0] == app.journal.seq
    assert repr(j).startswith("journal (last %d of %d)" % (len(j.data), app.journal.seq))


def test_lamp_test_lights_each_lamp_then_all_and_restores():
    app = new_app()
    b = app.board
    n = b.lamps.count
    # each frame the chain sends, checked as it comes (a list of 121 frames would be the test's own heap):
    # frame k < n shows lamp k alone, in chain order; frame n every lamp
    frames = [0, []]  # frames seen, the frames that were not as expected

    def frame(what):
        if what == "lamps":
            k, np = frames[0], b.neopixel
            on = [i for i in range(np.n) if np.pixel(i) != (0, 0, 0)]
            if k <= n and on != ([k] if k < n else list(range(n))):
                frames[1].append(k)
            frames[0] += 1

    b.listeners.append(frame)
    before = list(b.neopixel.shown)
    rep = service.lamp_test(step_ms=0)
    assert rep.data == {"lamps": n}
    assert frames[0] >= n + 1 and frames[1] == [], frames
    assert list(b.neopixel.shown) == before  # then the picture as it was
    drive(app, "SHAKE")
    assert "refused" in raises(ValueError, service.lamp_test, 0)


def test_display_test_fills_every_cell_and_restores():
    app = new_app("caribbean_stud")
    b = app.board
    seen = set()  # what the display and the digits showed, as they showed it

    def shown(what):
        if what == "display" and b.display.lines[0] == b.display.lines[1]:
            seen.add(b.display.lines[0])
        elif what == "jackpot" and b.jackpot_bus.text().replace(".", "") == "88888888":
            seen.add("digits all 8")

    b.listeners.append(shown)
    app.controller.animate(0)  # what the display task does: the pool on the jackpot digits
    lines, digits = list(b.display.lines), b.jackpot_bus.text()
    assert digits.strip() == "250000.00"  # the default seed, 25,000,000 cents
    service.display_test(step_ms=0)
    assert {"8" * 16, "#" * 16, "digits all 8"} <= seen, seen
    assert b.display.lines == lines
    app.controller.animate(0)  # the next pass of the display task draws the pool again
    assert b.jackpot_bus.text() == digits


def test_shaker_test_respects_max_on_time_and_interlock():
    app = new_app()
    b = app.board
    changes = []
    b.listeners.append(lambda what: changes.append(b.shaker_pin.value()) if what == "shaker" else None)
    b.shaker.max_on_ms = 40  # the driver's limit is below the configured 3000 ms shake
    rep = service.shaker_test()
    assert rep.data["ms"] == 40 and 0 <= rep.data["ran_ms"] < 1000
    assert changes and changes[0] == 1 and changes[-1] == 0 and b.shaker_pin.value() == 0
    assert "max on-time" in raises(ValueError, service.shaker_test, 41)
    b.set_cover(False)  # SB-2.1: the cover must be clipped before the shaker runs
    assert "cover" in raises(ValueError, service.shaker_test, 20)
    assert b.shaker_pin.value() == 0


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def test_ram_clear_needs_the_current_code_and_is_journalled():
    app = new_app("caribbean_stud")
    royal_hit_round(app)
    app.board.set_seat(1, False)
    rep = service.ram_clear()
    code = rep.data["code"]
    assert len(code) == 6 and code.isdigit() and code in repr(rep)
    seq, paid = app.journal.seq, app.controller.pool.paid
    wrong = "%06d" % ((int(code) + 1) % 1000000)
    assert "wrong confirmation code" in raises(ValueError, service.ram_clear, wrong)
    assert app.journal.seq == seq and app.controller.pool.paid == paid and app.meters.rounds == 1
    app.board.set_seat(2, True)
    drive(app, "LOCK")  # the state moves on: a round in progress refuses, then the code is stale
    assert "refused" in raises(ValueError, service.ram_clear, code)
    drive(app, "CONFIRM")
    assert "wrong confirmation code" in raises(ValueError, service.ram_clear, code)
    service.configure(seats=6)  # kept by the clear
    code = service.ram_clear().data["code"]
    pool_before = app.controller.pool.pool
    assert service.ram_clear(code).data == {"cleared": True}
    recs = app.journal.records(3)
    assert [r[2] for r in recs] == ["ram_clear", "ram_cleared", "restart"] and recs[0][3] == pool_before
    assert app.meters.rounds == 0 and app.controller.pool.paid == 0
    assert app.controller.pool.pool == DEFAULTS["seed_cents"] and app.config["seats"] == 6
    assert service.meters().data["balanced"] is True


def test_a_game_change_that_closes_a_live_jackpot_needs_its_code():
    """configure(game=...) on a progressive table whose pool holds money is refused, naming the code that
    confirms it (the pool cannot come back); a wrong or stale code, or the code as a number, changes
    nothing; the right one switches and journals the closed pool. A table with no pool switches without
    a code."""
    app = new_app("caribbean_stud")
    pool = app.controller.pool.pool
    before = (app.config["game"], app.journal.seq, app.store.writes, pool)
    msg = raises(ValueError, service.configure, game="sicbo")
    assert "closes the caribbean_stud jackpot" in msg and "pool " + dollars(pool) in msg, msg
    code = msg.split("confirm='")[1][:6]
    assert code.isdigit() and code != service.ram_clear().data["code"]  # not the RAM clear's code
    wrong = "%06d" % ((int(code) + 1) % 1000000)
    assert "closes" in raises(ValueError, service.configure, game="sicbo", confirm=wrong)
    assert "closes" in raises(ValueError, service.configure, game="fantan", confirm=code)  # another game's
    assert (app.config["game"], app.journal.seq, app.store.writes, app.controller.pool.pool) == before
    assert service.configure(seats=6, confirm=None).data["applied"] == {"seats": 6}  # no game change
    assert "closes" in raises(ValueError, service.configure, game="sicbo", confirm=code)  # stale now
    code = raises(ValueError, service.configure, game="sicbo").split("confirm='")[1][:6]
    assert "in quotes" in raises(ValueError, service.configure, game="sicbo", confirm=int(code))
    assert service.configure(game="sicbo", confirm=code).data["applied"] == {"game": "sicbo"}
    assert app.controller.game == "sicbo"
    assert [r for r in app.journal.records(5) if r[2] == "pool_closed"][-1][3] == pool
    assert service.configure(game="fantan").data["applied"] == {"game": "fantan"}  # no pool: no code


def test_status_asks_for_a_posted_amount_and_the_reserve_is_never_lost_from_the_record():
    """A configuration an older firmware saved may lack a fixed award's amount (BAC-17.9): status() says
    what to configure. A reserve (a limit lowered below the pool leaves one) shows in the RAM clear's
    offer and journal entry, and a move to it reads as money."""
    app = new_app("baccarat_b")
    app.config.values["fixed_five_of_a_kind"] = 0  # as loaded from such a record
    rep = service.status()
    assert rep.data["attention"].startswith("fixed_five_of_a_kind: baccarat_b pays"), rep.data
    assert "configure needed: fixed_five_of_a_kind" in repr(rep)
    app.config.values["fixed_five_of_a_kind"] = 900000
    assert "attention" not in service.status().data
    p = app.controller.pool
    p.pool, p.reserve = p.pool - 3400, 3400  # still balanced: pool + reserve + paid = seeded + contributed
    assert service.meters().data["balanced"] is True
    offer = repr(service.ram_clear())
    assert "reserve 34.00" in offer, offer
    service.ram_clear(service.ram_clear().data["code"])
    cleared = [r for r in app.journal.records(5) if r[2] == "ram_clear"][-1]
    assert "reserve 34.00" in cleared[5], cleared
    app.journal.append("pool_to_reserve", 2, 1075000, 1075000, "limit 25000000")
    line = repr(service.journal(1)).split("\n")[-1]
    assert "pool_to_reserve moved 10750.00 reserve 10750.00" in line, line


def test_tilt_on_a_corrupt_record_then_ram_clear_recovers():
    app = new_app("caribbean_stud")
    royal_hit_round(app)
    corrupt(app, "round")  # the newest round record damaged, and the journal goes on after it
    app = reboot(app)
    rep = service.status()
    assert rep.data["state"] == "tilt" and "damaged flash after saved frame" in repr(rep), repr(rep)
    assert app.board.display.lines[0] == "TILT: CALL TECH"
    assert "tilt" in raises(ValueError, service.configure, seats=3)  # nothing to configure on a tilt
    code = service.ram_clear().data["code"]
    service.ram_clear(code)
    assert service.status().data["state"] == "betting" and app.controller.pool.pool == DEFAULTS["seed_cents"]
    assert app.config["game"] == "caribbean_stud"  # the configuration was not the bad record: kept


# -- the tester's defects: each test failed before its fix -------------------------------------------

def dollars(cents):
    """What a person reads for an amount of cents (positive)."""
    return "%d.%02d" % (cents // 100, cents % 100)


def virtual_sleep(app):
    """The service's sleeps advance the sim board's virtual clock, as a real sleep advances a board's."""
    outputs._sleep = app.board.clock.advance


def feed_gaps(b):
    """Arm the sim watchdog as App.run's first feed does; from then on [longest time between two feeds]."""
    from tablectl.hw.clock import ticks_diff
    b.wdt.feed()
    most = [0]
    feed = b.wdt.feed

    def recording():
        most[0] = max(most[0], ticks_diff(b.clock.now, b.wdt.last))
        feed()

    b.wdt.feed = recording
    return most


def test_long_service_calls_keep_feeding_the_watchdog():
    """lamp_test (120 lamps x 150 ms = 18.6 s), a shaker test of 8 s and a display test of 6 s run inside the
    event loop, past the board's 5 s watchdog: each feeds it at least once a second."""
    app = new_app()
    b = app.board
    virtual_sleep(app)
    most = feed_gaps(b)
    start = b.clock.now
    service.lamp_test()
    assert b.clock.now - start >= 120 * 150 and not b.wdt.tripped()
    service.display_test(step_ms=2000)
    service.configure(shake_ms=8000)  # SB-2.1: the longest shake this board's driver allows
    start = b.clock.now
    rep = service.shaker_test()
    assert rep.data["ms"] == 8000 and b.clock.now - start >= 8000 and b.shaker_pin.value() == 0
    assert not b.wdt.tripped() and 0 < most[0] <= 1000, most
    from tablectl.hw.clock import ticks_diff
    assert ticks_diff(b.clock.now, b.wdt.last) <= 1000  # fed near the end too, not only at the start


def test_a_watchdog_the_table_never_started_is_not_started_by_a_test():
    """LazyWdt arms machine.WDT at its first feed: a test on a table that never ran must not arm it (the
    board would reset a few seconds after the test)."""
    app = new_app()
    virtual_sleep(app)
    service.lamp_test(step_ms=10)
    service.display_test(step_ms=10)
    assert app.board.wdt.feeds == 0


def test_config_tilt_shows_no_game_and_ram_clear_says_the_configuration_is_reset():
    app = new_app("caribbean_stud")
    royal_hit_round(app)
    corrupt(app, "config")
    app = reboot(app)
    rep = service.status()
    text = repr(rep)
    assert rep.data["state"] == "tilt" and rep.data["game"] is None, text
    assert "game unknown" in text and "sicbo" not in text and "caribbean" not in text, text
    assert "shaker" in raises(ValueError, service.shaker_test, 10)  # no game known: no shaker either
    offer = repr(service.ram_clear())
    assert "keeps the configuration" not in offer, offer
    assert "defaults (game %s)" % DEFAULTS["game"] in offer and "configure(game=" in offer, offer
    service.ram_clear(service.ram_clear().data["code"])
    rep = service.status()
    assert rep.data["game"] == DEFAULTS["game"] and rep.data["state"] == "idle", repr(rep)


def test_tilt_is_journalled_once_per_boot_and_meters_say_they_are_unavailable():
    app = new_app("caribbean_stud")
    royal_hit_round(app)
    corrupt(app, "round")
    app = reboot(app)
    last = app.journal.records(1)[0]
    assert last[2] == "tilt" and "damaged" in last[5], last
    seq = app.journal.seq
    app = reboot(app)  # still tilted: one more entry for this boot, no more
    assert app.journal.seq == seq + 1 and app.journal.records(1)[0][2] == "tilt"
    rep = service.meters()
    text = repr(rep)
    assert "unavailable" in text and "tilt" in text and "rounds 0" not in text, text
    assert "rounds" not in rep.data and rep.data["unavailable"], rep.data
    assert "unavailable" in repr(service.history())
    # the round record is damaged: the clear journals what the log still makes of it, as unverified
    service.ram_clear(service.ram_clear().data["code"])
    cleared = [r for r in app.journal.records(5) if r[2] == "ram_clear"][-1]
    assert cleared[3] == DEFAULTS["seed_cents"] and "unverified" in cleared[5], cleared


def test_ram_clear_in_a_config_tilt_journals_what_the_round_record_held():
    app = new_app("caribbean_stud")
    royal_hit_round(app)  # paid and back to betting
    pool, paid, rounds = app.controller.pool.pool, app.controller.pool.paid, app.meters.rounds
    assert paid > 0 and rounds == 1
    corrupt(app, "config")
    app = reboot(app)
    service.ram_clear(service.ram_clear().data["code"])
    cleared = [r for r in app.journal.records(5) if r[2] == "ram_clear"][-1]
    assert cleared[3:5] == (pool, paid) and "rounds 1" in cleared[5], cleared
    line = [x for x in repr(service.journal(5)).split("\n") if " ram_clear " in x + " "][-1]
    assert "pool " + dollars(pool) in line and "paid " + dollars(paid) in line, line


def test_bad_test_arguments_raise_naming_the_argument_and_change_nothing():
    app = new_app("caribbean_stud")
    b = app.board
    virtual_sleep(app)
    app.controller.animate(0)
    before = b.snapshot()
    start = b.clock.now
    for call, name, arg in ((service.lamp_test, "step_ms", "x"), (service.lamp_test, "step_ms", -1),
                            (service.lamp_test, "step_ms", 10000), (service.lamp_test, "step_ms", True),
                            (service.display_test, "step_ms", "x"), (service.display_test, "step_ms", -1),
                            (service.display_test, "step_ms", 10 ** 6), (service.shaker_test, "ms", "x"),
                            (service.shaker_test, "ms", 0), (service.shaker_test, "ms", 8001)):
        msg = raises(ValueError, call, arg)
        assert msg.startswith(name + " must be an integer ") and ".." in msg and repr(arg) in msg, msg
    assert b.snapshot() == before and b.clock.now == start
    msg = raises(ValueError, service.selftest, "/nonexistent")
    assert "/nonexistent/fwmanifest.json" in msg, msg
    assert "root" in raises(ValueError, service.selftest, 5)


def test_history_rows_read_as_the_table_shows_them():
    app = new_app("fish_prawn_crab")
    drive(app, "SHAKE")
    app.board.clock.advance(5000)
    app.tick()
    drive(app, "BELL", "1", "2", "3", "ENTER", "CONFIRM", "SHAKE", "VOID_LONG")
    rep = service.history()
    text = repr(rep)
    # FPC-1.1: faces 1, 2, 3 are fish, prawn, gourd; the table shows them as words
    assert rep.title == "history (last 2 results)" and "round 1" in text and "FISH PRAWN GOURD" in text, text
    assert text.endswith("round 1.2  void"), text  # a void round is listed too (FPC-3.3)
    assert "(" not in text.split("\n", 1)[1], text
    done()
    app = new_app("caribbean_stud")
    royal_hit_round(app, seats=(5,))
    paid = app.controller.pool.paid
    lines = repr(service.history(5)).split("\n")
    assert len(lines) == 2 and "round 1" in lines[1] and "seat 5" in lines[1], lines
    assert "royal_flush" in lines[1] and dollars(paid) in lines[1], lines
    assert str(paid) not in lines[1].replace(".", "x"), lines  # the amount only as dollars.cents


def test_journal_lines_read_as_events_not_raw_fields():
    app = new_app("caribbean_stud")
    for s in (1, 4):
        app.board.set_seat(s, True)
    drive(app, "LOCK", "HIT", "4", "ENTER", "5", "ENTER", *"141131121111101", "ENTER")
    key = app.board.service_key.value()
    app.board.set_service_key(True)  # the top award: the supervisor's key (issue 21)
    assert app.controller.handle("ENTER"), app.controller.message
    app.board.set_service_key(key)
    drive(app, "CONFIRM")
    paid = app.controller.pool.paid
    lines = repr(service.journal(10)).split("\n")[1:]
    text = "\n".join(lines)
    assert " a=" not in text and " b=" not in text, text
    lock = [x for x in lines if " lock " in x][0]
    added = 2 * DEFAULTS["bet_cents"] * DEFAULTS["rate_bp"] // 10000  # CSP-10.1: each bet feeds the pool
    assert "seats 1,4" in lock and dollars(added) in lock, lock
    pay = [x for x in lines if " pay " in x][0]
    assert "seat 4" in pay and dollars(paid) in pay and "royal_flush" in pay, pay
    assert str(paid) not in pay.replace(".", "x"), pay
    assert [x for x in lines if x.endswith(" open") or x.endswith(" boot caribbean_stud")], lines


def test_a_hit_journals_the_cards_entered_for_surveillance():
    """HIT with the cards: the journal keeps them by name as dealt (surveillance checks the hit against
    the video); the coup is entered once and journalled for every locked seat (BAC-17.9)."""
    app = new_app("baccarat_b")
    for s in (1, 2):
        app.board.set_seat(s, True)
    # 4s 4h 4c 4d, two naturals: four of a rank (class 2 of jackpot B, BAC-13.1.4.4)
    drive(app, "LOCK", "HIT", *"041042043044", "ENTER")
    hits = [r for r in app.journal.records(10) if r[2] == "coup_in"]
    assert [r[3:] for r in hits] == [(3, 2, "four 4s 4h 4c 4d")], hits  # seats 1 and 2 (bits 0, 1)
    lines = [x.strip() for x in repr(service.journal(10)).split("\n") if " coup_in " in x]
    assert lines[0].endswith("round 1.1 coup_in seats 1,2 hits 2 (four 4s 4h 4c 4d)"), lines


def test_journal_renders_every_seat_mask_and_every_dice_result():
    """Exhaustive over what a and b can hold: the 127 sets of seats a lock can freeze (CSP-6.3: seats 1..7,
    seat s as bit s-1) and the 216 dice results (SB-1.1) stored as one 3-digit number."""
    for mask in range(1, 128):
        seats = [str(s) for s in range(1, 8) if mask & (1 << (s - 1))]
        line = reports.journal_line((9, 3, "lock", mask, 1250, "%d new" % len(seats)))
        assert line == "#9 round 3 lock seats %s added 12.50 (%d new)" % (",".join(seats), len(seats)), line
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            for d3 in range(1, 7):
                line = reports.journal_line((5, 2, "result", d1 * 100 + d2 * 10 + d3, 4, ""))
                assert line == "#5 round 2 result dice %d %d %d winning spots 4" % (d1, d2, d3), line
    for number in range(1, 5):  # FT-3: fan-tan's number and the count it came from
        assert reports.journal_line((1, 1, "result", number, 12 + number, "")) == \
            "#1 round 1 result number %d count %d" % (number, 12 + number)
    assert reports.journal_line((2, 4, "void", 0, 0, "")) == "#2 round 4 void"  # zero fields left out
    assert reports.journal_line((3, 4, "mystery", 0, 7, "x")) == "#3 round 4 mystery b 7 (x)"


def test_configure_journals_a_rebuild_not_a_boot():
    app = new_app()
    seq = app.journal.seq
    service.configure(pay_5_16=24)
    events = [r[2] for r in app.journal.records(10) if r[0] > seq]
    assert "boot" not in events and "config" in events, events
    assert "reconfigured" in events, events


def test_ram_clear_takes_the_code_only_as_the_text_shown():
    """The code is text ('030964', as ram_clear() shows it and the README types it): a number has lost its
    leading zeros, so it is refused with the quoted form to type, and nothing is cleared."""
    app = new_app()
    code = service.ram_clear().data["code"]
    for _ in range(300):  # journal entries move the code on: find one with a leading zero (1 in 10)
        if code[0] == "0":
            break
        app.journal.append("note", 1)
        code = service.ram_clear().data["code"]
    assert code[0] == "0", code
    seq = app.journal.seq
    for given in (int(code), float(code), int(code) + 1000000, True):
        msg = raises(ValueError, service.ram_clear, given)
        assert "in quotes" in msg and "'" in msg, msg
    assert "'%s'" % code in raises(ValueError, service.ram_clear, int(code))  # the zeros put back
    assert app.journal.seq == seq
    assert service.ram_clear(code).data == {"cleared": True}


def test_shaker_test_refused_where_the_game_has_no_shaker_SB_2_1():
    for game, cfg in (("fantan", {}), ("caribbean_stud", {}), ("sicbo", {"shaker": "manual"})):
        app = new_app(game, **cfg)
        msg = raises(ValueError, service.shaker_test, 10)
        assert "shaker" in msg and "refused" in msg, (game, msg)
        assert app.board.shaker.pulses == 0 and app.board.shaker_pin.value() == 0
        done()  # the next table boots alone


def test_with_the_service_key_off_every_call_that_changes_anything_is_refused_and_reads_still_work():
    app = new_app("caribbean_stud")
    b = app.board
    b.set_service_key(False)
    app.tick()  # the key turned off and seen: its key_off journalled before the calls
    before = (app.store.writes, app.journal.seq, dict(app.config.values), b.snapshot())
    for call, args in ((service.configure, {"seats": 6}), (service.configure, {"game": "sicbo"}),
                       (service.lamp_test, {"step_ms": 0}), (service.display_test, {"step_ms": 0}),
                       (service.ram_clear, {"code": service.ram_clear().data["code"]})):
        msg = raises(ValueError, call, **args)
        assert "refused: the service key is off" in msg and "\n" not in msg, msg
    assert "the service key is off" in raises(ValueError, service.shaker_test)  # and no shaker here
    assert (app.store.writes, app.journal.seq, dict(app.config.values), b.snapshot()) == before
    assert service.status().data["key"] is False and "service key off" in repr(service.status())
    for call in (service.meters, service.history, service.journal, service.config):
        assert call().lines  # reports: read with the key off
    assert "selftest" in repr(service.selftest)  # (selftest reads too: test_selftest.py)
    assert repr(repl.configure(seats=6)).startswith("REFUSED: configure refused: the service key is off")


def test_a_change_asked_the_moment_the_key_turns_follows_its_key_on_and_its_code_stays_good():
    """The key read by a service call before the controller's next tick: key_on is journalled then and
    there, so the journal never shows a change ahead of the key that allowed it, and the confirmation code
    a refusal names is not made stale by the key_on the next tick would have journalled."""
    app = new_app("caribbean_stud")
    b = app.board
    b.set_service_key(False)
    app.tick()
    b.set_service_key(True)  # no tick between the key and the call, as when the host link or the REPL is quick
    code = raises(ValueError, service.configure, game="sicbo").split("confirm='")[1][:6]
    assert app.journal.records(1)[0][2] == "key_on"
    app.tick()  # the tick that follows journals nothing more
    assert app.journal.records(1)[0][2] == "key_on"
    assert service.configure(game="sicbo", confirm=code).data["applied"] == {"game": "sicbo"}
    events = [r[2] for r in app.journal.records(8)]
    assert events.index("key_on") < events.index("pool_closed"), events


def test_the_key_turned_is_journalled_shown_between_rounds_and_no_round_starts_while_it_is_on():
    app = new_app()
    b, c = app.board, app.controller
    b.set_service_key(False)
    app.tick()
    seq = app.journal.seq
    b.set_service_key(True)
    app.tick()
    assert app.journal.records(1)[0][2] == "key_on" and app.journal.seq == seq + 1
    assert b.display.lines == ["SERVICE KEY ON", "TIME NOT SET"]  # the technician has the clock to set
    service.set_time("2026-12-02 08:30:00")
    assert b.display.lines == ["SERVICE KEY ON", "ROUND 1"]
    assert c.handle("SHAKE") is False and c.message == "SERVICE KEY ON" and c.state == "idle"
    service.configure(pay_5_16=20)  # a change while it is on: journalled with its values before and after
    assert [r[5] for r in app.journal.records(3) if r[2] == "config"] == ["pay_5_16 18->20"]
    b.set_service_key(False)
    app.tick()
    c = app.controller  # the change rebuilt it
    assert app.journal.records(1)[0][2] == "key_off" and b.display.lines[0] == "ROUND 1"
    assert c.handle("SHAKE") is True  # a round starts once the key is off
    b.set_service_key(True)
    app.tick()
    assert c.state == "shaking" and b.display.lines[0] == "SHAKING"  # a round under way goes on
    assert "refused" in raises(ValueError, service.lamp_test, 0)  # but nothing is tested mid-round
