"""Progressive jackpot controller (CSP Art. 10-11, F3-15/17, BAC-13/17) through handle() and the seat sensors:
lock and contributions counted once, hits entered on the keypad and checked against the cards, payment
order, void rounds carrying the bets, pending pool changes after a hit, power cuts in every state."""
# mp-heap: 216K
from test_ctl_app import cleanup, drive, new_app, restart, state_of

BET = 2500   # config defaults: bet_cents, rate_bp (20%) -> 500 cents a bet
SEED = 25000000


def seats(app, *on):
    for s in range(1, 8):
        app.board.set_seat(s, s in on)
    app.tick()


def keys(app, text):
    """Type a string of keys: digits, H for HIT, E for ENTER."""
    return [app.controller.handle({"E": "ENTER", "H": "HIT"}.get(ch, ch)) for ch in text]


def balanced(pool):
    return pool.pool + pool.reserve + pool.paid == pool.seeded + pool.contributed


def test_sensors_lit_while_betting_then_frozen_by_lock_CSP_6_3():
    app = new_app("caribbean_stud")
    c, b = app.controller, app.board
    seats(app, 1, 3)
    assert set(b.lit()) == {"seat_1", "seat_3"} and b.display.lines[1].startswith("BETS 2")
    assert drive(app, "LOCK") == [True]
    assert c.state == "locked" and c.status()["locked"] == [1, 3]
    assert c.pool.pool == SEED + 2 * BET * 2000 // 10000 and app.meters.bets == 2  # CSP-10.1
    seats(app, 2, 5)  # chips moved after the lock change nothing
    assert set(b.lit()) == {"seat_1", "seat_3"} and c.status()["locked"] == [1, 3]
    assert c.pool.contributed == 1000 and balanced(c.pool)
    cleanup()


def test_jackpot_digits_count_up_to_the_new_pool():
    app = new_app("caribbean_stud")
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
    app = new_app("caribbean_stud")
    seats(app, 4)
    drive(app, "LOCK")
    before = state_of(app)
    # seat 4, class 5 (royal flush), cards Ks Qs Js Ts 9s: a straight flush, not a royal
    keys(app, "H4E5E")
    assert keys(app, "131121111101091E")[-1] is False
    assert app.controller.message == "CARDS: STRAIGHT_"
    assert state_of(app) == before and app.controller.hits == []
    assert keys(app, "141131121111101E")[-1] is True  # As Ks Qs Js Ts
    # card = rank index (2 -> 0 .. A -> 12) * 4 + suit (spades 0): As 48, Ks 44, Qs 40, Js 36, Ts 32
    assert app.controller.hits == [[4, "royal_flush", [48, 44, 40, 36, 32]]]
    cleanup()


def test_straight_flush_paid_before_royal_and_pool_restarts_CSP_10_7_CSP_10_8():
    app = new_app("caribbean_stud")
    c = app.controller
    seats(app, 1, 3)
    drive(app, "LOCK")
    pool = SEED + 1000
    assert keys(app, "H3E5EE") == [True] * 6  # seat 3 royal flush, no cards
    assert keys(app, "H1E4EE") == [True] * 6  # seat 1 straight flush
    assert drive(app, "CONFIRM") == [True] and c.state == "paying"
    sf = max(2500000, pool // 10)             # CSP-10.2.2
    royal = max(25000000, pool - sf)          # CSP-10.2.1, after the straight flush
    assert c.awards == [[1, "straight_flush", sf], [3, "royal_flush", royal]]
    assert app.board.display.lines[0] == "WIN SEAT 1"
    c.animate(0)
    assert app.board.jackpot_bus.text() == " 25001.00"  # the award, as the MAX7219 got it
    assert c.pool.pool == SEED and balanced(c.pool)  # emptied, restarted from the seed
    assert app.meters.hits == {"straight_flush": 1, "royal_flush": 1}
    assert drive(app, "CONFIRM") == [True] and app.board.display.lines[0] == "WIN SEAT 3"
    assert drive(app, "CONFIRM") == [True] and c.state == "betting" and c.round_no == 2
    assert [r[2] for r in app.journal.records(4)] == ["hit_in", "pay", "pay", "confirm"]
    cleanup()


def test_void_carries_locked_bets_counted_once_CSP_11_1():
    app = new_app("caribbean_stud")
    c = app.controller
    seats(app, 2, 6)
    drive(app, "LOCK")
    keys(app, "H2E1EE")
    assert drive(app, "VOID_LONG") == [True]
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
    keys(app, "H1E1EE")  # a flush
    drive(app, "CONFIRM")
    assert app.config["rate_bp"] == 1000 and app.config.pending == {} and c.pool.rate_bp == 1000
    drive(app, "CONFIRM")
    seats(app, 1)
    drive(app, "LOCK")
    assert c.pool.contributed == 1250 and balanced(c.pool)
    cleanup()


def test_fortune3_hit_checks_three_plus_two_cards_F3_15_1():
    app = new_app("fortune3")
    seats(app, 5)
    drive(app, "LOCK")
    # player 9h 9d 9s + community 9c 2s: four of a kind (class 3)
    assert keys(app, "H5E3E092094091093021E")[-1] is True
    assert app.controller.hits[0][1] == "four_of_a_kind"
    cleanup()


def test_baccarat_b_shared_award_and_cards_BAC_17_9():
    app = new_app("baccarat_b")
    c = app.controller
    seats(app, 1, 2)
    drive(app, "LOCK")
    # four of a rank in the coup: 5s 5h 5c 5d (P, B, P, B) -> 'four' (class 2 of scheme B)
    assert keys(app, "H1E2E051052053054E")[-1] is True
    assert keys(app, "H2E2EE")[-1] is True
    drive(app, "CONFIRM")
    half = 500000 // 2  # the fixed amount split equally between the winners (BAC-17.9)
    assert c.awards == [[1, "four", half], [2, "four", half]]
    assert balanced(c.pool)
    cleanup()


def test_power_cut_in_every_state_resumes_with_bets_counted_once():
    for state in ("betting_carried", "locked", "paying"):
        app = new_app("caribbean_stud")
        seats(app, 1, 4)
        drive(app, "LOCK")
        keys(app, "H4E2EE")  # a full house entered
        if state == "betting_carried":
            drive(app, "VOID_LONG")
        elif state == "paying":
            keys(app, "H1E1EE")
            drive(app, "CONFIRM", "CONFIRM")  # showing the second award
        c = app.controller
        rec = c.record()
        app2 = restart(app)
        c2 = app2.controller
        assert c2.record() == rec and app2.meters.bets == 2 and c2.pool.contributed == 1000
        assert balanced(c2.pool)
        if state == "locked":
            assert c2.state == "locked" and drive(app2, "LOCK") == [False]
            assert c2.hits == [[4, "full_house", []]] and set(app2.board.lit()) == {"seat_1", "seat_4"}
        if state == "betting_carried":
            assert c2.status()["carried"] == [1, 4]
            seats(app2, 1, 4)
            drive(app2, "LOCK")
            assert c2.pool.contributed == 1000  # not contributed twice
        if state == "paying":
            assert c2.state == "paying" and c2.shown_award == 1
            assert app2.board.display.lines[0] == "WIN SEAT 4"
        app = app2 = c = c2 = None  # both boots are garbage before the next state's table is built
        cleanup()


def test_history_lists_each_round_with_its_hits():
    app = new_app("caribbean_stud")
    seats(app, 2)
    drive(app, "LOCK", "CONFIRM")
    seats(app, 2, 6)
    drive(app, "LOCK")
    keys(app, "H6E2EE")  # full house on seat 6
    drive(app, "CONFIRM", "CONFIRM")
    fixed_full_house = 187500  # the configuration's posted amount (CSP-10.2.4)
    assert app.controller.history() == [(1, ()), (2, ((6, "full_house", fixed_full_house),))]
    drive(app, "HISTORY")
    assert app.board.display.lines[1] == "S6FH -"  # newest first
    assert restart(app).controller.history() == app.controller.history()
    cleanup()
