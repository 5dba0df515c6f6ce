"""Every record a configuration makes has a byte bound (tablectl.bounds), checked when the configuration is
accepted (issue 20, defect 7): one whose records at their largest would not fit the flash is refused in one
line naming the record and its bytes, nothing changed; one accepted keeps a history of many-hit rounds
within its bytes, its oldest results going first."""
# mp-heap: 410K
import json

from ramblockdev import RamBlockDev
from test_ctl_app import keyed
from test_ctl_faults import boot, flash  # a flash of up to 16 blocks of 4 KB, a sim board's App on it
from tablectl import service
from tablectl.config import Config
from tablectl.storage import Log
from tablectl.store import Store

TWO_HITS = ("LOCK", "HIT", "5", "ENTER", "1", "ENTER", "ENTER", "HIT", "6", "ENTER", "2", "ENTER", "ENTER",
            "CONFIRM", "CONFIRM", "CONFIRM")  # settle, the second award shown, the next round


def refused(app, **kw):
    """The one-line refusal of service.configure(**kw), after checking that it changed nothing on flash."""
    app.board.set_service_key(True)
    app.tick()  # its key_on journalled
    seq, cfg, game = app.log.seq, app.store.peek("config"), app.config["game"]
    try:
        service.configure(**kw)
    except ValueError as e:
        why = str(e)
    else:
        raise AssertionError("accepted: %r" % (kw,))
    finally:
        app.board.set_service_key(False)
    assert app.log.seq == seq and app.store.peek("config") is cfg and app.config["game"] == game
    assert "\n" not in why and why.startswith("record '") and "bytes" in why, why
    return why


def test_a_caribbean_stud_history_of_50_is_refused_at_the_factory_set_up_in_one_line():
    """The configuration that wedged the table (issue 20: a frame of 3617 bytes), on a new table's 4 KB
    blocks: refused when given, the table still the sic bo it booted as."""
    app = boot(flash(16))
    why = refused(app, game="caribbean_stud", history_len=50, hit_cards_cents=1000000)
    assert why.startswith("record 'round' needs ") and "history_len 50, seats 7" in why, why
    assert app.controller.game == "sicbo" and app.tilt is None
    keyed(app, service.configure, game="caribbean_stud", history_len=20)  # 20 rounds of one hit fit
    assert app.controller.game == "caribbean_stud"
    service.use(None)


def test_baccarat_b_with_seven_seats_is_refused_on_eight_blocks_and_accepted_on_twelve():
    """Eight blocks keep one for a checkpoint: a progressive's records at their largest need two."""
    app = boot(flash(8))
    why = refused(app, game="baccarat_b", seats=7)
    assert "a checkpoint 3840" in why, why
    service.use(None)
    app = boot(flash(12))
    keyed(app, service.configure, game="baccarat_b", seats=7)
    assert app.controller.game == "baccarat_b"
    service.use(None)


def test_a_progressive_on_1_kb_blocks_is_refused():
    """A 1 KB block holds no progressive's round record (the log accepts such blocks: the table tilts)."""
    store = Store(Log(RamBlockDev(block_size=1024, blocks=16, prog=256)))
    cfg = Config(store)
    try:
        cfg.change(0, game="fortune3")
    except ValueError as e:
        why = str(e)
    else:
        raise AssertionError("accepted")
    assert why.startswith("record 'config' needs ") and why.endswith("a flash block holds 768"), why
    assert store.peek("config") is None and cfg["game"] == "sicbo"


def test_a_longer_history_on_a_running_progressive_is_refused_and_the_round_goes_on():
    app = boot(flash(16))
    keyed(app, service.configure, game="caribbean_stud")
    app.board.set_seat(5, True)
    app.tick()
    why = refused(app, history_len=50)
    assert "history_len 50" in why, why
    assert app.config["history_len"] == 20 and app.controller.handle("LOCK") and app.controller.state == "locked"
    service.use(None)


def test_many_hits_a_round_keep_the_history_within_its_bytes_the_oldest_going_first():
    """Caribbean Stud, history_len=25, two hits a round on 16 blocks of 4 KB: no step refused, the history the
    newest rounds only, as many as its bytes hold, the same after a reboot."""
    d = flash(16)
    app = boot(d)
    keyed(app, service.configure, game="caribbean_stud", history_len=25, hit_cards_cents=1000000)
    cap = app.config.cap[0]  # computed when configure() accepted it
    app.board.set_seat(5, True)
    app.board.set_seat(6, True)
    app.tick()
    for r in range(40):
        for e in TWO_HITS:
            app.dispatch(e)
    ctl = app.controller
    assert not app.refused and app.tilt is None and ctl.round_no == 41, (app.refused, ctl.round_no)
    kept = len(ctl.results)
    assert 1 < kept < 25 and ctl.results[-1][0] == 40, ctl.results
    assert len(json.dumps(ctl.results)) <= cap and [len(r[1]) for r in ctl.results] == [2] * kept
    cap, results = app.config.cap, ctl.results
    app = ctl = None
    again = boot(d.reboot())
    assert again.controller.results == results and again.config.cap == cap  # saved with the configuration
    service.use(None)
