"""A saved configuration whose records or step frames this flash cannot hold at their largest (one an older firmware
accepted: issue 20, defect 7), checked at boot: the table tilts SETUP TOO LARGE with the reason and the way out in
one line, starts no round, and configure() makes it smaller there (a shorter history, the pool changes waiting
undone): then it plays on, the round and meters as they were, no RAM clear."""
# mp-heap: 288K
# (the test compiles from source and boots several Apps)
import gc
import json

from harness.ramblockdev import flash_file as flash_of
from harness.service_table import done, new_app, reboot
from tablectl import service
from tablectl.config import validate
from tablectl.storage import Log
from tablectl.store import Store
from mptest import raises


def teardown_function(function):
    done()


def saved_by_older_firmware(app, **values):
    """The table's configuration record rewritten whole with `values` changed, as a firmware without this bound
    wrote it (no check); 'p': the pool changes waiting. The table is dropped as a power cut drops it."""
    pending = values.pop("p", {})
    root = app.root
    v = dict(app.config.values)
    v.update(values)
    v = validate(v, False)
    gc.collect()
    Store(Log(flash_of(root))).save("config", {"v": v, "p": pending}, full=True)
    return root


def tilted(app, why):
    assert app.tilt == why, app.tilt
    assert "\n" not in why and app.controller.state == "tilt"
    assert app.board.display.lines == ["TILT: CALL TECH", "SETUP TOO LARGE"], app.board.display.lines
    app.board.set_service_key(False)
    assert app.controller.handle("LOCK") is False  # no round starts
    app.board.set_service_key(True)
    assert why in str(service.status())


def test_a_saved_history_too_long_for_the_flash_tilts_at_boot_and_a_shorter_one_plays_on_without_ram_clear():
    app = new_app("caribbean_stud")
    app.board.set_service_key(False)
    app.board.set_seat(1, True)
    app.tick()
    assert app.controller.handle("LOCK") and app.controller.handle("CONFIRM")  # round 1 done, no hit
    app.board.set_service_key(True)
    before = json.loads(json.dumps(app.store.load("round")))  # lists for tuples, as read back
    epoch = app.journal.epoch
    app.root = saved_by_older_firmware(app, history_len=50)
    app = reboot(app)
    why = ("SETUP TOO LARGE: record 'round' needs 5274 bytes at its largest, a frame of a flash block holds 3804; "
           "configure(history_len=23)")
    tilted(app, why)
    tilted(reboot(app), why)  # a reboot neither clears it nor plays
    app = reboot(app)
    assert json.loads(json.dumps(app.store.load("round"))) == before  # nothing of the round touched
    assert "history_len or pool keys only here" in raises(ValueError, service.configure, game="fantan")
    assert "needs 3844 bytes" in raises(ValueError, service.configure, history_len=24)  # still too long
    assert app.tilt == why and app.config["history_len"] == 50
    service.configure(history_len=23)
    assert app.tilt is None and app.controller.state == "betting", (app.tilt, app.controller.state)
    assert app.controller.round_no == 2 and app.journal.epoch == epoch  # no RAM clear
    app = reboot(app)
    assert app.tilt is None and app.config["history_len"] == 23
    app.board.set_service_key(False)
    app.board.set_seat(1, True)
    app.tick()
    assert app.controller.handle("LOCK") and app.controller.handle("CONFIRM")  # round 2 plays
    assert app.controller.round_no == 3


def test_pool_changes_waiting_whose_settlement_cannot_fit_tilt_at_boot_and_undone_there_the_table_plays():
    app = new_app("baccarat_a")
    big = 10 ** 9
    pending = {"fixed_one_pair": big + 1, "fixed_two_pairs": big + 2, "fixed_three_of_a_kind": big + 3,
               "fixed_four_of_a_kind": big + 4, "fixed_paradise_straight": big + 5, "bet_cents": big + 6,
               "rate_bp": 9999, "seed_cents": big + 7, "limit_cents": big + 8}
    old = dict((k, app.config[k]) for k in pending)
    app.root = saved_by_older_firmware(app, p=pending)
    app = reboot(app)
    why = ("SETUP TOO LARGE: a step's frame ('settle', 9 pool changes pending) needs 4379 bytes at its largest, a "
           "flash block holds 3824; configure the pool changes waiting back to their values (service.config() "
           "shows them)")
    tilted(app, why)
    keys = sorted(pending)
    service.configure(**dict((k, old[k]) for k in keys[:2]))  # 7 still waiting: too many yet
    assert app.tilt is not None and "7 pool changes pending" in app.tilt, app.tilt
    service.configure(**dict((k, old[k]) for k in keys[2:4]))  # 5 waiting: they fit
    assert app.tilt is None and app.controller.state == "betting", app.tilt
    assert sorted(app.config.pending) == keys[4:]
