"""tablectl.config: every key's type and range (SB-6.6, FPC-6.10, ...), pool parameters (CSP-10.3, BAC-17.11), pending pool changes."""
# mp-heap: 140K
# (this test module is compiled from source on the unix port, ~30 KB of heap the board never spends)
from harness.ramblockdev import flash_file, remove_dir, scratch_dir
from tablectl import config
from tablectl.config import DEFAULTS, Config, validate
from tablectl.journal import Journal
from tablectl.storage import Log
from tablectl.store import Store, Tilt
from mptest import raises


def test_defaults_validate_and_cover_the_contract_keys():
    cfg = validate({})
    assert cfg == DEFAULTS and cfg is not DEFAULTS
    for key in ("game", "shaker", "shake_ms", "pay_5_16", "pay_6_15", "odd_even_lose_on_triple", "seats",
                "bet_cents", "rate_bp", "seed_cents", "limit_cents", "history_len"):
        assert key in cfg, key
    assert cfg["history_len"] == 20 and cfg["pay_5_16"] == 18 and cfg["pay_6_15"] == 14
    assert cfg["odd_even_lose_on_triple"] is False  # SB-7: the literal reading by default
    assert config.GAMES == ("sicbo", "fish_prawn_crab", "fantan", "caribbean_stud", "fortune3",
                            "baccarat_a", "baccarat_b", "baccarat_c")


def test_pay_5_16_range_SB_6_6_exhaustive():
    for v in range(10, 40):
        if 18 <= v <= 30:
            assert validate({"pay_5_16": v})["pay_5_16"] == v
        else:
            msg = raises(ValueError, validate, {"pay_5_16": v})
            assert "pay_5_16" in msg and "18..30" in msg


def test_pay_6_15_range_SB_6_6_exhaustive():
    for v in range(5, 30):
        if 14 <= v <= 18:
            assert validate({"pay_6_15": v})["pay_6_15"] == v
        else:
            assert "14..18" in raises(ValueError, validate, {"pay_6_15": v})


def test_fish_prawn_crab_totals_fixed_FPC_6_10():
    assert validate({"game": "fish_prawn_crab"})["game"] == "fish_prawn_crab"
    assert "FPC-6.10" in raises(ValueError, validate, {"game": "fish_prawn_crab", "pay_5_16": 20})
    assert "FPC-6.10" in raises(ValueError, validate, {"game": "fish_prawn_crab", "pay_6_15": 15})
    assert "odd/even" in raises(ValueError, validate, {"game": "fish_prawn_crab", "odd_even_lose_on_triple": True})
    assert validate({"game": "sicbo", "pay_5_16": 30, "odd_even_lose_on_triple": True})["pay_5_16"] == 30


def test_types_ranges_and_unknown_keys_are_refused():
    bad = [
        ({"game": "roulette"}, "game"), ({"shaker": "hand"}, "shaker"), ({"seats": 0}, "1..7"),
        ({"seats": 8}, "1..7"), ({"seats": "7"}, "seats"), ({"seats": True}, "seats"),
        ({"shake_ms": 999}, "shake_ms"), ({"shake_ms": 10001}, "shake_ms"), ({"history_len": 0}, "history_len"),
        ({"rate_bp": 0}, "rate_bp"), ({"rate_bp": 10001}, "rate_bp"), ({"bet_cents": 2.5}, "bet_cents"),
        ({"bet_cents": 1 << 30}, "bet_cents"), ({"fixed_flush": -1}, "fixed_flush"),
        ({"odd_even_lose_on_triple": 1}, "True or False"), ({"colour": 1}, "unknown configuration key"),
        ({"seed_cents": 5000, "limit_cents": 4999}, "seed_cents"), ([("game", "sicbo")], "dict"),
    ]
    for cfg, words in bad:
        assert words in raises(ValueError, validate, cfg), (cfg, words)
    assert validate({"seats": 1, "seats": 7})["seats"] == 7
    assert validate({"bet_cents": (1 << 30) - 1, "limit_cents": (1 << 30) - 1})["bet_cents"] == (1 << 30) - 1


def test_validate_never_modifies_its_argument():
    cfg = {"game": "fantan"}
    out = validate(cfg)
    out["seats"] = 3
    assert cfg == {"game": "fantan"} and DEFAULTS["seats"] == 7


def test_pool_params_carry_the_posted_amounts_for_every_progressive_game():
    # every class of every progressive game has its fixed amount key (CSP-10.3: posted on the table),
    # and what the configuration says is what the pool pays
    from tablectl.rules.awards import table as award_table
    for game in config.PROGRESSIVE:
        ids, table, shared = award_table(game)
        cfg = {"game": game, "seed_cents": 100000, "rate_bp": 1234, "limit_cents": 900000}
        for n, cls in enumerate(sorted(table)):
            if "fixed_" + cls in DEFAULTS:
                cfg["fixed_" + cls] = 1000 + n  # distinct amounts, so a mix-up shows
                if game == "baccarat_c" and cls == "five_of_a_kind":
                    cfg["fixed_c_five_of_a_kind"] = 2000 + n  # BAC-17.12: C's is not B's (BAC-17.9)
            else:  # only a baccarat whole-pool award may lack a key (BAC-17.6, BAC-17.10)
                assert table[cls][0] == "pool" and shared, (game, cls)
        params = config.pool_params(validate(cfg))
        assert (params["seed_cents"], params["rate_bp"], params["limit_cents"]) == (100000, 1234, 900000)
        assert params["shared"] == game.startswith("baccarat")  # BAC-17: winners of one award share it
        for code in params["awards"]:
            kind, fixed, bp = params["awards"][code]
            cls = ids[code]
            if kind == "pool" and shared:  # BAC-17.6/17.10: the whole pool, no fixed part
                assert fixed == 0, (game, cls)
            elif (game, cls) == ("baccarat_c", "five_of_a_kind"):
                assert (kind, fixed) == ("none", cfg["fixed_c_five_of_a_kind"])
            else:  # CSP-10.2.1/F3-16.3.1 royal max(fixed, pool); every other class its posted amount
                assert fixed == cfg["fixed_" + cls], (game, cls)
    c = config.pool_params(validate({"game": "baccarat_c", "six_of_a_kind_bp": 2500}))
    six = award_table("baccarat_c")[0].index("six_of_a_kind")
    assert c["awards"][six][0] == "percent" and c["awards"][six][2] == 2500  # BAC-17.11: X% set by the house
    assert "no progressive" in raises(ValueError, config.pool_params, validate({"game": "sicbo"}))


def test_every_fixed_award_of_the_selected_game_needs_an_amount_CSP_10_2_F3_16_3_BAC_17():
    # the regulation pays these hands a fixed amount the casino posts: a table of that game cannot run
    # with 0 there (a dealer could not pay the hand); another game's keys may be 0
    from tablectl.rules.awards import table as award_table
    for game in config.PROGRESSIVE:
        fixed = sorted(c for c, (kind, bp) in award_table(game)[1].items() if kind == "fixed")
        assert fixed, game
        for cls in fixed:
            msg = raises(ValueError, validate, {"game": game, "fixed_" + cls: 0})
            assert msg.startswith("fixed_%s: %s pays" % (cls, game)) and "got 0" in msg, msg
        # every other amount may be 0: other games' classes, max(fixed, x) awards, C's five of a kind (BAC-17.12)
        zeros = dict((k, 0) for k in DEFAULTS if k.startswith("fixed_") and k[6:] not in fixed)
        zeros["game"] = game
        assert validate(zeros)["game"] == game


def test_jackpot_b_five_of_a_kind_amount_does_not_make_c_pay_it_BAC_17_9_BAC_17_12():
    from tablectl.rules.awards import table as award_table
    five = award_table("baccarat_c")[0].index("five_of_a_kind")
    b_five = award_table("baccarat_b")[0].index("five_of_a_kind")
    b_amount = {"fixed_five_of_a_kind": 400000}
    assert config.pool_params(validate(dict(b_amount, game="baccarat_b")))["awards"][b_five][1] == 400000
    assert config.pool_params(validate(dict(b_amount, game="baccarat_c")))["awards"][five][1] == 0
    chosen = config.pool_params(validate(dict(b_amount, game="baccarat_c", fixed_c_five_of_a_kind=700)))
    assert chosen["awards"][five][:2] == ("none", 700)


def fresh(tmp):
    """The store of the flash in folder tmp, as a boot finds it."""
    return Store(Log(flash_file(tmp, 16)))  # a progressive's checkpoint needs 12 blocks or more


def setup(tmp):
    store = fresh(tmp)
    return store, Journal(store.log)


def test_config_persists_and_journals_changes():
    tmp = scratch_dir("cf")
    try:
        store, journal = setup(tmp)
        cfg = Config(store, journal)
        assert cfg["game"] == "sicbo" and store.load("config") is None  # defaults until changed
        applied, deferred = cfg.change(4, pay_5_16=24, seats=5)
        assert applied == {"pay_5_16": 24, "seats": 5} and deferred == {}
        assert store.writes == 1
        # a new table's first configuration is its factory set-up, not a change from values never in force
        assert [r[2:] for r in journal.records(5)] == [("factory_setup", 0, 0, "pay_5_16 24"),
                                                       ("factory_setup", 0, 0, "seats 5")]
        assert [r[1] for r in journal.records(5)] == [4, 4]
        again = Config(fresh(tmp), journal)  # after a reboot
        assert again["pay_5_16"] == 24 and again.get("seats") == 5 and again.pending == {}
        assert cfg.change(5, seats=5) == ({}, {}) and store.writes == 1  # no change, no write
        cfg.change(6, seats=6)  # and every change after it is a reconfiguration, old and new
        assert journal.records(1)[0][2:] == ("config", 0, 0, "seats 5->6")
        booted = fresh(tmp)  # after a reboot too, the journal no longer empty
        Config(booted, Journal(booted.log)).change(7, seats=4)
        assert Journal(booted.log).records(1)[0][2:] == ("config", 0, 0, "seats 6->4")
    finally:
        remove_dir(tmp)


def test_bad_change_changes_nothing():
    tmp = scratch_dir("cf")
    try:
        store, journal = setup(tmp)
        cfg = Config(store, journal)
        cfg.change(1, pay_5_16=20)
        before = dict(cfg.values)
        assert "pay_6_15" in raises(ValueError, cfg.change, 2, pay_5_16=22, pay_6_15=19)
        assert "unknown" in raises(ValueError, cfg.change, 2, sets=3)
        assert "nothing to change" in raises(ValueError, cfg.change, 2)
        assert cfg.values == before and store.writes == 1 and journal.seq == 1
        assert Config(fresh(tmp))["pay_5_16"] == 20
    finally:
        remove_dir(tmp)


def test_pool_changes_wait_for_the_next_hit_on_a_live_progressive():
    tmp = scratch_dir("cf")
    try:
        store, journal = setup(tmp)
        cfg = Config(store, journal)
        cfg.change(1, game="caribbean_stud")  # switching game applies at once
        applied, deferred = cfg.change(2, rate_bp=1500, fixed_flush=9000, seats=6)
        assert applied == {"seats": 6} and deferred == {"fixed_flush": 9000, "rate_bp": 1500}
        assert cfg["rate_bp"] == DEFAULTS["rate_bp"] and cfg.pending == {"fixed_flush": 9000, "rate_bp": 1500}
        flush = cfg.pool_params()["awards"][1]  # class code 1: flush
        assert flush == ("fixed", DEFAULTS["fixed_flush"], 0)  # the posted award still holds
        reboot = Config(fresh(tmp), journal)  # pending survives a power cut
        assert reboot.pending == {"fixed_flush": 9000, "rate_bp": 1500} and reboot["rate_bp"] == DEFAULTS["rate_bp"]
        # pending changes are checked together with what waits: seed above the pending limit is refused
        cfg.change(3, limit_cents=30000000)
        assert "seed_cents" in raises(ValueError, cfg.change, 3, seed_cents=30000001)
        # setting a pending key back to its value cancels it
        assert cfg.change(3, fixed_flush=DEFAULTS["fixed_flush"]) == ({}, {})
        assert cfg.pending == {"rate_bp": 1500, "limit_cents": 30000000}
        assert cfg.apply_pending(9) == {"rate_bp": 1500, "limit_cents": 30000000}
        assert cfg["rate_bp"] == 1500 and cfg.pending == {} and cfg.apply_pending(10) == {}
        events = [r[2] for r in journal.records(20)]
        assert events.count("cfg_applied") == 2 and events.count("cfg_pending") == 4, events  # 2 + limit + the cancel
        last = journal.records(2)
        assert [r[1] for r in last] == [9, 9] and last[0][5] == "limit_cents 200000000->30000000"
        assert Config(fresh(tmp))["rate_bp"] == 1500
    finally:
        remove_dir(tmp)


def test_pool_changes_apply_at_once_without_a_live_pool():
    tmp = scratch_dir("cf")
    try:
        store, journal = setup(tmp)
        cfg = Config(store, journal)
        assert cfg.change(1, rate_bp=900) == ({"rate_bp": 900}, {})  # sic bo: no pool running
        cfg.change(2, game="fortune3")
        cfg.change(3, rate_bp=1200)
        assert cfg.pending == {"rate_bp": 1200}
        # leaving the progressive game: what was waiting applies with the switch
        applied, deferred = cfg.change(4, game="fantan")
        assert applied == {"game": "fantan", "rate_bp": 1200} and deferred == {} and cfg.pending == {}
    finally:
        remove_dir(tmp)


def test_a_record_saved_by_an_older_firmware_still_loads_and_keeps_paying_the_same():
    """Before this firmware, jackpot B's five of a kind defaulted to 0 and jackpot C paid its five of a kind
    from B's key: such a record loads (no tilt), C keeps its amount, and a B table's next change must post
    the amount BAC-17.9 asks for."""
    tmp = scratch_dir("cf")
    try:
        old = dict(DEFAULTS)
        del old["fixed_c_five_of_a_kind"]
        store, journal = setup(tmp)
        store.save("config", {"v": dict(old, game="baccarat_b", fixed_five_of_a_kind=0), "p": {}})
        cfg = Config(store, journal)
        assert cfg["fixed_five_of_a_kind"] == 0 and cfg["fixed_c_five_of_a_kind"] == 0
        writes = store.writes
        assert raises(ValueError, cfg.change, 0, seats=6).startswith("fixed_five_of_a_kind: baccarat_b pays")
        assert store.writes == writes and cfg["seats"] == DEFAULTS["seats"]
        applied, deferred = cfg.change(0, seats=6, fixed_five_of_a_kind=900000)
        assert applied == {"seats": 6} and deferred == {"fixed_five_of_a_kind": 900000}  # a live pool (CSP-10.3)
        store.save("config", {"v": dict(old, game="baccarat_c", fixed_five_of_a_kind=300000), "p": {}})
        c = Config(store, journal)
        assert c["fixed_c_five_of_a_kind"] == 300000  # what C paid before, from B's key
        store.save("config", {"v": dict(old, game="baccarat_b", fixed_five_of_a_kind=300000), "p": {}})
        assert Config(store, journal)["fixed_c_five_of_a_kind"] == 0  # only a C table carries it over
    finally:
        remove_dir(tmp)


def test_corrupt_or_invalid_config_record_tilts():
    tmp = scratch_dir("cf")
    try:
        store, journal = setup(tmp)
        store.save("config", {"v": {"pay_5_16": 31}, "p": {}})  # valid CRC, invalid value
        assert "pay_5_16" in raises(Tilt, Config, fresh(tmp))
        store.save("config", {"v": {}, "p": {"seats": 3}})  # only pool parameters may wait
        assert "pool parameter" in raises(Tilt, Config, fresh(tmp))
        store.save("config", {"values": {}})
        assert "config" in raises(Tilt, Config, fresh(tmp))
        store.clear("config")
        assert Config(fresh(tmp)).values == DEFAULTS
    finally:
        remove_dir(tmp)


def test_pool_params_after_the_pending_changes_CSP_10_3():
    tmp = scratch_dir("cf")
    try:
        store, journal = setup(tmp)
        cfg = Config(store, journal)
        cfg.change(1, game="caribbean_stud")
        cfg.change(2, limit_cents=20000000, seed_cents=1000000, fixed_flush=9000)
        now, after = cfg.pool_params(), cfg.pool_params(after=True)
        assert (now["limit_cents"], now["seed_cents"]) == (DEFAULTS["limit_cents"], DEFAULTS["seed_cents"])
        assert (after["limit_cents"], after["seed_cents"]) == (20000000, 1000000)
        assert now["awards"][1] == ("fixed", DEFAULTS["fixed_flush"], 0)  # class code 1: flush
        assert after["awards"][1] == ("fixed", 9000, 0)
        assert cfg.pending and cfg["limit_cents"] == DEFAULTS["limit_cents"]  # asking changed nothing
        cfg.apply_pending(3)
        assert cfg.pool_params() == after == cfg.pool_params(after=True)
    finally:
        remove_dir(tmp)


def test_each_game_shows_the_keys_it_reads():
    """keys_for(game), what service.config() lists: exhaustive over the games and the award keys, a fixed
    amount (or C's six-of-a-kind percentage, BAC-17.11) is shown exactly when changing it changes the
    game's pool awards; the shaker keys only on the dice tables (SB-2.1), the SB-6.6 pays and the SB-7
    option only on sic bo (FPC-6.10 fixes fish-prawn-crab's), the pool keys only on a progressive table."""
    only = {"shake_ms": "sicbo fish_prawn_crab", "shaker": "sicbo fish_prawn_crab", "pay_5_16": "sicbo",
            "pay_6_15": "sicbo", "odd_even_lose_on_triple": "sicbo", "game": "", "history_len": "", "language": "",
            "log_file_ok": ""}
    for game in config.GAMES:
        keys = config.keys_for(game)
        assert keys == sorted(keys), keys
        base = validate({"game": game})
        awards = config.pool_params(base)["awards"] if game in config.PROGRESSIVE else None
        for key in DEFAULTS:
            if key in only:
                shown = not only[key] or game in only[key].split()
            elif key.startswith("fixed_") or key == "six_of_a_kind_bp":
                shown = awards is not None and config.pool_params(dict(base, **{key: base[key] + 1}))["awards"] != awards
            else:  # seats, bet_cents, rate_bp, seed_cents, limit_cents
                shown = awards is not None
            assert (key in keys) == shown, (game, key)
