"""Progressive jackpot controller (CSP Art. 10-11, F3-15/17, BAC-13/17) through handle() and the seat sensors:
lock and contributions counted once, hits entered on the keypad and checked against the cards, payment
order, void rounds carrying the bets, pending pool changes after a hit, power cuts in every state."""
# mp-heap: 356K
from mptest import raises
from harness.progressive import balanced, hit, keys, locked, seats
from harness.tables import cleanup, drive, new_app, restart, state_of
from tablectl.config import DEFAULTS
from tablectl.games.hitentry import label, pays, short

BET = 2500   # config defaults: bet_cents, rate_bp (20%) -> 500 cents a bet
SEED = 25000000


def hitentry_cards(digits):
    from tablectl.games.hitentry import typed_cards
    return typed_cards(digits)


def test_sensors_lit_while_betting_then_frozen_by_lock_CSP_6_3_F3_10_3():
    for game in ("caribbean_stud", "fortune3"):
        app = new_app(game)
        c, b = app.controller, app.board
        seats(app, 1, 3)
        assert set(b.lit()) == {"seat_1", "seat_3"} and b.display.lines[1].startswith("BETS 2")
        assert drive(app, "LOCK") == [True]
        assert c.state == "locked" and c.status()["locked"] == [1, 3]
        assert c.pool.pool == SEED + 2 * BET * 2000 // 10000 and app.meters.bets == 2  # CSP-10.1
        seats(app, 2, 5)  # chips moved after the lock (the first card dealt) change nothing
        assert set(b.lit()) == {"seat_1", "seat_3"} and c.status()["locked"] == [1, 3]
        assert c.pool.contributed == 1000 and balanced(c.pool)
        cleanup()


def test_jackpot_digits_count_up_to_the_new_pool_CSP_1_4_F3_2_2():
    # the electronic display of the progressive jackpot is this controller's
    for game in ("caribbean_stud", "fortune3"):
        app = new_app(game)
        c = app.controller
        c.animate(0)
        assert app.board.snapshot()["jackpot"] == "250000.00"
        seats(app, 1, 2, 3, 4, 5, 6, 7)
        drive(app, "LOCK")
        shown = []
        for _ in range(60):
            c.animate(0)
            shown.append(app.board.jackpot_bus.text())
        values = [int(s.replace(".", "").strip()) for s in shown]
        assert values[0] > SEED and values == sorted(values) and values[-1] == SEED + 3500
        assert len(set(values)) > 2  # it counted, it did not jump
        cleanup()


def jackpot(app):
    """The cents the jackpot digits show (the sim board's MAX7219 read back)."""
    return int(app.board.jackpot_bus.text().replace(".", "").strip())


def figures(app, passes=60):
    """The figures the jackpot digits show over `passes` passes of the display task, each change once."""
    out = []
    for _ in range(passes):
        app.controller.animate(0)
        shown = jackpot(app)
        if not out or out[-1] != shown:
            out.append(shown)
    return out


def test_jackpot_digits_after_a_hit_show_the_award_then_the_pool_never_rising_from_below():
    """A flush (fixed 1250.00, below the pool) is paid: the digits show the award, then at once the pool
    as it stands after the payment (CSP-10.8); the next lock counts up from there by the new contributions
    only. A royal takes the pool: award, then the reseed at once (CSP-10.2.1)."""
    app = locked("caribbean_stud", 2, 3)
    c = app.controller
    figures(app)
    hit(app, 2, 1)  # seat 2, class 1: flush
    drive(app, "CONFIRM")
    assert figures(app) == [DEFAULTS["fixed_flush"]]  # the award while paying
    pool = c.pool.pool
    drive(app, "CONFIRM")  # paid: back to betting
    assert figures(app) == [pool]  # at once: no count up from the award to the pool
    seats(app, 1, 2, 3, 4, 5, 6, 7)
    drive(app, "LOCK")
    shown = figures(app)
    assert shown[0] > pool and shown == sorted(shown) and shown[-1] == pool + 7 * 500, shown  # CSP-10.1
    assert len(shown) > 2  # it counted, it did not jump
    hit(app, 4, 5)  # seat 4, class 5: royal flush, the whole pool
    drive(app, "CONFIRM")
    assert figures(app) == [c.awards[0][2]]
    drive(app, "CONFIRM")
    assert figures(app) == [SEED]  # the reseeded pool, at once
    cleanup()


def test_betting_lamp_lit_while_betting_is_open_and_a_void_shows():
    """The betting-open lamp (SB-2.2's lamp, on every board) follows the progressive betting state: lit
    until LOCK (CSP-6.3), dark while locked and paying, lit again for the next round, after a void and
    after a power cut in betting. A void shows 'ROUND n VOID' and is listed in the history."""
    app = new_app("caribbean_stud")
    lamp = app.board.betting_pin.value
    assert lamp() == 1
    seats(app, 1)
    drive(app, "LOCK")
    assert lamp() == 0 and app.board.display.lines[1] == "HITS 0 CONFIRM"
    drive(app, "VOID_LONG", "ENTER")  # CSP-11.1 (kind 1): the bet carries to the next round
    assert lamp() == 1 and app.board.display.lines[0] == "ROUND 1 VOID"
    assert app.controller.history() == [(1, "void")]
    drive(app, "LOCK", "CONFIRM")
    assert lamp() == 1
    app = restart(app)
    assert app.board.betting_pin.value() == 1
    seats(app, 1)  # a new board: its sensors read the chip again
    assert drive(app, "LOCK") == [True]
    app = restart(app)
    assert app.board.betting_pin.value() == 0  # resumed locked
    assert app.board.display.lines == ["POWER RESTORED", "RETYPE HIT ENTRY"]  # a hit half typed is lost
    cleanup()


def test_refusals_change_nothing():
    app = new_app("caribbean_stud")
    before = state_of(app)
    # no bets on the table; a hit or a confirm before the lock; a void with nothing locked
    for ev in ("LOCK", "HIT", "CONFIRM", "VOID_LONG", "1", "ENTER", "SHAKE", "BELL"):
        assert drive(app, ev) == [False], ev
        assert state_of(app) == before, ev
    seats(app, 2)
    drive(app, "LOCK")
    before = state_of(app)
    assert drive(app, "LOCK", "1", "ENTER") == [False, False, False]
    assert drive(app, "HIT", "1", "ENTER") == [True, True, False]  # seat 1 has no bet
    assert app.controller.message == "NO BET SEAT 1"
    assert drive(app, "HIT", "CONFIRM") == [False, False]  # a hit half entered: finish or clear it
    assert drive(app, "CLEAR", "CLEAR") == [True, True] and app.controller.step == ""
    assert state_of(app) == before
    cleanup()


def test_hit_with_cards_that_make_another_class_is_refused_CSP_10_2():
    app = locked("caribbean_stud", 4)
    before = state_of(app)
    # seat 4, class 5 (royal flush), cards Ks Qs Js Ts 9s: a straight flush, not a royal
    keys(app, "H4E5E")
    assert keys(app, "131121111101091E")[-1] is False
    assert app.controller.message == "HAND STR FLUSH"  # what the cards make, by name
    assert state_of(app) == before and app.controller.hits == []
    assert app.controller.entry == "131121111101091"  # what was typed stays, to be put right
    assert keys(app, "XXXXX141131121111101E")[-1] is True  # each CLEAR a card back, then As Ks Qs Js Ts
    assert app.controller.step == "super" and app.board.display.lines == ["TOP AWARD", "SUPERVISOR KEY"]
    assert keys(app, "E") == [False] and app.controller.message == "TURN THE KEY"
    app.board.set_service_key(True)  # the supervisor's key, the second person a top award takes
    assert keys(app, "E") == [True]
    app.board.set_service_key(False)
    # card = rank index (2 -> 0 .. A -> 12) * 4 + suit (spades 0): As 48, Ks 44, Qs 40, Js 36, Ts 32
    assert app.controller.hits == [[4, "royal_flush", [48, 44, 40, 36, 32]]]
    cleanup()


def test_straight_flush_paid_before_royal_and_pool_restarts_CSP_10_7_CSP_10_8():
    # the royal on the lower seat and keyed first: only the class order (CSP-10.7) pays the straight
    # flush first; seats from the dealer's left (CSP-10.4) or the keying order would pay the royal first
    app = locked("caribbean_stud", 1, 3)
    c = app.controller
    pool = SEED + 1000
    assert hit(app, 1, 5)  # seat 1 royal flush, no cards
    assert hit(app, 3, 4)  # seat 3 straight flush
    assert drive(app, "CONFIRM") == [True] and c.state == "paying"
    sf = max(2500000, pool // 10)             # CSP-10.2.2: 25001000 // 10 = 2500100
    royal = max(25000000, pool - sf)          # CSP-10.2.1, after the straight flush: 22500900 < the fixed
    assert (sf, royal) == (2500100, 25000000)  # a royal paid first would be 25001000, then 2500000
    assert c.awards == [[3, "straight_flush", sf], [1, "royal_flush", royal]]
    assert app.board.display.lines == ["S3 STR FLUSH", "PAY 25001.00"]
    c.animate(0)
    assert app.board.jackpot_bus.text() == " 25001.00"  # the award, as the MAX7219 got it
    assert c.pool.pool == SEED and balanced(c.pool)  # emptied, restarted from the seed
    assert app.meters.hits == {"straight_flush": 1, "royal_flush": 1}
    assert drive(app, "CONFIRM") == [True] and app.board.display.lines == ["S1 ROYAL FLUSH", "PAY 250000.00"]
    assert drive(app, "CONFIRM") == [True] and c.state == "betting" and c.round_no == 2
    # the history: the round's hits as paid, the second marked as the same round's
    assert drive(app, "HISTORY", "HISTORY") == [True, True] and app.board.display.lines == ["HISTORY 2/2", "+S1 ROYAL FLUSH"]
    paid = [(r[3], r[4], r[5]) for r in app.journal.records(4) if r[2] == "pay"]
    assert paid == [(3, sf, "straight_flush"), (1, royal, "royal_flush")]  # the journal, in paying order
    assert [r[2] for r in app.journal.records(4)] == ["hit_in", "pay", "pay", "confirm"]
    cleanup()


def test_a_voids_enter_draws_its_notice_and_never_first_the_prompt_it_covers():
    """A draw builds a prompt and sends both lines: the void's ENTER drew the next round's prompt and at once
    the notice over it, a draw for nothing (Caribbean Stud's void ENTER 4% over its instruction goal)."""
    app = locked("caribbean_stud", 2, 6)
    d = app.board.display
    drive(app, "VOID_LONG")
    sent = []
    text = d.text
    d.text = lambda row, s: sent.append((row, s)) or text(row, s)
    assert drive(app, "ENTER") == [True]
    d.text = text
    assert d.lines[0] == "ROUND 1 VOID" and [s for row, s in sent if row == 0] == ["ROUND 1 VOID"] * 2, sent
    cleanup()


def test_void_carries_locked_bets_counted_once_CSP_11_1():
    app = locked("caribbean_stud", 2, 6)
    c = app.controller
    hit(app, 2, 1)
    assert drive(app, "VOID_LONG", "ENTER") == [True, True]
    assert c.state == "betting" and c.round_no == 2 and c.hits == [] and app.meters.voids == 1
    assert c.status()["carried"] == [2, 6] and c.busy()  # configure waits for the carried bets
    seats(app, 2, 6, 7)  # the carried chips stay, seat 7 bets now
    drive(app, "LOCK")
    assert c.pool.contributed == 3 * 500 and app.meters.bets == 3  # seats 2 and 6 not counted again
    assert c.status()["locked"] == [2, 6, 7]
    assert drive(app, "CONFIRM") == [True] and not c.busy()
    cleanup()


def test_pool_changes_wait_for_the_next_hit():
    app = new_app("caribbean_stud")
    c = app.controller
    applied, deferred = app.config.change(c.round_no, rate_bp=1000)
    assert deferred == {"rate_bp": 1000} and app.config["rate_bp"] == 2000
    seats(app, 1)
    drive(app, "LOCK", "CONFIRM")  # a round without a hit: still the old rate
    seats(app, 1)
    drive(app, "LOCK")
    assert c.pool.contributed == 1000
    hit(app, 1, 1)  # a flush
    drive(app, "CONFIRM")
    assert app.config["rate_bp"] == 1000 and app.config.pending == {} and c.pool.rate_bp == 1000
    drive(app, "CONFIRM")
    seats(app, 1)
    drive(app, "LOCK")
    assert c.pool.contributed == 1250 and balanced(c.pool)
    cleanup()


def test_fortune3_hit_checks_three_plus_two_cards_F3_15_1():
    app = locked("fortune3", 5)
    # player 9h 9d 9s + community 9c 2s: four of a kind (class 3)
    assert keys(app, "H5E3E092094091093021E")[-1] is True
    assert app.controller.hits[0][1] == "four_of_a_kind"
    cleanup()


def test_baccarat_b_shared_award_and_cards_BAC_17_9():
    app = locked("baccarat_b", 1, 2)
    c = app.controller
    # four of a rank in the coup, both hands a natural 8: 4s 4h 4c 4d (P, B, P, B) -> 'four' (class 2 of
    # scheme B); the coup is entered once and every locked seat makes it (BAC-17.9: split between them)
    assert keys(app, "H041042043044E") == [True] * 14 and c.step == ""
    assert c.hits == [[1, "four", [8, 9, 10, 11]], [2, "four", []]]  # the coup's cards once
    assert drive(app, "HIT") == [True]  # no seat to ask: the coup's cards
    drive(app, "CLEAR")
    drive(app, "CONFIRM")
    half = DEFAULTS["fixed_four"] // 2  # the fixed amount split equally between the winners (BAC-17.9)
    assert c.awards == [[1, "four", half], [2, "four", half]]
    assert balanced(c.pool)
    cleanup()


def test_power_cut_in_every_state_resumes_with_bets_counted_once():
    for state in ("betting_carried", "locked", "paying"):
        app = new_app("caribbean_stud")
        seats(app, 1, 4)
        drive(app, "LOCK")
        hit(app, 4, 2)  # a full house entered
        if state == "betting_carried":
            drive(app, "VOID_LONG", "ENTER")
        elif state == "paying":
            hit(app, 1, 1)
            drive(app, "CONFIRM", "CONFIRM")  # showing the second award
        c = app.controller
        rec = c.record()
        app2 = restart(app)
        c2 = app2.controller
        assert c2.record() == rec and app2.meters.bets == 2 and c2.pool.contributed == 1000
        assert balanced(c2.pool)
        if state == "locked":
            assert c2.state == "locked" and drive(app2, "LOCK") == [False]
            assert c2.hits == [[4, "full_house", [7, 4, 5, 15, 12]]] and set(app2.board.lit()) == {"seat_1", "seat_4"}
        if state == "betting_carried":
            assert c2.status()["carried"] == [1, 4]
            seats(app2, 1, 4)
            drive(app2, "LOCK")
            assert c2.pool.contributed == 1000  # not contributed twice
        if state == "paying":
            assert c2.state == "paying" and c2.shown_award == 1
            assert app2.board.display.lines[0] == "S4 FULL HOUSE"
        app = app2 = c = c2 = None  # both boots are garbage before the next state's table is built
        cleanup()


def test_history_lists_each_round_with_its_hits():
    app = new_app("caribbean_stud")
    seats(app, 2)
    drive(app, "LOCK", "CONFIRM", "LOCK", "CONFIRM")
    seats(app, 2, 6)
    drive(app, "LOCK")
    hit(app, 6, 2)  # full house on seat 6
    drive(app, "CONFIRM", "CONFIRM")
    fixed_full_house = 187500  # the configuration's posted amount (CSP-10.2.4)
    assert app.controller.history() == [(1, ()), (2, ()), (3, ((6, "full_house", fixed_full_house),))]
    drive(app, "HISTORY")
    assert app.board.display.lines == ["HISTORY 1/2", "S6 FULL HOUSE"]  # newest first: no other fits beside it
    drive(app, "HISTORY")
    assert app.board.display.lines == ["HISTORY 2/2", "NO HIT / NO HIT"]  # two rounds, apart at a glance
    assert restart(app).controller.history() == app.controller.history()
    cleanup()


def events(app, n=40):
    return [r[2] for r in app.journal.records(n)]


def lowered_limit_hit(app):
    """The tester's case: seed 10,000.00 and limit 200,000.00 wait for the next hit, then seat 1's flush
    (CSP-10.2.5, fixed 1,250.00 from the pool, CSP-10.8) is settled."""
    c = app.controller
    applied, deferred = app.config.change(c.round_no, seed_cents=1000000, limit_cents=20000000)
    assert applied == {} and deferred == {"limit_cents": 20000000, "seed_cents": 1000000}
    seats(app, 1)
    drive(app, "LOCK")
    assert hit(app, 1, 1)
    assert drive(app, "CONFIRM") == [True] and c.state == "paying"


def test_lowered_limit_applies_after_the_hit_excess_to_reserve_CSP_10_8():
    app = new_app("caribbean_stud")
    lowered_limit_hit(app)
    c = app.controller
    pool = SEED + 500 - 125000  # 248,755.00 after the flush: above the new 200,000.00 limit
    assert app.config["limit_cents"] == 20000000 and app.config.pending == {}
    assert (c.pool.limit, c.pool.seed) == (20000000, 1000000)  # config and pool agree
    assert (c.pool.pool, c.pool.reserve) == (20000000, pool - 20000000) and balanced(c.pool)
    moved = [r for r in app.journal.records(20) if r[2] == "pool_to_reserve"]
    assert [(r[3], r[4]) for r in moved] == [(pool - 20000000, pool - 20000000)]
    assert "cfg_error" not in events(app)
    app2 = restart(app)  # the next boot: no tilt, the same pool
    c2 = app2.controller
    assert app2.tilt is None and c2.state == "paying" and c2.pool.state() == c.pool.state()
    assert drive(app2, "CONFIRM") == [True]
    app2.config.change(c2.round_no, seats=6)  # a change that applies at once rebuilds the controller
    app2.config_changed({"seats": 6})
    c3 = app2.controller
    assert app2.tilt is None and c3.pool.state() == c.pool.state()
    # the pool stands at its limit, so the next bet's 5.00 goes to the reserve; the reserve funds
    # the restart after a royal empties the pool (the pool's overflow rule)
    seats(app2, 1)
    drive(app2, "LOCK")
    hit(app2, 1, 5)
    drive(app2, "CONFIRM")
    p = c3.pool
    assert (p.pool, p.reserve) == (1000000, pool - 20000000 + 500 - 1000000) and balanced(p)
    app = app2 = c = c2 = c3 = p = None
    cleanup()


def cut_after_a_hit_with_a_lower_limit_pending():
    """A Caribbean Stud table with a lower limit and seed pending (limit 20,000.00, seed 10,000.00) whose
    power goes right after a flush hit's record is saved, before the change applies: (app, controller)."""
    app = new_app("caribbean_stud")
    c = app.controller
    app.config.change(c.round_no, limit_cents=20000000, seed_cents=1000000)
    seats(app, 1)
    drive(app, "LOCK")
    hit(app, 1, 1)
    c.apply_pending = lambda: None
    drive(app, "CONFIRM")
    return app, c


def test_power_cut_before_the_change_applies_leaves_it_pending_CSP_10_3():
    app, c = cut_after_a_hit_with_a_lower_limit_pending()
    app2 = restart(app)
    c2 = app2.controller
    assert app2.tilt is None and app2.config.pending == {"limit_cents": 20000000, "seed_cents": 1000000}
    assert c2.pool.limit == 200000000 and c2.pool.pool == SEED + 500 - 125000 and balanced(c2.pool)
    drive(app2, "CONFIRM")
    seats(app2, 1)
    drive(app2, "LOCK")
    hit(app2, 1, 1)
    drive(app2, "CONFIRM")  # late, never early: the next hit applies it
    assert app2.config.pending == {} and c2.pool.limit == 20000000 and c2.pool.pool == 20000000
    assert balanced(c2.pool)
    app = app2 = c = c2 = None
    cleanup()


def test_power_cut_between_config_and_pool_records_boots_into_the_new_limit():
    app, c = cut_after_a_hit_with_a_lower_limit_pending()
    app.config.apply_pending(c.round_no)  # the config record is written, the pool's is not
    before = c.pool.state()
    app2 = restart(app)
    p = app2.controller.pool
    assert app2.tilt is None and p.limit == 20000000
    assert (p.pool, p.reserve) == (20000000, before[0] - 20000000) and balanced(p)
    assert "pool_to_reserve" in events(app2)
    assert restart(app2).controller.pool.state() == p.state()  # saved: moved once, journalled once
    assert events(app2).count("pool_to_reserve") == 1
    app = app2 = c = p = None
    cleanup()


def test_busy_says_why_carried_bets_hold_the_table_CSP_11_1():
    from tablectl import service
    app = new_app("caribbean_stud")
    c = app.controller
    assert c.busy() == ""
    seats(app, 2, 5)
    drive(app, "LOCK")
    assert c.busy() == "round 1 in progress (state locked); finish or void it first"
    drive(app, "VOID_LONG", "ENTER")
    why = "bets carried from void round 1 (seats 2, 5) wait for the next round: lock and confirm it first"
    assert c.busy() == why and c.status()["busy"] is True
    service.use(app)
    app.board.set_service_key(True)  # the technician's key on: the table being busy is what refuses
    app.tick()  # (and seen: its key_on journalled before the calls)
    try:
        writes, seq = app.store.writes, app.journal.seq
        for call, what in ((service.configure, "configure"), (service.lamp_test, "lamp_test"),
                           (service.ram_clear, "ram_clear")):
            args = {"seats": 6} if what == "configure" else {}
            assert raises(ValueError, call, **args) == what + " refused: " + why
        assert app.config["seats"] == 7 and (app.store.writes, app.journal.seq) == (writes, seq)
    finally:
        service.use(None)
        app.board.set_service_key(False)
    assert drive(app, "VOID_LONG") == [False]  # the refusal told the truth: nothing to void
    seats(app, 2, 5)
    drive(app, "LOCK", "CONFIRM")  # the carried bets' round, as the refusal said
    assert c.busy() == "" and not c.status()["busy"]
    cleanup()


def paying_two_awards(app):
    seats(app, 1, 4)
    drive(app, "LOCK")
    hit(app, 1, 1)
    hit(app, 4, 2)
    assert drive(app, "CONFIRM") == [True] and app.controller.state == "paying"


def test_lock_while_paying_says_paying_and_confirm_clears_the_message():
    app = new_app("caribbean_stud")
    c = app.controller
    paying_two_awards(app)
    before = state_of(app)
    for ev in ("LOCK", "HIT", "VOID_LONG"):
        assert drive(app, ev) == [False] and c.message == "PAYING: CONFIRM", ev
    assert state_of(app) == before
    assert drive(app, "CONFIRM") == [True] and c.shown_award == 1 and c.message == ""
    assert c.status()["message"] == ""
    cleanup()


def test_baccarat_c_five_of_a_kind_pays_nothing_and_is_refused_BAC_17_12():
    app = locked("baccarat_c", 1)
    c = app.controller
    before = state_of(app)
    # class 4 = five_of_a_kind: BAC-13.1.4.4.C.3 lists it, Art. 17 gives jackpot C no award
    five = "031022023024021022"  # 3s, then five 2s (P B P B, the player's third, the banker's)
    assert keys(app, "H" + five + "E")[-1] is False
    assert c.message == "HAND: NO AWARD" and c.hits == [] and c.entry == five  # kept to be fixed
    drive(app, *["CLEAR"] * 7)  # six cards taken back one by one, then the hit
    assert state_of(app) == before
    assert raises(ValueError, c.coup, hitentry_cards(five)) == "HAND: NO AWARD"
    assert keys(app, "H031022023024031032E")[-1] is True  # two threes (BAC-17.12) is paid
    assert c.hits[0][1] == "two_threes"
    cleanup()


def test_baccarat_b_five_of_a_kind_pays_its_posted_amount_BAC_17_9():
    # a B table cannot be configured without the amount (config.validate), so the hit is always paid
    app = locked("baccarat_b", 1, fixed_five_of_a_kind=700000)
    assert keys(app, "H031022023024021022E")[-1] is True and drive(app, "CONFIRM") == [True]
    assert app.controller.awards == [[1, "five_of_a_kind", 700000]]
    cleanup()


def test_card_refusals_fit_the_16_column_display():
    app = locked("caribbean_stud", 4)
    c = app.controller
    keys(app, "H4E5E")  # royal flush, then Ks Qs Js Ts 9s: a straight flush (class 4)
    assert keys(app, "131121111101091E")[-1] is False and c.message == "HAND STR FLUSH"
    assert keys(app, "XXXXX141141121111101E")[-1] is False and c.message == "CARD As TWICE"
    assert keys(app, "XXXXX141131121111E")[-1] is False and c.message == "NEED 5 CARDS"
    assert keys(app, "XXXX092093094021032E")[-1] is False and c.message == "NO WINNING HAND"
    assert keys(app, "XXXXX14113112111110E")[-1] is False and c.message == "CARD 5: 3 DIGITS"
    assert keys(app, "0E")[-1] is False and c.message == "CARD 5 IS BAD"  # 100: suit 1-4, not 0
    cleanup()


def test_every_prompt_and_award_line_fits_16_columns():
    for game in ("caribbean_stud", "fortune3", "baccarat_a", "baccarat_b", "baccarat_c"):
        app = new_app(game)
        c = app.controller
        seats(app, 7)
        drive(app, "LOCK", "HIT")
        poker = not c.by_coup
        if poker:
            drive(app, "7", "ENTER")
        for n in range(1, len(c.classes) + 1):
            cls = c.classes[n - 1]
            name = cls.replace("_", " ").upper()
            assert label(cls) in (name, name.replace("STRAIGHT", "STR")) and len(label(cls)) <= 16
            if poker:
                c.entry = str(n)
                assert c.prompt() == ("S7 CLASS %d" % n, label(cls))
            c.state, c.awards = "paying", [[7, cls, (1 << 30) - 1]]  # the largest amount a meter holds
            assert c.prompt() == ("S7 " + short(cls), "PAY 10737418.23") and len(c.prompt()[0]) <= 16
            c.state = "locked"
        shorts = [short(cls) for cls in c.classes]
        assert len(set(shorts)) == len(shorts)  # no two classes of a game read alike
        if game == "caribbean_stud":  # whole words, never a word cut in two
            assert shorts == ["FLUSH", "FULL HOUSE", "4 OF A KIND", "STR FLUSH", "ROYAL FLUSH"]
        if game == "baccarat_c":
            assert shorts == ["THREE", "FOUR", "TWO THREES", "5 OF A KIND", "6 OF A KIND", "6 SAME COLOUR"]
        c = None
        cleanup()


def test_the_coup_prompt_names_the_next_card_BAC_7_1():
    app = new_app("baccarat_a")
    c = app.controller
    seats(app, 7)
    drive(app, "LOCK", "HIT")
    shown = []
    for n in range(7):
        c.entry = "141" * n + "1"  # a card being typed is the one the prompt names
        shown.append(c.prompt()[0])
    assert shown == ["COUP: PLAYER", "COUP: BANKER", "COUP: PLAYER", "COUP: BANKER", "COUP: 3RD CARD?",
                     "COUP: 3RD CARD?", "COUP: ENTER"]
    c.entry = "141" * 6
    assert c.prompt() == ("COUP: ENTER", "6: As As As ")
    c = None
    cleanup()


def test_pays_is_false_exactly_for_an_award_a_hit_of_which_pays_0_BAC_17_12():
    from tablectl.rules import awards
    from tablectl.rules.pool import MAX_CENTS, Pool
    # every class of every game, each amount 0 or not: pays() against what settle() actually pays
    for game in awards.GAMES:
        ids, table, shared = awards.table(game)
        for amount in (0, 1234):
            fixed = dict((cid, amount) for cid in table if table[cid][0] in ("fixed", "none"))
            pct = {"six_of_a_kind": amount} if game == "baccarat_c" else None
            cfg = awards.config_for(game, 100000, 0, MAX_CENTS, fixed, pct)
            for code in range(1, len(ids)):
                p = Pool(**cfg)
                paid = pays(cfg["awards"][code])
                got = p.settle([(1, code)])
                assert paid == (got[0][2] > 0), (game, ids[code], amount)
                if game == "baccarat_c" and ids[code] == "five_of_a_kind":
                    assert paid == (amount > 0)  # kind 'none': BAC-17.12 gives it none unless one is set


def test_a_pool_record_that_does_not_balance_tilts_with_a_readable_line():
    app = new_app("caribbean_stud")
    rec = app.controller.record()
    pool = list(rec["pool"])
    pool[0] += 1  # one cent more in the pool than its meters account for
    rec["pool"] = pool
    app.store.save("round", rec)
    app2 = restart(app)
    assert app2.tilt.startswith("pool record bad: (") and app2.board.display.lines[1] == "RECORD DAMAGED"
    assert app2.controller.status()["why"] == app2.tilt  # the whole reason, for the technician
    app = app2 = None
    cleanup()
