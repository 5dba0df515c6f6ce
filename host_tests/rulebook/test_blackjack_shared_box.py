"""Blackjack shared boxes (BJ-20 同門搭注): the shared_box options, who decides a box under each BJ-20.1
procedure (exhaustive over small boxes), refusals, the round engine refusing anyone but the decider
(BJ-20.1, 20.2), and the pro-rata settlement, exact, with hypothesis properties."""
import itertools
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from rulebook import cli
from rulebook.blackjack import game as bj
from rulebook.blackjack.round import Round, Seat
from rulebook.blackjack.shared import Bettor, box_decider, card_holder, settle_shared
from rulebook.cards import Shoe, parse_cards
from rulebook.errors import RuleError


def shoe(text):
    return Shoe(decks=6, cards=parse_cards(text))


def opts_for(scheme, cap=3):
    return bj.options({"shared_box": scheme, "shared_box_max_bettors": cap})


def box(stakes, seat=None, distances=None):
    """Bettors p0, p1, ... with these stakes; bettor `seat` is seated; distances to the dealer if given."""
    return [Bettor("p%d" % i, s, i == seat, None if distances is None else distances[i])
            for i, s in enumerate(stakes)]


# ---- options ------------------------------------------------------------------------------------
def test_shared_box_is_off_by_default_BJ_20_1():
    # every BJ-20.1 procedure needs DICJ permission (Art. 21), so no procedure can be assumed
    opts = bj.options(None)
    assert opts["shared_box"] == "none"
    assert opts["shared_box_max_bettors"] == 3
    assert bj.OPTIONS["shared_box"].choices == ("none", "seated", "nearest_dealer", "highest_stake")


@pytest.mark.parametrize("value", ["1", "2", "3"])
def test_the_manager_may_lower_the_cap_BJ_20_1_2(value):
    assert bj.options({"shared_box_max_bettors": value})["shared_box_max_bettors"] == int(value)


@pytest.mark.parametrize("key, value", [("shared_box_max_bettors", "4"), ("shared_box_max_bettors", "0"),
                                        ("shared_box_max_bettors", "two"), ("shared_box", "all"),
                                        ("shared_box", "Seated")])
def test_bad_shared_box_options_are_refused_BJ_20_1_2(key, value):
    with pytest.raises(RuleError, match=key):
        bj.options({key: value})


def test_cli_lists_the_shared_box_options(capsys):
    assert cli.main(["options", "blackjack"]) in (0, None)
    out = capsys.readouterr().out
    assert "shared_box = none" in out and "BJ-20.1" in out
    assert "shared_box_max_bettors = 3" in out and "BJ-20.1.2" in out
    assert cli.main(["bets", "blackjack", "--set", "shared_box_max_bettors=4"]) == 2
    assert "shared_box_max_bettors" in capsys.readouterr().err


def test_shared_box_options_leave_the_strategy_alone():
    assert bj.strategy_for(bj.options(None)) is bj.strategy_for(opts_for("highest_stake", 2))


# ---- who decides: each procedure against the article text ------------------------------------------
SCHEMES = ("none", "seated", "nearest_dealer", "highest_stake")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("seated", [True, False])
def test_a_box_with_one_bettor_is_that_bettors_BJ_20_1(scheme, seated):
    # Art. 20 speaks of two or more bettors on a box; a lone bettor, even standing (BJ-3.4), decides
    assert box_decider([Bettor("ann", 5, seated)], scheme) == 0


def test_no_procedure_no_shared_box_BJ_20_1():
    with pytest.raises(RuleError, match="DICJ permission"):
        box_decider(box([5, 5], seat=0), "none")


def every_box(max_n=4, stakes=(1, 2, 3)):
    for n in range(2, max_n + 1):
        for stake_row in itertools.product(stakes, repeat=n):
            for seat in (None,) + tuple(range(n)):
                yield list(stake_row), seat


def test_the_seated_player_decides_BJ_20_1_1():
    """'when two or more players bet on the same box, the seated player decides for that round':
    whatever the stakes; with nobody seated the procedure has no decider."""
    for stakes, seat in every_box():
        bettors = box(stakes, seat)
        if seat is None:
            with pytest.raises(RuleError, match="BJ-20.1.1"):
                box_decider(bettors, "seated")
        else:
            assert box_decider(bettors, "seated") == seat


def test_the_highest_stake_decides_ties_to_the_seated_player_BJ_20_1_3():
    """'the highest bettor decides the whole round ... with equal stakes the seated player decides'."""
    for stakes, seat in every_box():
        bettors = box(stakes, seat)
        highest = [i for i, s in enumerate(stakes) if s == max(stakes)]
        if len(highest) == 1:
            assert box_decider(bettors, "highest_stake") == highest[0]   # seated or not
        elif seat is not None:
            assert box_decider(bettors, "highest_stake") == seat
        else:
            with pytest.raises(RuleError, match="BJ-20.1.3.*no bettor is seated"):
                box_decider(bettors, "highest_stake")


def test_equal_stakes_go_to_the_seated_player_BJ_20_1_3():
    # the text's own case, all stakes equal; and the Interpretation: a top tie the seated player is not in
    assert box_decider(box([4, 4, 4], seat=2), "highest_stake") == 2
    assert box_decider(box([1, 4, 4], seat=0), "highest_stake") == 0
    # a single highest stake beats the seated player; the seated player still holds the cards
    bettors = box([2, 9, 4], seat=0)
    assert box_decider(bettors, "highest_stake") == 1
    assert card_holder(bettors) == 0


def test_stakes_compare_exactly_BJ_20_1_3():
    bettors = [Bettor("a", F(10, 3), True), Bettor("b", F(333, 100))]
    assert box_decider(bettors, "highest_stake") == 0
    assert box_decider([Bettor("a", F(6, 2)), Bettor("b", 3, True)], "highest_stake") == 1   # 6/2 == 3: tie


def test_seated_first_then_nearest_the_dealer_at_most_three_BJ_20_1_2():
    """'at most three players per box (the manager may lower this); the seated player, or the bettor
    nearest the dealer, decides about the cards' (Interpretation: the seated player first)."""
    for n in (2, 3, 4):
        for seat in (None,) + tuple(range(n)):
            for distances in itertools.product((0, 1, 2), repeat=n):
                for cap in (1, 2, 3):
                    bettors = box([1] * n, seat, distances)
                    nearest = [i for i, d in enumerate(distances) if d == min(distances)]
                    if n > cap:
                        with pytest.raises(RuleError, match="BJ-20.1.2: at most %d" % cap):
                            box_decider(bettors, "nearest_dealer", cap)
                    elif seat is not None:
                        assert box_decider(bettors, "nearest_dealer", cap) == seat
                    elif len(nearest) == 1:
                        assert box_decider(bettors, "nearest_dealer", cap) == nearest[0]
                    else:
                        with pytest.raises(RuleError, match="equally near"):
                            box_decider(bettors, "nearest_dealer", cap)


def test_nearest_needs_the_distances_only_when_nobody_is_seated_BJ_20_1_2():
    assert box_decider(box([1, 2, 3], seat=1), "nearest_dealer") == 1
    with pytest.raises(RuleError, match="distance of 'p0', 'p2' is not given"):
        box_decider([Bettor("p0", 1), Bettor("p1", 1, False, 3), Bettor("p2", 1)], "nearest_dealer")


def test_the_three_bettor_cap_is_procedure_2s_only_BJ_20_1_2():
    five = box([1, 2, 3, 4, 5], seat=0)
    assert box_decider(five, "seated", 2) == 0
    assert box_decider(five, "highest_stake", 1) == 4


def test_card_holder_is_the_seated_player_else_the_dealer_BJ_20_1_3_BJ_3_4():
    assert card_holder(box([1, 1, 1], seat=2)) == 2
    assert card_holder(box([1, 5])) is None          # all standing: only the dealer holds cards


@pytest.mark.parametrize("bettors, words", [
    ([], "at least one bettor"),
    ([Bettor("a", 1), Bettor("a", 2)], "appears twice"),
    ([Bettor("a", 0)], "positive"),
    ([Bettor("a", -1)], "positive"),
    ([Bettor("a", True)], "positive"),
    ([Bettor("a", 1.5)], "positive"),
    ([Bettor("a", 1, "yes")], "seated must be"),
    ([Bettor("a", 1, True), Bettor("b", 1, True)], "one seat"),
    ([Bettor("a", 1, False, -1)], "distance"),
    ([Bettor("a", 1, False, 0.5)], "distance"),
    ([Bettor(["a"], 1)], "hashable"),
    ([("a",)], "a bettor is"),
])
def test_bad_bettors_are_refused(bettors, words):
    for scheme in SCHEMES:
        with pytest.raises(RuleError, match=words):
            box_decider(bettors, scheme)


@pytest.mark.parametrize("scheme, cap, words", [("random", 3, "unknown shared-box"), ("seated", 4, "at most 3"),
                                                ("seated", 0, "at most 3"), ("seated", True, "at most 3")])
def test_bad_procedure_or_cap_is_refused(scheme, cap, words):
    with pytest.raises(RuleError, match=words):
        box_decider(box([1, 2], seat=0), scheme, cap)


def test_bettors_may_be_plain_tuples():
    assert box_decider([("a", 1, True), ("b", 7)], "highest_stake") == 1
    assert box_decider([("a", 1, False, 2), ("b", 1, False, 0)], "nearest_dealer") == 1


# ---- settlement ---------------------------------------------------------------------------------
def test_settle_shared_is_pro_rata_and_exact_BJ_20():
    # a Blackjack (3:2 per unit) shared by stakes 1, 2 and 1/3
    assert settle_shared(F(3, 2), {"a": 1, "b": 2, "c": F(1, 3)}) == {"a": F(3, 2), "b": F(3), "c": F(1, 2)}
    assert settle_shared(-1, [5, 7]) == [F(-5), F(-7)]
    assert settle_shared(0, [3]) == [0]


@pytest.mark.parametrize("net, stakes, words", [
    (1, {}, "at least one"), (1, [0], "positive"), (1, {"a": -2}, "positive"), (1, [True], "positive"),
    (0.5, [1], "net per unit"), ("1", [1], "net per unit"), (1, [1.0], "positive"),
])
def test_settle_shared_refuses_bad_input(net, stakes, words):
    with pytest.raises(RuleError, match=words):
        settle_shared(net, stakes)


stake = st.one_of(st.integers(1, 10 ** 6), st.fractions(min_value=F(1, 100), max_value=1000))


@settings(max_examples=200, deadline=None)
@given(net=st.fractions(min_value=-8, max_value=8), stakes=st.lists(stake, min_size=1, max_size=6))
def test_bettors_nets_add_up_to_the_boxs_net_BJ_20(net, stakes):
    shares = settle_shared(net, stakes)
    assert sum(shares) == net * sum(stakes)
    assert all(share == net * s for share, s in zip(shares, stakes))


# ---- the round engine ---------------------------------------------------------------------------
def state(rnd):
    return (rnd.shoe.pos, rnd.current, [[list(h.cards) for h in s.hands] for s in rnd.seats],
            [s.insurance for s in rnd.seats], [[h.stake for h in s.hands] for s in rnd.seats])


def test_only_the_decider_plays_a_shared_box_and_all_share_the_result_BJ_20_1_3_BJ_20_2():
    # ann (seated, 2), bob (5), cat (1) on box 0; dan alone on box 1. Box 0: 5+6 v 6; box 1: T+8
    opts = opts_for("highest_stake")
    seats = [Seat.shared([("ann", 2, True), ("bob", 5), ("cat", 1)]), Seat.shared([("dan", 3, True)])]
    rnd = Round(opts, shoe("5s,Ts,6h,6d,8c,Tc,Th,9c"), seats)
    assert rnd.decider(0) == "bob" and rnd.decider(1) == "dan"
    before = state(rnd)
    for by, words in (("ann", "'bob'.*BJ-20.1"), ("cat", "'bob'.*BJ-20.1"), ("dan", "BJ-20.2"),
                      ("zed", "BJ-20.2"), (None, "name the player")):
        assert not rnd.can_double(by) and rnd.legal(by) == []
        with pytest.raises(RuleError, match=words):
            rnd.double(by)
        assert state(rnd) == before
    assert rnd.legal("bob") == ["hit", "stand", "double", "surrender"]
    rnd.double("bob")                        # 5+6+T = 21 on 16 units
    assert rnd.current == (1, 0)
    with pytest.raises(RuleError, match="BJ-20.2"):
        rnd.stand("bob")                     # bob has no bet on box 1
    rnd.stand("dan")
    rnd.dealer_play()                        # 6 + T + 9: bust
    assert rnd.settle() == [{"main": F(16)}, {"main": F(3)}]
    # each bettor on box 0 doubled with the box and won: twice the stake
    assert rnd.settle_bettors(0) == {"ann": {"main": F(4)}, "bob": {"main": F(10)}, "cat": {"main": F(2)}}
    assert rnd.settle_bettors(1) == {"dan": {"main": F(3)}}


def test_insurance_and_even_money_are_the_deciders_too_BJ_20_1_1():
    opts = opts_for("seated")
    rnd = Round(opts, shoe("Ts,Ah,9d,Kc"), [Seat.shared([("ann", 3, True), ("bob", 1)])])
    assert not rnd.can_insure(0, 2, by="bob")
    with pytest.raises(RuleError, match="'ann'"):
        rnd.insure(0, 2, by="bob")
    assert rnd.seats[0].insurance == 0
    rnd.insure(0, 2, by="ann")               # half of the box's 4 units
    rnd.stand("ann")
    rnd.dealer_play()                        # A + K: Blackjack
    assert rnd.settle_bettors(0) == {"ann": {"main": F(-3), "insurance": F(3)},
                                     "bob": {"main": F(-1), "insurance": F(1)}}

    rnd = Round(opts, shoe("As,Th,Kd,7c"), [Seat.shared([("ann", 1, True), ("bob", 1)])])
    with pytest.raises(RuleError, match="'ann'"):
        rnd.even_money(0, by="bob")
    rnd.even_money(0, by="ann")
    rnd.dealer_play()
    assert rnd.settle_bettors(0) == {"ann": {"main": F(1)}, "bob": {"main": F(1)}}


@pytest.mark.parametrize("scheme, cap, bettors, words", [
    ("none", 3, [("ann", 1, True), ("bob", 1)], "box 0: this table takes one bettor"),
    ("seated", 3, [("ann", 1), ("bob", 1)], "box 0: BJ-20.1.1"),
    ("nearest_dealer", 3, [("a", 1, True), ("b", 1), ("c", 1), ("d", 1)], "box 0: BJ-20.1.2: at most 3"),
    ("nearest_dealer", 2, [("a", 1, True), ("b", 1), ("c", 1)], "box 0: BJ-20.1.2: at most 2"),
    ("highest_stake", 3, [("a", 2), ("b", 2)], "box 0: BJ-20.1.3"),
])
def test_a_round_refuses_an_invalid_shared_box_before_dealing(scheme, cap, bettors, words):
    deal = shoe("2s,3s,4s,5s")
    with pytest.raises(RuleError, match=words):
        Round(opts_for(scheme, cap), deal, [Seat.shared(bettors)])
    assert deal.pos == 0


def test_bad_shared_seats_are_refused():
    with pytest.raises(RuleError, match="added up"):
        Seat(5, bettors=[("a", 2), ("b", 2)])
    with pytest.raises(RuleError, match="side bets on a shared box"):
        Seat.shared([("a", 1, True), ("b", 1)], {"any_pair": 1})
    rnd = Round(bj.options(None), shoe("Ts,9h,Qd,8c"), [Seat(1)])
    with pytest.raises(RuleError, match="not named"):
        rnd.stand("ann")                     # an unnamed box cannot check who asks
    rnd.stand()
    rnd.dealer_play()
    with pytest.raises(RuleError, match="not named"):
        rnd.settle_bettors(0)


def test_a_lone_named_bettor_keeps_a_side_bet():
    rnd = Round(bj.options(None), shoe("8s,9h,8d,Tc"), [Seat.shared([("ann", 2)], {"any_pair": 1})])
    rnd.stand("ann")
    rnd.dealer_play()
    assert rnd.settle_bettors(0) == {"ann": {"main": F(-2), "any_pair": F(11)}}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10 ** 6), data=st.data(),
       boxes=st.lists(st.tuples(st.lists(stake, min_size=1, max_size=3), st.integers(0, 2)),
                      min_size=1, max_size=3))
def test_random_shared_rounds_settle_pro_rata_and_refuse_intruders_BJ_20(seed, data, boxes):
    # highest_stake with a seated bettor on every box: always a valid box (BJ-20.1.3)
    seats = [Seat.shared([("b%d.%d" % (i, j), s, j == seat % len(stakes)) for j, s in enumerate(stakes)])
             for i, (stakes, seat) in enumerate(boxes)]
    rnd = Round(opts_for("highest_stake"), Shoe(decks=6, seed=seed), seats)
    while rnd.current is not None:
        seat_i, _ = rnd.current
        decider = rnd.decider()
        bettors = seats[seat_i].bettors
        chosen = bettors[[b.who for b in bettors].index(decider)]
        highest = [b for b in bettors if b.stake == max(b.stake for b in bettors)]
        assert highest == [chosen] or (len(highest) > 1 and chosen.seated)   # BJ-20.1.3
        for other in (b.who for s in seats for b in s.bettors if b.who != decider):
            assert rnd.legal(other) == []
        getattr(rnd, data.draw(st.sampled_from(rnd.legal(decider))))(decider)
    rnd.dealer_play()
    for seat_i, (seat, box_nets) in enumerate(zip(seats, rnd.settle())):
        shares = rnd.settle_bettors(seat_i)
        for bet, box_net in box_nets.items():
            assert sum(shares[b.who][bet] for b in seat.bettors) == box_net
            assert {shares[b.who][bet] / b.stake for b in seat.bettors} == {box_net / seat.main}
