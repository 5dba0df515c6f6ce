"""A jackpot hit is the round's cards (issue 21): one deck's cards unique across seats, cards required for
the pool's awards, the supervisor for the top award, a baccarat coup for every locked seat, Fortune 3's
community cards the round's, corrections journalled, and each void kind as its article says."""
# mp-heap: 336K
from mptest import raises
from harness.tables import cleanup, drive, restart, state_of
from harness.progressive import balanced, hand, hit, keys, locked, seats
from tablectl.games.hitentry import typed_cards

CLASSES = ("flush", "full_house", "four_of_a_kind", "straight_flush", "royal_flush")


def journal(app, event, n=30):
    return [r[3:] for r in app.journal.records(n) if r[2] == event]


def test_the_same_cards_on_two_seats_are_refused_naming_the_seat_CSP_1_F3_2_1():
    """Every class x every ordered pair of seats: seat b's hit with seat a's cards is refused (one deck,
    CSP-1: a card is dealt once a round), naming seat a; nothing changes; b's own hand then stands."""
    app = locked("caribbean_stud", 1, 2, 3, 4, 5, 6, 7, supervisor="none")
    c = app.controller
    for n in range(1, 6):
        for a in range(1, 8):
            for b in range(1, 8):
                if a == b:
                    continue
                c.hits = []
                c.hit(a, CLASSES[n - 1], typed_cards(hand(a, n)))
                before = state_of(app)
                why = raises(ValueError, c.hit, b, CLASSES[n - 1], typed_cards(hand(a, n)))
                assert why == "CARD %s SEAT %d" % (_name(hand(a, n)), a), (n, a, b, why)
                assert state_of(app) == before
    cleanup()


def _name(digits):
    from tablectl.rules import cards
    return cards.name(typed_cards(digits)[0])


def test_issue_case_two_royals_from_one_deck_CSP_1_F3_2_1():
    app = locked("caribbean_stud", 3, 5)
    c = app.controller
    app.board.set_service_key(True)  # the supervisor's key, ready for both
    assert keys(app, "H3E5E141131121111101EE")[-1] is True
    before = state_of(app)
    assert keys(app, "H5E5E141131121111101E")[-1] is False  # seat 3's As Ks Qs Js Ts again
    assert c.message == "CARD As SEAT 3" and state_of(app) == before
    assert c.entry == "141131121111101"  # kept, to be put right
    app.board.set_service_key(False)
    cleanup()


def test_pool_awards_need_their_cards_and_the_class_comes_from_them_CSP_10_2():
    app = locked("caribbean_stud", 1, 2)
    c = app.controller
    # a royal (the whole pool) on the dealer's word: refused (issue 21, item 2)
    assert keys(app, "H1E5EE")[-1] is False and c.message == "TYPE THE CARDS" and c.hits == []
    drive(app, "CLEAR", "CLEAR", "CLEAR")
    # a flush's 1,250.00 is above hit_cards_cents' 1,000.00: its cards too
    assert raises(ValueError, c.hit, 1, "flush") == "TYPE THE CARDS"
    # no class typed: the cards say (a straight flush, keypad class 4)
    assert keys(app, "H2EE" + hand(2, 4) + "E") == [True] * 20 and c.hits[0][:2] == [2, "straight_flush"]
    cleanup()
    app = locked("caribbean_stud", 1, 2, hit_cards_cents=150000)
    c = app.controller
    c.hit(1, "flush")  # 1,250.00 below the key: the dealer's word
    assert raises(ValueError, c.hit, 2, "full_house") == "TYPE THE CARDS"  # 1,875.00
    assert raises(ValueError, c.hit, 2, "straight_flush") == "TYPE THE CARDS"  # 10% of the pool
    cleanup()
    app = locked("caribbean_stud", 1, hit_cards_cents=1000000000)  # above any fixed amount: still
    assert raises(ValueError, app.controller.hit, 1, "straight_flush") == "TYPE THE CARDS"
    cleanup()


def test_the_top_award_takes_the_supervisor_key_or_code_journalled():
    app = locked("caribbean_stud", 1)
    c = app.controller
    royal = typed_cards(hand(1, 5))
    assert raises(ValueError, c.hit, 1, "royal_flush", royal) == "TURN THE KEY"
    assert raises(ValueError, c.hit, 1, "royal_flush", royal, "key") == "TURN THE KEY"  # not turned
    app.board.set_service_key(True)
    c.hit(1, "royal_flush", royal, "key")
    app.board.set_service_key(False)
    assert journal(app, "supervisor") == [(1, 0, "call key royal_flush")]
    c.hit(1, "straight_flush", typed_cards(hand(1, 4)))  # a correction; not the top award: no one
    cleanup()
    app = locked("caribbean_stud", 1, supervisor="code", supervisor_code=4711)
    c = app.controller
    assert keys(app, "H1E5E" + hand(1, 5) + "E")[-1] is True and c.step == "super"
    assert app.board.display.lines == ["SUPERVISOR CODE", "_"]
    assert keys(app, "4712E")[-1] is False and c.message == "WRONG CODE" and c.hits == []
    assert app.board.display.lines[0] == "SUPERVISOR CODE"
    assert keys(app, "X4711") == [True] * 5 and app.board.display.lines[1] == "****"
    assert keys(app, "E") == [True] and c.hits[0][1] == "royal_flush"
    assert journal(app, "supervisor") == [(1, 0, "keypad code royal_flush")]
    assert all("4711" not in str(r) for r in app.journal.records(40))  # the code is never journalled
    cleanup()
    app = locked("caribbean_stud", 1, supervisor="none")
    assert hit(app, 1, 5) and journal(app, "supervisor") == []  # no second person asked
    cleanup()


def test_a_supervisor_code_is_required_for_code_mode():
    from tablectl.config import validate
    assert raises(ValueError, validate, {"supervisor": "code"}).startswith("supervisor_code: 'code' needs")
    assert validate({"supervisor": "code", "supervisor_code": 1000})["supervisor"] == "code"


ROYAL_COUP = "101111121131141022"  # Ts Js Qs Ks, the player's third As, the banker's 2h (BAC-9)


def test_baccarat_coup_is_entered_once_and_every_locked_seat_wins_it_BAC_17_6():
    for scheme in "abc":
        app = locked("baccarat_" + scheme, 2, 6, supervisor="none")
        c = app.controller
        assert keys(app, "H" + ROYAL_COUP + "E")[-1] is (scheme == "a")  # B/C: no class in this coup
        if scheme == "a":
            assert [h[:2] for h in c.hits] == [[2, "royal"], [6, "royal"]]
            pool = c.pool.pool
            drive(app, "CONFIRM")
            assert c.awards == [[2, "royal", pool // 2], [6, "royal", pool // 2]]  # BAC-17.6: split
            assert balanced(c.pool)
        else:
            assert c.message == "NO WINNING HAND"
        cleanup()
    # six of a rank: B's whole pool (BAC-17.6), C's max(fixed, X%) (BAC-17.11), split between seats 2, 6
    for scheme, cls in (("b", "six_of_a_kind"), ("c", "six_of_a_kind"), ("c", "six_same_colour")):
        app = locked("baccarat_" + scheme, 2, 6, supervisor="none")
        c = app.controller
        six = "021023021023021023" if cls == "six_same_colour" else "021022021022021022"
        assert keys(app, "H" + six + "E")[-1] is True and [h[1] for h in c.hits] == [cls, cls]
        drive(app, "CONFIRM")
        assert c.awards[0][2] == c.awards[1][2] > 0 and [a[0] for a in c.awards] == [2, 6]
        cleanup()


def test_baccarat_coup_follows_the_drawing_rules_BAC_9():
    app = locked("baccarat_a", 1)
    c = app.controller
    assert keys(app, "H101111121131E")[-1] is False  # the player's 0 draws: a fifth card is due
    assert c.message == "NEED 5 CARDS"
    assert keys(app, "XXXX041042043044022E")[-1] is False and c.message == "NEED 4 CARDS"  # naturals
    assert raises(ValueError, c.hit, 1, "one_pair") == "ENTER THE COUP"
    cleanup()


def test_fortune3_community_cards_are_the_rounds_F3_11_3():
    app = locked("fortune3", 1, 4, supervisor="none")
    c = app.controller
    # the issue's case: seat 1 Qs Js Ts + As Ks (royal), seat 4 9s 8s 7s + 6s 5s
    assert keys(app, "H1E5E121111101141131E")[-1] is True
    assert app.board.display.lines[0] == "LOCKED 1 4"
    assert keys(app, "H4E4E091081071061051E")[-1] is False and c.message == "COMMUNITY As Ks"
    assert app.board.display.lines[0] == "S4 3 CARDS+AsKs"  # the round's community cards, typed once
    assert keys(app, "XXXXX091081")[-1] is True and c.entry == "091081"
    assert keys(app, "121E")[-1] is False and c.message == "CARD Qs SEAT 1"  # one 52-card deck
    assert keys(app, "X071E")[-1] is False and c.message == "HAND FLUSH"  # 9s 8s 7s As Ks: a flush
    assert keys(app, "XXXXE")  # back to the class, none typed: the cards say
    assert keys(app, "091081071E")[-1] is True and c.hits[1][:2] == [4, "flush"]
    assert c.hits[1][2][3:] == c.hits[0][2][3:]  # the round's community cards
    assert raises(ValueError, c.hit, 4, "flush", typed_cards("021031071061051")) == "COMMUNITY As Ks"
    assert raises(ValueError, c.hit, 4, "flush", typed_cards("021031")) == "NEED 3 CARDS"
    cleanup()


def test_a_second_hit_on_a_seat_corrects_the_first_journalled_with_what_it_replaced():
    app = locked("caribbean_stud", 2, supervisor="none")
    c = app.controller
    assert hit(app, 2, 1)
    assert hit(app, 2, 2)
    assert [h[:2] for h in c.hits] == [[2, "full_house"]]
    assert journal(app, "hit_fix") == [(2, 0, "was flush 2h 4h 6h 8h Th")]
    drive(app, "CONFIRM")
    assert c.awards == [[2, "full_house", 187500]]
    cleanup()


def test_clear_goes_back_a_step_and_a_hit_is_abandoned_only_from_the_seat():
    app = locked("caribbean_stud", 2)
    c = app.controller
    keys(app, "H2E1E1410")
    assert keys(app, "X") == [True] and c.entry == "141" and c.step == "cards"  # the card being typed
    assert keys(app, "X") == [True] and c.entry == "" and c.step == "cards"  # the last whole card
    assert keys(app, "X") == [True] and c.step == "class"  # an empty field: back one step
    assert keys(app, "X") == [True] and c.step == "seat"
    assert keys(app, "X") == [True] and c.step == "" and c.hits == []
    cleanup()


def void_at(game, kind, *seats_on):
    app = locked(game, *seats_on)
    c = app.controller
    assert drive(app, "VOID_LONG", str(kind)) == [True, True]
    return app, c


def test_void_kinds_carry_or_return_the_progressive_bets_F3_17_3_BAC_10():
    cases = (("caribbean_stud", 1, "CSP-11.1", False), ("caribbean_stud", 2, "CSP-11.4", False),
             ("fortune3", 1, "F3-17.1.1", False), ("fortune3", 2, "F3-17.1.2", True),
             ("fortune3", 3, "F3-17.1.3", True), ("fortune3", 4, "F3-17.2", False),
             ("baccarat_a", 1, "BAC-10", True), ("baccarat_c", 1, "BAC-10", True))
    for game, kind, article, returned in cases:
        app = new_table(game)
        c = app.controller
        before = c.pool.state()
        seats(app, 2, 5)
        drive(app, "LOCK")
        assert drive(app, "VOID_LONG", str(kind)) == [True, True]
        assert app.board.display.lines[0] == "VOID %d/%d ENTER" % (kind, len(c.void_kinds()))
        assert drive(app, "ENTER") == [True] and c.state == "betting" and app.meters.voids == 1
        word = " bets returned" if returned else " bets carried"
        assert journal(app, "void_kind") == [(kind, int(returned), article + word)], game
        assert balanced(c.pool)
        if returned:  # every bet goes back, the progressive's too: its contribution taken back
            assert c.pool.state() == before and c.status()["carried"] == [] and not c.busy()
            assert set(app.board.lit()) == set()
        else:
            assert c.status()["carried"] == [2, 5] and c.pool.contributed == 1000
            assert set(app.board.lit()) >= {"seat_2", "seat_5"}
        cleanup()


def new_table(game):
    from harness.tables import new_app
    return new_app(game)


def test_a_returning_void_after_a_carrying_one_returns_both_rounds_bets_across_a_power_cut():
    app = new_table("fortune3")
    before = app.controller.pool.state()
    seats(app, 2)
    drive(app, "LOCK", "VOID_LONG", "4", "ENTER")  # F3-17.2: seat 2's bet kept for the next round
    app = restart(app)
    seats(app, 2, 3)
    drive(app, "LOCK")
    assert app.controller.pool.contributed == 1000  # seat 2 not counted again
    app = restart(app)
    assert drive(app, "VOID_LONG", "2", "ENTER") == [True] * 3  # F3-17.1.2: both returned
    assert app.controller.pool.state() == before and app.controller.status()["carried"] == []
    cleanup()


def test_void_choice_refuses_other_keys_and_clear_keeps_the_round():
    app = locked("fortune3", 2)
    c = app.controller
    before = state_of(app)
    drive(app, "VOID_LONG")
    assert drive(app, "5", "CONFIRM", "HIT") == [False] * 3 and c.message == "VOID: 1-4 ENTER"
    assert drive(app, "CLEAR") == [True] and c.state == "locked" and state_of(app) == before
    cleanup()
