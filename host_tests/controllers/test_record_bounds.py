"""Every record's byte bound (tablectl.bound) against the records the real controllers write at their largest (issue
20, defect 7): every seat hitting every round with its cards, amounts of ten digits, until the history is full;
the bound holds and is no more than twice the largest seen; a configuration whose bound a block cannot hold
is refused in one line before anything is written, and every default one is accepted."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.largest import dice_rounds, frames, largest
from harness.ramblockdev import RamBlockDev
from harness.tables import cleanup, new_app
from tablectl import bound, meters
from tablectl.config import DEFAULTS, GAMES, PROGRESSIVE, Config, validate
from tablectl.rules import MAX_CENTS
from tablectl.storage import Log
from tablectl.store import Store


def bounds(values):
    return {"round": bound.round_bytes(values), "config": bound.config_bytes(values, {}),
            "shift": bound.shift_bytes(values), "epoch": 16}


POOL = ("fixed_flush", "fixed_three", "fixed_one_pair", "fixed_full_house", "fixed_four", "fixed_two_pairs",
        "fixed_four_of_a_kind", "fixed_three_of_a_kind", "fixed_two_threes", "bet_cents", "rate_bp", "seed_cents",
        "limit_cents")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(("caribbean_stud", "baccarat_a", "baccarat_b", "baccarat_c")), st.integers(1, 7),
       st.integers(1, 50), st.integers(0, 9))
def test_every_record_and_step_frame_stays_within_its_bound_and_the_bound_is_within_twice_the_largest(game, n, hist,
                                                                                                      pend):
    """Records, and each step's whole frame (tablectl.bound.steps: the round's changed keys, the step's journal
    entries, the pool changes a settlement applies): `pend` pool changes wait for the last round's hit."""
    rounds = max(hist + 2, meters.KEEP_HITS // n + 2)  # the history and the last hits full
    big = MAX_CENTS // (4 * rounds * n)  # amounts of as many digits as a lifetime's paid meter lets them be
    cfg = dict(game=game, seats=n, history_len=hist, hit_cards_cents=0, supervisor="none", seed_cents=big,
               limit_cents=MAX_CENTS, bet_cents=big // 8, fixed_straight_flush=big, fixed_flush=big, fixed_paradise_straight=big)
    cfg = dict((k, v) for k, v in cfg.items() if k in validate({"game": game}))
    values = validate(cfg)
    why = bound.check(values, {}, 3840, 256)
    if why:  # refused at acceptance, in one line, nothing written
        dev = RamBlockDev(block_size=4096, blocks=16, prog=256)
        c = Config(Store(Log(dev)))
        try:
            c.change(0, **cfg)
            raise AssertionError("accepted: " + why)
        except ValueError as e:
            assert str(e) == why and "\n" not in why and "'round'" in why
        assert Store(Log(dev)).peek("config") is None
        return
    app = new_app(**cfg)
    most = {}
    frames(app, most)
    largest(app, game, n, rounds - 1, most)
    # pool changes of as many digits as their keys take, waiting for the next hit, unless their settlement's frame
    # could outgrow a block: then refused in one line, nothing changed
    keys = [k for k in POOL if k in app.config.values][:pend]
    kw = dict((k, big + 1 if k.startswith("fixed_") else app.config[k] - 1) for k in keys)
    before = (dict(app.config.pending), app.store.peek("config"))
    why = bound.check(app.config.values, kw, 3840, 256)
    try:
        if kw:
            app.config.change(app.controller.round_no, **kw)
        assert not why, why
    except ValueError as e:
        assert str(e) == why and "'settle'" in why and "\n" not in why, (str(e), why)
        assert (app.config.pending, app.store.peek("config")) == before
        kw = {}
    largest(app, game, n, 1, most)  # every round finishes (largest() asserts it), the changes applied
    assert not app.config.pending
    cleanup()
    limit = bounds(app.config.values)
    limit["config"] = max(limit["config"], bound.config_bytes(values, kw))  # the changes waiting in it
    steps = bound.steps(values, kw)  # the configuration as the changes were accepted against
    del steps["shift_close"]  # not a round's: test_a_shift_close_frame_stays_within_its_bound
    limit.update(steps)
    for name in most:
        assert name == "other" or most[name] <= limit[name], (name, most[name], limit[name])
    for name in ("round", "config"):
        assert limit[name] <= 2 * most[name], (name, most[name], limit[name])  # 1.7 at most seen
    # the step bound is the largest of its steps' (what a configuration is checked with), against the largest
    # frame of a step played
    step = max(steps.values())
    real = max(most[name] for name in steps)
    assert step <= 2 * real, (step, real, most, steps)
    print("%s seats %d history %d pending %d: step frame %d / %d (%.2f); %s" % (
        game, n, hist, len(kw), real, step, step / real, ", ".join(
            "%s %d/%d" % (name, most[name], limit[name]) for name in sorted(most) if name in limit)))


def test_seven_seats_hitting_every_round_never_wedge_the_table():
    """Issue 20, defect 7: baccarat B with seven seats hitting (its round record outgrew a frame after 11 rounds)
    and Caribbean Stud with every seat's hit and its cards, 60 rounds each at the defaults."""
    for game in ("baccarat_b", "caribbean_stud"):
        # amounts small enough that 420 awards leave the lifetime meters below 2**30 cents
        extra = {"fixed_straight_flush": 200000} if game == "caribbean_stud" else {}
        app = new_app(game, hit_cards_cents=0, supervisor="none", seed_cents=100000, **extra)
        most = {}
        largest(app, game, 7, 60, most)
        assert most["round"] <= bound.round_bytes(app.config.values), most
        cleanup()


def test_a_progressive_history_holds_exactly_as_many_awards_as_its_bound_allows_never_one_more():
    # the cap the bound counts on (max(history_len, seats) awards): one award more, a cap off by one, is
    # within the bound's slack at the defaults and would pass the size tests above
    for n, hist in ((7, 3), (2, 5)):
        app = new_app("caribbean_stud", seats=n, history_len=hist, hit_cards_cents=0, supervisor="none",
                      seed_cents=100000, fixed_straight_flush=200000)
        most = {}
        for _ in range(hist + 2):
            largest(app, "caribbean_stud", n, 1, most)
            awards = sum(len(r[1]) for r in app.controller.results if type(r[1]) is tuple)
            assert awards <= max(hist, n), (n, hist, awards)
        assert awards > max(hist, n) - n, (n, hist, awards)  # full: the oldest round's awards dropped, no more
        cleanup()


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(("sicbo", "fish_prawn_crab", "fantan")), st.integers(1, 50))
def test_a_dice_or_fan_tan_round_record_stays_within_its_bound_and_the_bound_within_twice_the_largest(game, hist):
    app = new_app(game, history_len=hist)
    most = {}
    steps = {}
    frames(app, steps)
    for r in range(hist + 2):
        dice_rounds(app, game, 1, most, first=r)
        assert not app.refused and app.controller.round_no == r + 2
    cleanup()
    limit = bounds(app.config.values)
    for name in most:
        assert most[name] <= limit[name], (name, most[name], limit[name])
    assert limit["round"] <= 2 * most["round"], (most["round"], limit["round"])
    # a step's whole frame: the round record's changed keys and the step's entries (tablectl.bound.steps); the
    # dice tables' bound, the whole record beside three entries, is loose (up to 4.3 x at history_len 1): a
    # block's 3,824 bytes hold it twice at history_len 50
    step = bound.steps(app.config.values, {})["round"]
    real = max(steps[name] for name in steps if name != "other")
    assert real <= step <= 5 * real, (steps, step)


def test_caribbean_stud_of_50_rounds_is_refused_and_every_default_configuration_accepted():
    for game in GAMES:
        dev = RamBlockDev(block_size=4096, blocks=16, prog=256)
        Config(Store(Log(dev))).change(0, game=game, language="en")  # the defaults: accepted
        assert Store(Log(dev)).peek("config")["v"]["game"] == game
    dev = RamBlockDev(block_size=4096, blocks=16, prog=256)
    c = Config(Store(Log(dev)))
    c.change(0, game="caribbean_stud")
    try:
        c.change(0, history_len=50)
        raise AssertionError("accepted")
    except ValueError as e:
        assert str(e) == "record 'round' needs 5274 bytes at its largest, a frame of a flash block holds 3804", e
    assert c["history_len"] == DEFAULTS["history_len"]
    assert Store(Log(dev)).peek("config")["v"]["history_len"] == DEFAULTS["history_len"]


def test_the_bound_module_copies_of_the_firmware_constants_agree():
    from tablectl.storage.frame import FHDR, UNIT
    assert bound.KEEP_HITS == meters.KEEP_HITS
    assert bound.END == UNIT and bound.STEP == FHDR + 4  # the checkpoint's end frame as Log._fits counts it
    assert set(PROGRESSIVE) <= set(GAMES)


def _wedge_table(pending):
    """Baccarat A, seven seats, the last hits full, round numbers of eight digits, the clock set: then `pending`
    pool changes (of ten digits) configured to wait for the next hit. (The app, what configure answered.)"""
    big = 10 ** 9
    app = new_app("baccarat_a", hit_cards_cents=0, supervisor="none", seed_cents=100000, limit_cents=MAX_CENTS,
                  fixed_one_pair=big, fixed_two_pairs=big, fixed_three_of_a_kind=big, fixed_four_of_a_kind=big)
    app.clock.set(999999999)  # seconds since 2000: every entry's time of ten digits
    app.controller.round_no = 99990000
    app.controller.save()
    largest(app, "baccarat_a", 7, 4, {})  # 28 paradise straights: the last 25 hits full
    kw = {"fixed_one_pair": big + 1, "fixed_two_pairs": big + 2, "fixed_three_of_a_kind": big + 3,
          "fixed_four_of_a_kind": big + 4, "fixed_paradise_straight": big + 5, "bet_cents": big + 6,
          "rate_bp": 9999, "seed_cents": big + 7, "limit_cents": MAX_CENTS - 1}
    try:
        app.config.change(app.controller.round_no, **dict(sorted(kw.items())[:pending]))
    except ValueError as e:
        return app, str(e)
    return app, ""


def test_pool_changes_whose_settlement_frame_cannot_fit_are_refused_at_configuration_never_a_round_wedged():
    """Issue 20, defect 7: a step's frame carries the round record's changed keys, the step's journal entries and,
    at a hit's settlement, the pending pool changes applied. Main bounded each record alone: nine pool changes
    waiting on a seven-seat baccarat table were accepted, and the settlement's frame (3.9 KB) was then refused at
    every CONFIRM: the round never finished. Either the change is refused when configured, in one line, or every
    round finishes; the way out, fewer changes at a time, is accepted and applied at the next hit."""
    app, why = _wedge_table(9)
    if not why:  # accepted: then the round must finish, with the changes applied
        most = {}
        largest(app, "baccarat_a", 7, 1, most)  # asserts every round ends in betting, nothing refused
        raise AssertionError("9 pool changes accepted and the round finished: the bound refuses what fits")
    assert why == ("a step's frame ('settle', 9 pool changes pending) needs 4379 bytes at its largest, a flash "
                   "block holds 3824"), why
    assert not app.config.pending and app.store.peek("config")["p"] == {}  # nothing written
    cleanup()
    for n in (1, 4):
        app, why = _wedge_table(n)
        assert not why and len(app.config.pending) == n, why
        largest(app, "baccarat_a", 7, 1, {})
        assert not app.config.pending and not app.refused
        cleanup()


def _on_ring(blocks, size, cfg):
    """(an App on a ring of `blocks` flash blocks of `size` bytes configured with `cfg`, '') or (None, why the
    configuration was refused: nothing written)."""
    import board
    from harness.ramblockdev import scratch_dir
    from harness.tables import ROOTS
    from tablectl.app import App
    from tablectl.hw.fileflash import FileFlash
    root = scratch_dir("ctl")
    ROOTS.append(root)
    flash = FileFlash(root + "/flash.bin", blocks=blocks, block_size=size)
    try:
        Config(Store(Log(flash))).change(0, **cfg)
    except ValueError as e:
        assert Store(Log(flash)).peek("config") is None
        return None, str(e)
    return App(board.make(virtual_clock=True, flash=flash), root), ""


def _play_largest(app, game, n, hist):
    """Every record to its largest (the history, the last 25 hits, a shift closed), a round more, then a checkpoint
    of them all; nothing refused."""
    from harness.tables import keyed
    from tablectl import service
    rounds = max(hist + 2, meters.KEEP_HITS // n + 2)
    for k in (rounds, 1):
        if game in PROGRESSIVE:
            largest(app, game, n, k, {})
        else:
            for r in range(k):
                dice_rounds(app, game, 1, {}, first=r)
                assert not app.refused, app.refused
        if k > 1:  # record 'shift': the meters' labels, the pool figures
            service.use(app)
            try:
                keyed(app, service.shift_close)
            finally:
                service.use(None)
    app.log.checkpoint()  # at the records' largest: what the ring keeps for one holds it
    assert not app.refused and app.tilt is None, (app.refused, app.tilt)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from((5, 8, 11, 12)), st.sampled_from((4096, 8192)),
       st.sampled_from(("caribbean_stud", "baccarat_a", "baccarat_b", "sicbo", "fantan")), st.integers(1, 7),
       st.integers(1, 50))
def test_on_a_small_ring_a_configuration_accepted_plays_to_its_largest_records_no_step_or_checkpoint_refused(
        blocks, size, game, n, hist):
    """Issue 20, defect 6: a ring of 5 to 11 blocks keeps one block for a checkpoint (Log.room()), 12 two. The
    configuration is checked against it: accepted, its records at their largest and a checkpoint of them are
    written, nothing refused; else refused in one line, nothing written, the checkpoint's bound past that room
    (or a record's or a step's past a block). Main checked only a block's frame: a progressive's records outgrew
    the checkpoint's room as the history filled, and every step that needed a checkpoint was refused."""
    rounds = max(hist + 2, meters.KEEP_HITS // n + 2)
    big = MAX_CENTS // (4 * rounds * n)
    cfg = dict(game=game, seats=n, history_len=hist, hit_cards_cents=0, supervisor="none", seed_cents=big,
               limit_cents=MAX_CENTS, bet_cents=big // 8, fixed_straight_flush=big, fixed_flush=big,
               fixed_paradise_straight=big, language="en")
    cfg = dict((k, v) for k, v in cfg.items() if k in validate({"game": game}))
    app, why = _on_ring(blocks, size, cfg)
    if why:
        values = validate(cfg)
        usable = size - 256
        room = (blocks - min(8, blocks - 3) - 2) * usable  # Log.room()
        assert "\n" not in why and why.startswith(bound.check(values, {}, usable, 256, room)), why
        if why.startswith("the ring keeps"):
            assert bound.checkpoint(values, {}, 256, 0) > room and not bound.check(values, {}, usable, 256)
            assert why.endswith(")") or why.endswith("flash log"), why  # the way out, or none
        cleanup()
        return
    _play_largest(app, game, n, hist)
    cleanup()


def test_the_smallest_ring_refuses_a_progressive_its_checkpoint_room_cannot_hold_and_takes_one_it_can():
    """The smallest ring the log takes (5 blocks) keeps one block for a checkpoint. On 4 KB blocks no progressive's
    records at their largest fit it (the last 25 hits alone are 1.2 KB beside a 1 KB configuration): baccarat A,
    seven seats, ten-digit amounts, is refused in one line, nothing written. Main took it: once the last hits
    filled, the ring refused the checkpoint a step needed ('the records need ... bytes, more than a ring of 5
    blocks ...') and the round could not finish. On 8 KB blocks history_len 50 is refused, saying the longest
    history that fits; that one plays to its largest, a checkpoint of it written."""
    big = 10 ** 9
    cfg = dict(game="baccarat_a", hit_cards_cents=0, supervisor="none", seed_cents=100000, limit_cents=MAX_CENTS,
               fixed_one_pair=big, fixed_two_pairs=big, fixed_three_of_a_kind=big, fixed_four_of_a_kind=big,
               language="en")
    app, why = _on_ring(5, 4096, cfg)
    if app is not None:  # accepted: then it must play to its largest, round numbers and times of most digits
        app.clock.set(999999999)
        app.controller.round_no = 99990000
        app.controller.save()
        _play_largest(app, "baccarat_a", 7, 20)
        raise AssertionError("accepted, and played")
    assert why == ("the ring keeps 3840 bytes for a checkpoint, the records at their largest need 6912; "
                   "no history_len nor fewer seats fits this flash log"), why
    cleanup()
    cfg = dict(game="baccarat_a", hit_cards_cents=0, supervisor="none", seed_cents=100000, language="en")
    app, why = _on_ring(5, 8192, dict(cfg, history_len=50))
    assert why == ("the ring keeps 7936 bytes for a checkpoint, the records at their largest need 8448; "
                   "configure(history_len=43)"), why
    cleanup()
    app, why = _on_ring(5, 8192, dict(cfg, history_len=43))
    assert not why, why
    _play_largest(app, "baccarat_a", 7, 43)
    cleanup()
