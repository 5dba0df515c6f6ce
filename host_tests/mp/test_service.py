"""The technician's service calls on a real App with the sim board: readable reports, configure refused
mid-round and pool changes held until the next hit (CSP-10.3), output tests, selftest, confirmed RAM clear."""
# mp-heap: 288K
# (the test compiles from source and boots several Apps; the firmware's own 64 KB budget is the demo's)
import gc
import json
import os

import board  # boards/sim: on the path of host_tests/conftest.py and of host_tests/mpy.py

import service  # the top-level shim the technician imports
from ramblockdev import damage_record, flash_file as flash_of, remove_dir, scratch_dir
from tablectl import app as appmod
from tablectl import service as fwservice  # the helpers the shim does not re-export
from tablectl.config import DEFAULTS, Config
from tablectl.log import Log
from tablectl.store import Store
from mptest import raises

ROOTS = []
REAL_SLEEP = fwservice._sleep


def new_app(game="sicbo", **cfg):
    """A running App (registered as tablectl.app.current) on an empty folder, the sim board, a virtual clock."""
    gc.collect()
    root = scratch_dir("sv")
    ROOTS.append(root)
    flash = flash_of(root)
    if game != "sicbo" or cfg:
        Config(Store(Log(flash))).change(0, game=game, **cfg)
    app = appmod.App(board.make(virtual_clock=True, flash=flash), root)
    appmod.current = app
    return app


def done():
    appmod.current = None
    service.use(None)
    fwservice._sleep = REAL_SLEEP
    while ROOTS:
        remove_dir(ROOTS.pop())


def drive(app, *events):
    for e in events:
        assert app.controller.handle(e), (e, app.controller.message)


def royal_hit_round(app, seats=(1,)):
    """Caribbean Stud round on the panel: seats bet, LOCK, a royal flush on the first seat, CONFIRM,
    CONFIRM (keypad class 5 = royal_flush, CSP-10.2.1)."""
    for s in seats:
        app.board.set_seat(s, True)
    drive(app, "LOCK", "HIT", str(seats[0]), "ENTER", "5", "ENTER", "ENTER", "CONFIRM", "CONFIRM")


def test_every_call_says_when_no_app_runs():
    appmod.current = None
    service.use(None)
    for call in (service.status, service.meters, service.config, service.journal, service.lamp_test):
        assert "no application running" in raises(ValueError, call)


def test_status_and_reports_read_as_text():
    try:
        app = new_app()
        rep = service.status()
        text = repr(rep)
        assert text == str(rep) and text.startswith("status\n")
        assert "game sicbo, state idle, round 1" in text, text
        assert rep.data["busy"] is False and rep.data["round"] == 1
        drive(app, "SHAKE")  # a round starts: the electric shaker runs (SB-2.1)
        rep = service.status()
        assert rep.data["busy"] is True and "(round in progress)" in repr(rep)
    finally:
        done()


def test_configure_refused_mid_round_changes_nothing():
    try:
        app = new_app()
        drive(app, "SHAKE")
        writes, seq = app.store.writes, app.journal.seq
        msg = raises(ValueError, service.configure, pay_5_16=24)
        assert "refused" in msg and "round 1" in msg, msg
        assert app.config["pay_5_16"] == 18 and app.store.writes == writes and app.journal.seq == seq
    finally:
        done()


def test_configure_validates_applies_and_journals():
    try:
        app = new_app()
        writes = app.store.writes
        assert "18..30" in raises(ValueError, service.configure, pay_5_16=31)  # SB-6.6
        assert "unknown" in raises(ValueError, service.configure, colour="red")
        assert "max on-time" in raises(ValueError, service.configure, shake_ms=app.board.shaker.max_on_ms + 1)
        assert app.store.writes == writes and app.config["pay_5_16"] == 18
        most = app.board.shaker.max_on_ms
        assert service.configure(shake_ms=most).data["applied"] == {"shake_ms": most}
        rep = service.configure(pay_5_16=24, history_len=10)
        assert rep.data == {"applied": {"pay_5_16": 24, "history_len": 10}, "deferred": {}}
        assert "pay_5_16 = 24 (now)" in repr(rep)
        assert app.config["pay_5_16"] == 24 and Config(Store(Log(flash_of(app.root))))["pay_5_16"] == 24
        assert "pay_5_16 18->24" in repr(service.journal(5))
        text = repr(service.config())
        assert "* pay_5_16" in text and "  seats" in text  # '*' marks what differs from the default
        # a new game rebuilds the controller at once (the table is idle)
        service.configure(game="fantan")
        assert app.controller.status()["game"] == "fantan" and service.status().data["game"] == "fantan"
    finally:
        done()


def test_pool_change_waits_for_the_next_hit_CSP_10_3():
    try:
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
    finally:
        done()


def test_meters_balance_and_last_hits():
    try:
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
        assert "round 1 seat 3 royal_flush" in repr(rep)
    finally:
        done()


def test_history_and_journal_counts():
    try:
        app = new_app("fantan")
        assert "n must be" in raises(ValueError, service.journal, 0)
        assert "n must be" in raises(ValueError, service.history, "5")
        assert "no rounds yet" in repr(service.history(5))
        j = service.journal(3)
        assert len(j.data) <= 3 and j.data[-1][0] == app.journal.seq
        assert repr(j).startswith("journal (last %d of %d)" % (len(j.data), app.journal.seq))
    finally:
        done()


def test_lamp_test_lights_each_lamp_then_all_and_restores():
    try:
        app = new_app()
        b = app.board
        lit = []  # per frame the chain sends: the indices of the lamps on
        dark = (0, 0, 0)

        def frame(what):
            if what == "lamps":
                shown = b.neopixel.shown
                lit.append([i for i in range(len(shown)) if shown[i] != dark])

        b.listeners.append(frame)
        before = list(b.neopixel.shown)
        rep = service.lamp_test(step_ms=0)
        n = b.lamps.count
        assert rep.data == {"lamps": n}
        assert lit[:n] == [[i] for i in range(n)]  # each lamp alone, in chain order
        assert lit[n] == list(range(n))  # then all together
        assert list(b.neopixel.shown) == before  # then the picture as it was
        drive(app, "SHAKE")
        assert "refused" in raises(ValueError, service.lamp_test, 0)
    finally:
        done()


def test_display_test_fills_every_cell_and_restores():
    try:
        app = new_app("caribbean_stud")
        b = app.board
        seen = []
        b.listeners.append(lambda what: seen.append((what, list(b.display.lines), b.jackpot_bus.text())))
        app.controller.animate(0)  # what the display task does: the pool on the jackpot digits
        lines, digits = list(b.display.lines), b.jackpot_bus.text()
        assert digits.strip() == "250000.00"  # the default seed, 25,000,000 cents
        service.display_test(step_ms=0)
        texts = [s[1] for s in seen if s[0] == "display"]
        assert ["8" * 16, "8" * 16] in texts and ["#" * 16, "#" * 16] in texts
        shown = [s[2] for s in seen if s[0] == "jackpot"]
        assert "8.8.8.8.8.8.8.8." in shown or any(t.replace(".", "") == "88888888" for t in shown), shown
        assert b.display.lines == lines
        app.controller.animate(0)  # the next pass of the display task draws the pool again
        assert b.jackpot_bus.text() == digits
    finally:
        done()


def test_shaker_test_respects_max_on_time_and_interlock():
    try:
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
    finally:
        done()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def test_selftest_checks_every_file_against_the_manifest():
    root = scratch_dir("fw")
    try:
        # CRC-32 check values: "123456789" -> cbf43926, the quick brown fox -> 414fa339
        os.mkdir(root + "/lib")
        write(root + "/main.py", b"123456789")
        write(root + "/lib/x.mpy", b"The quick brown fox jumps over the lazy dog")
        write(root + "/fwmanifest.json",
              b'{"board": "sim", "files": {"main.py": 3421780262, "lib/x.mpy": 1095738169}}')
        rep = service.selftest(root)
        assert rep.data == {"ok": True, "checked": 2, "bad": [], "missing": [], "unlisted": [],
                            "shadows": []}, rep.data
        assert "2 files checked" in repr(rep) and "all OK" in repr(rep)
        write(root + "/lib/x.mpy", b"The quick brown fox jumps over the lazy cog")
        os.remove(root + "/main.py")
        rep = service.selftest(root)
        assert rep.data["ok"] is False and rep.data["bad"] == ["lib/x.mpy"] and rep.data["missing"] == ["main.py"]
        assert "CRC mismatch: lib/x.mpy" in repr(rep) and "FAILED" in repr(rep)
    finally:
        remove_dir(root)


def test_selftest_passes_on_the_built_firmware():
    # the .mpy files this test runs from, against the manifest tools/build_mpy.py wrote
    try:
        import mpy
        root = str(mpy.BUILD)
        mpy.ensure_build()
    except ImportError:  # on the unix port the build folder is on sys.path
        root = None
    rep = service.selftest(root)
    assert rep.data["ok"] is True and rep.data["checked"] > 10, repr(rep)


def copy_tree(src, dest):
    os.mkdir(dest)
    buf = bytearray(512)
    for name in os.listdir(src):
        if os.stat(src + "/" + name)[0] & 0x4000:
            copy_tree(src + "/" + name, dest + "/" + name)
            continue
        with open(src + "/" + name, "rb") as f, open(dest + "/" + name, "wb") as g:
            while True:
                n = f.readinto(buf)
                if not n:
                    break
                g.write(buf[:n])


def built_root():
    """The folder of the built firmware (.mpy files + fwmanifest.json) these tests run from."""
    try:
        import mpy
        mpy.ensure_build()
        return str(mpy.BUILD)
    except ImportError:  # on the unix port the build folder is on sys.path
        return fwservice._manifest_root()


def test_selftest_names_stale_code_beside_the_built_firmware_and_nothing_else():
    """A copy of the built firmware plus what older firmware and people leave on a board: only a source
    file shadowing a listed .mpy and a module the manifest does not list fail it; a technician's root
    script, mip's lib/ and the records are not firmware."""
    gc.collect()
    root = scratch_dir("fw")
    os.rmdir(root)
    try:
        copy_tree(built_root(), root)
        assert service.selftest(root).data["ok"] is True  # the copy alone is the certified set
        write(root + "/tablectl/app.py", b"print('debug build')\n")  # MicroPython imports app.py first
        write(root + "/tablectl/games/old.mpy", b"M\x06")  # a module a previous firmware had
        write(root + "/notes.py", b"# the technician's own script\n")
        os.mkdir(root + "/lib")
        write(root + "/lib/aiorepl.mpy", b"M\x06")  # mip installs there
        write(root + "/round.0", b"record")
        write(root + "/journal.log", b"1 0 boot 0 0\n")
        rep = service.selftest(root)
        d = rep.data
        assert d["ok"] is False and d["bad"] == [] and d["missing"] == [], repr(rep)
        assert d["unlisted"] == ["tablectl/games/old.mpy"] and d["shadows"] == ["tablectl/app.py"], d
        text = repr(rep)
        assert "FAILED" in text and "unlisted: tablectl/games/old.mpy" in text
        assert "shadows: tablectl/app.py (imported instead of tablectl/app.mpy)" in text, text
        for kept in ("notes.py", "aiorepl", "round.0", "journal"):
            assert kept not in text, text
        os.remove(root + "/tablectl/app.py")
        os.remove(root + "/tablectl/games/old.mpy")
        assert service.selftest(root).data["ok"] is True
    finally:
        remove_dir(root)


def test_stale_files_where_the_firmware_lives():
    """Which files the rules call stale, on a manifest with root, package and lib/ files."""
    listed = {"main.py": 0, "board.mpy": 0, "tablectl/__init__.mpy": 0, "tablectl/hw/lamps.mpy": 0,
              "lib/extra.mpy": 0}
    deep, shallow = fwservice._code_places(listed)
    assert deep == ["tablectl"] and sorted(shallow) == ["", "lib"], (deep, shallow)
    present = ["main.py", "board.mpy", "board.py", "main.mpy", "notes.py", "tablectl/__init__.mpy",
               "tablectl/__init__.py", "tablectl/hw/lamps.mpy", "tablectl/hw/old.py", "tablectl/gone/x.mpy",
               "lib/extra.mpy", "lib/extra.py", "lib/aiorepl.mpy", "lib/aiorepl.py"]
    unlisted, shadows = fwservice._stale_files(listed, present)
    assert shadows == ["board.py", "lib/extra.py", "tablectl/__init__.py"], shadows
    # main.mpy beside the listed main.py: the import takes main.py, and main.py runs by name; a root file
    assert unlisted == ["tablectl/gone/x.mpy", "tablectl/hw/old.py"], unlisted
    assert fwservice._stale_files(listed, list(listed)) == ([], [])


def test_selftest_of_a_firmware_deployed_in_romfs():
    """make deploy ROMFS=1: the manifest names the image's folder; every file but main.py is checked there,
    and the firmware's code left on the filesystem shadows the image's (the import looks there first)."""
    gc.collect()
    rom = scratch_dir("rom")
    os.rmdir(rom)
    root = scratch_dir("fs")
    try:
        copy_tree(built_root(), rom)  # the image's content: every file of the build ...
        for name in ("main.py", "fwmanifest.json"):  # ... but these, which stay on the filesystem
            with open(rom + "/" + name, "rb") as f:
                write(root + "/" + name, f.read())
            os.remove(rom + "/" + name)
        with open(root + "/fwmanifest.json") as f:
            manifest = json.load(f)
        manifest["romfs"] = rom
        write(root + "/fwmanifest.json", json.dumps(manifest).encode())
        rep = service.selftest(root)
        assert rep.data["ok"] is True and rep.data["romfs"] == rom, repr(rep)
        assert "ROMFS at " + rom in repr(rep)
        os.mkdir(root + "/tablectl")
        write(root + "/tablectl/app.mpy", b"M\x06 an older copy")
        write(root + "/board.py", b"print('debug')\n")
        rep = service.selftest(root)
        assert rep.data["shadows"] == ["tablectl/", "board.py"] and rep.data["ok"] is False, repr(rep)
        assert "shadows: tablectl/ (imported instead of %s/tablectl/)" % rom in repr(rep)
        assert "shadows: board.py (imported instead of %s/board.mpy)" % rom in repr(rep)
        os.remove(root + "/tablectl/app.mpy")
        rep = service.selftest(root)  # empty, the folder still hides the image's package
        assert rep.data["shadows"] == ["tablectl/", "board.py"] and rep.data["unlisted"] == [], repr(rep)
        os.rmdir(root + "/tablectl")
        os.remove(root + "/board.py")
        write(rom + "/tablectl/app.mpy", b"M\x06 damaged")
        rep = service.selftest(root)
        assert rep.data["bad"] == ["tablectl/app.mpy"] and rep.data["shadows"] == [], repr(rep)
        manifest["romfs"] = 1
        write(root + "/fwmanifest.json", json.dumps(manifest).encode())
        assert "romfs must name" in raises(ValueError, service.selftest, root)
    finally:
        remove_dir(rom)
        remove_dir(root)


def test_stale_files_with_the_firmware_in_romfs():
    listed = {"main.py": 0, "board.mpy": 0, "pins.csv": 0, "tablectl/app.mpy": 0}
    present = ["main.py", "board.mpy", "tablectl/app.mpy", "tablectl/app.py", "tablectl/old.mpy"]
    assert fwservice._stale_files(listed, present, rom=True) == (
        ["tablectl/old.mpy"], ["board.mpy", "tablectl/app.mpy", "tablectl/app.py"])
    assert fwservice._stale_files(listed, ["main.py"], rom=True) == ([], [])


def test_code_files_walks_the_firmware_folders_only():
    """Every .py/.mpy at any depth of a deep folder; only the top level of a shallow one (root); no
    folders, no other files; a folder the board lacks is no error."""
    root = scratch_dir("cf")
    try:
        for d in ("/pkg", "/pkg/a", "/pkg/a/b", "/pkg/dir.py", "/other"):
            os.mkdir(root + d)
        for f in ("/top.py", "/top.mpy", "/rec.0", "/pkg/m.mpy", "/pkg/a/n.py", "/pkg/a/b/o.mpy",
                  "/pkg/a/b/data.json", "/pkg/dir.py/p.mpy", "/other/q.py"):
            write(root + f, b"x")
        want = ["pkg/a/b/o.mpy", "pkg/a/n.py", "pkg/dir.py/p.mpy", "pkg/m.mpy", "top.mpy", "top.py"]
        assert sorted(fwservice._code_files(root, ["pkg", "gone"], [""])) == want
        assert sorted(fwservice._code_files(root + "/", ["pkg"], [""])) == want
        assert sorted(fwservice._code_files(root, [], ["other", "pkg"])) == ["other/q.py", "pkg/m.mpy"]
    finally:
        remove_dir(root)


def test_ram_clear_needs_the_current_code_and_is_journalled():
    try:
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
    finally:
        done()


def test_a_game_change_that_closes_a_live_jackpot_needs_its_code():
    """configure(game=...) on a progressive table whose pool holds money is refused, naming the code that
    confirms it (the pool cannot come back); a wrong or stale code changes nothing; the right one (text or
    int) switches and journals the closed pool. A table with no pool switches without a code."""
    try:
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
        assert service.configure(game="sicbo", confirm=int(code)).data["applied"] == {"game": "sicbo"}
        assert app.controller.game == "sicbo"
        assert [r for r in app.journal.records(5) if r[2] == "pool_closed"][-1][3] == pool
        assert service.configure(game="fantan").data["applied"] == {"game": "fantan"}  # no pool: no code
    finally:
        done()


def test_status_asks_for_a_posted_amount_and_the_reserve_is_never_lost_from_the_record():
    """A configuration an older firmware saved may lack a fixed award's amount (BAC-17.9): status() says
    what to configure. A reserve (a limit lowered below the pool leaves one) shows in the RAM clear's
    offer and journal entry, and a move to it reads as money."""
    try:
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
    finally:
        done()


def test_tilt_on_a_corrupt_record_then_ram_clear_recovers():
    try:
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
    finally:
        done()


# -- the tester's defects: each test failed before its fix -------------------------------------------

def dollars(cents):
    """What a person reads for an amount of cents (positive)."""
    return "%d.%02d" % (cents // 100, cents % 100)


def virtual_sleep(app):
    """The service's sleeps advance the sim board's virtual clock, as a real sleep advances a board's."""
    fwservice._sleep = app.board.clock.advance


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
    try:
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
    finally:
        done()


def test_selftest_feeds_a_running_tables_watchdog_file_by_file():
    try:
        app = new_app()
        feed_gaps(app.board)
        feeds = app.board.wdt.feeds
        rep = service.selftest(built_root())
        assert rep.data["ok"] is True and app.board.wdt.feeds - feeds >= rep.data["checked"]
    finally:
        done()


def test_a_watchdog_the_table_never_started_is_not_started_by_a_test():
    """LazyWdt arms machine.WDT at its first feed: a test on a table that never ran must not arm it (the
    board would reset a few seconds after the test)."""
    try:
        app = new_app()
        virtual_sleep(app)
        service.lamp_test(step_ms=10)
        service.display_test(step_ms=10)
        assert app.board.wdt.feeds == 0
    finally:
        done()


def corrupt(app, name):
    """Damage the newest frame that writes record `name`, then journal something after it (so the log
    proves a later state than the one left readable)."""
    damage_record(app.board.flash, name)
    app.journal.append("note", 0)


def reboot(app):
    gc.collect()
    app = appmod.App(board.make(virtual_clock=True, flash=flash_of(app.root)), app.root)
    appmod.current = app
    return app


def test_config_tilt_shows_no_game_and_ram_clear_says_the_configuration_is_reset():
    try:
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
    finally:
        done()


def test_tilt_is_journalled_once_per_boot_and_meters_say_they_are_unavailable():
    try:
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
    finally:
        done()


def test_ram_clear_in_a_config_tilt_journals_what_the_round_record_held():
    try:
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
    finally:
        done()


def test_bad_test_arguments_raise_naming_the_argument_and_change_nothing():
    try:
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
    finally:
        done()


def test_history_rows_read_as_the_table_shows_them():
    try:
        app = new_app("fish_prawn_crab")
        drive(app, "SHAKE")
        app.board.clock.advance(5000)
        app.tick()
        drive(app, "BELL", "1", "2", "3", "ENTER", "CONFIRM")
        rep = service.history()
        text = repr(rep)
        # FPC-1.1: faces 1, 2, 3 are fish, prawn, gourd; the table shows FSH PRN GRD
        assert rep.title == "history (last 1 result)" and "round 1" in text and "FSH PRN GRD" in text, text
        assert "(" not in text.split("\n", 1)[1], text
        done()
        app = new_app("caribbean_stud")
        royal_hit_round(app, seats=(5,))
        paid = app.controller.pool.paid
        lines = repr(service.history(5)).split("\n")
        assert len(lines) == 2 and "round 1" in lines[1] and "seat 5" in lines[1], lines
        assert "royal_flush" in lines[1] and dollars(paid) in lines[1], lines
        assert str(paid) not in lines[1].replace(".", "x"), lines  # the amount only as dollars.cents
    finally:
        done()


def test_journal_lines_read_as_events_not_raw_fields():
    try:
        app = new_app("caribbean_stud")
        for s in (1, 4):
            app.board.set_seat(s, True)
        drive(app, "LOCK", "HIT", "4", "ENTER", "5", "ENTER", "ENTER", "CONFIRM")
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
    finally:
        done()


def test_journal_renders_every_seat_mask_and_every_dice_result():
    """Exhaustive over what a and b can hold: the 127 sets of seats a lock can freeze (CSP-6.3: seats 1..7,
    seat s as bit s-1) and the 216 dice results (SB-1.1) stored as one 3-digit number."""
    for mask in range(1, 128):
        seats = [str(s) for s in range(1, 8) if mask & (1 << (s - 1))]
        line = fwservice._journal_line((9, 3, "lock", mask, 1250, "%d new" % len(seats)))
        assert line == "#9 round 3 lock seats %s added 12.50 (%d new)" % (",".join(seats), len(seats)), line
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            for d3 in range(1, 7):
                line = fwservice._journal_line((5, 2, "result", d1 * 100 + d2 * 10 + d3, 4, ""))
                assert line == "#5 round 2 result dice %d %d %d winning spots 4" % (d1, d2, d3), line
    for number in range(1, 5):  # FT-3: fan-tan's number and the count it came from
        assert fwservice._journal_line((1, 1, "result", number, 12 + number, "")) == \
            "#1 round 1 result number %d count %d" % (number, 12 + number)
    assert fwservice._journal_line((2, 4, "void", 0, 0, "")) == "#2 round 4 void"  # zero fields left out
    assert fwservice._journal_line((3, 4, "mystery", 0, 7, "x")) == "#3 round 4 mystery b 7 (x)"


def test_configure_journals_a_rebuild_not_a_boot():
    try:
        app = new_app()
        seq = app.journal.seq
        service.configure(pay_5_16=24)
        events = [r[2] for r in app.journal.records(10) if r[0] > seq]
        assert "boot" not in events and "config" in events, events
        assert "reconfigured" in events, events
    finally:
        done()


def test_ram_clear_takes_the_code_as_an_int_too():
    try:
        app = new_app()
        code = service.ram_clear().data["code"]
        for _ in range(300):  # journal entries move the code on: find one with a leading zero (1 in 10)
            if code[0] == "0":
                break
            app.journal.append("note", 1)
            code = service.ram_clear().data["code"]
        assert code[0] == "0", code
        assert "code" in raises(ValueError, service.ram_clear, float(code))
        assert "code" in raises(ValueError, service.ram_clear, int(code) + 1000000)
        assert service.ram_clear(int(code)).data == {"cleared": True}
    finally:
        done()


def test_shaker_test_refused_where_the_game_has_no_shaker_SB_2_1():
    for game, cfg in (("fantan", {}), ("caribbean_stud", {}), ("sicbo", {"shaker": "manual"})):
        try:
            app = new_app(game, **cfg)
            msg = raises(ValueError, service.shaker_test, 10)
            assert "shaker" in msg and "refused" in msg, (game, msg)
            assert app.board.shaker.pulses == 0 and app.board.shaker_pin.value() == 0
        finally:
            done()
