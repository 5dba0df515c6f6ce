"""Blackjack round engine: multi-box dealing order, can_x()/x() validation that changes nothing on a
refusal, money settlement with real stakes, and replayed histories (hypothesis) that round-trip."""
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from rulebook.blackjack import game as bj
from rulebook.blackjack.cards import hand_total
from rulebook.blackjack.round import Round, Seat
from rulebook.cards import Shoe, parse_cards
from rulebook.errors import RuleError, ShoeExhausted

OPTS = bj.options(None)


def shoe(text):
    return Shoe(decks=6, cards=parse_cards(text))


def state(rnd):
    return (rnd.shoe.pos, rnd.current, [[list(h.cards) for h in s.hands] for s in rnd.seats],
            [s.insurance for s in rnd.seats], rnd.legal())


def test_two_boxes_are_dealt_one_card_at_a_time_from_the_left_BJ_5_1():
    rnd = Round(OPTS, shoe("2s,3s,4s,5s,6s"), [Seat(1), Seat(1)])
    assert [c for c in rnd.seats[0].first_two] == parse_cards("2s,5s")
    assert [c for c in rnd.seats[1].first_two] == parse_cards("3s,6s")
    # no hole card with a shoe (BJ-5.2.1.1); procedure 2 (BJ-5.2.2) deals in the same order, the boxes'
    # cards face up, which changes nothing a round computes
    assert rnd.dealer == parse_cards("4s")


def test_box_dealing_gives_the_dealer_two_cards_before_play_BJ_5_2_1_2():
    opts = bj.options({"dealing": "box", "decks": 1})
    rnd = Round(opts, Shoe(decks=1, cards=parse_cards("2s,4s,5s,7s")), [Seat(1)])
    assert rnd.dealer == parse_cards("4s,7s")


def test_boxes_act_in_order_and_money_settles_with_real_stakes_BJ_6_3_BJ_7_1():
    # box 0: 10 units on T+9; box 1: 4 units on 5+6 (doubles); dealer 8 + 9 = 17
    rnd = Round(OPTS, shoe("Ts,5h,8d,9s,6c,Tc,9c"), [Seat(10), Seat(4, {"any_pair": 2})])
    assert rnd.current == (0, 0)
    with pytest.raises(RuleError, match="same rank"):
        rnd.split()                      # box 0 holds T+9
    with pytest.raises(RuleError, match="ace"):
        rnd.insure(1)                    # the dealer shows an 8
    rnd.stand()
    assert rnd.current == (1, 0)
    rnd.double()
    assert rnd.current is None
    rnd.dealer_play()                    # BJ-7.1: the dealer's second card after every box has decided
    assert rnd.dealer == parse_cards("8d,9c")
    box0, box1 = rnd.settle()
    assert box0 == {"main": F(10)}                  # 19 v 17
    assert box1 == {"main": F(8), "any_pair": F(-2)}   # 21 v 17 on 8 units; 5,6 not a pair


def test_insurance_money_half_to_full_BJ_12():
    rnd = Round(OPTS, shoe("Ts,Ah,9d,Kc"), [Seat(10)])
    assert rnd.can_insure(0, 5) and rnd.can_insure(0, 10)
    assert not rnd.can_insure(0, 4) and not rnd.can_insure(0, 11)
    rnd.insure(0, 5)
    assert not rnd.can_insure(0, 5)                # once per box
    rnd.stand()
    rnd.dealer_play()
    assert rnd.settle()[0] == {"main": F(-10), "insurance": F(10)}


def test_refused_decisions_change_nothing():
    rnd = Round(OPTS, shoe("Ts,Ah,6d,7c,2c,3c"), [Seat(2)])
    before = state(rnd)
    for attempt in (rnd.split, rnd.surrender, rnd.five, lambda: rnd.even_money(0),
                    lambda: rnd.insure(0, 7), lambda: rnd.insure(3), rnd.dealer_play, rnd.settle):
        with pytest.raises(RuleError):
            attempt()
        assert state(rnd) == before
    assert rnd.legal() == ["hit", "stand", "double"]


def test_bad_bets_are_refused_BJ_13():
    with pytest.raises(RuleError, match="one side bet"):
        Seat(1, {"any_pair": 1, "sevens": 1})
    with pytest.raises(RuleError, match="unknown side bet"):
        Seat(1, {"lucky": 1})
    with pytest.raises(RuleError, match="positive"):
        Seat(0)
    with pytest.raises(RuleError, match="at least one box"):
        Round(OPTS, shoe("2s"), [])


def test_running_out_of_cards_is_an_error_not_a_reshuffle():
    rnd = Round(OPTS, shoe("Ts,9h,Qd"), [Seat(1)])
    rnd.stand()
    with pytest.raises(ShoeExhausted):
        rnd.dealer_play()


def _random_round(seed, choices, decks):
    """Play a seeded round making pseudo-random legal decisions; returns (outcome text, nets)."""
    opts = bj.options({"decks": decks})
    deal = Shoe(decks=decks, seed=seed)
    rnd = Round(opts, deal, [Seat(1)])
    decisions, i = [], 0
    if rnd.can_insure(0) and choices[0] % 3 == 0:
        rnd.insure(0)
        decisions.append("insure")
    if rnd.can_even_money(0) and choices[0] % 2 == 0:
        rnd.even_money(0)
        decisions.append("even")
    while rnd.current is not None:
        legal = rnd.legal()
        name = legal[choices[i % len(choices)] % len(legal)]
        i += 1
        getattr(rnd, name)()
        decisions.append(name)
    rnd.dealer_play()
    text = ",".join(map(str, deal.cards[:deal.pos])) + "|" + ",".join(decisions)
    return rnd, text, bj.round_nets(rnd)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.lists(st.integers(0, 50), min_size=1, max_size=12), st.sampled_from([1, 2, 8]))
def test_any_legal_history_replays_to_the_same_result(seed, choices, decks):
    rnd, text, nets = _random_round(seed, choices, decks)
    assert bj.resolve(text, bj.options({"decks": decks})) == nets
    # invariants of any finished round
    total, _ = hand_total(rnd.dealer)
    assert total >= 17                                   # BJ-6.1
    seat = rnd.seats[0]
    stakes = sum(h.stake for h in seat.hands)
    assert -stakes <= nets["main"] <= F(3) * stakes       # the bonus (3:1) is the best any hand pays
    assert len(seat.hands) <= OPTS["max_split_hands"]
    if rnd.dealer_blackjack() and seat.split:
        assert nets["main"] >= -1                         # BJ-16.6


RANKS = "23456789TJQKA"


def expected_first_decisions(r1, r2, up, double):
    """Legal decisions on a box's first two cards, from the articles (independent of the engine)."""
    value = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}
    v1, v2 = value.get(r1) or int(r1), value.get(r2) or int(r2)
    hard = v1 + v2
    total = hard + 10 if 1 in (v1, v2) and hard <= 11 else hard
    if total == 21:
        return []                                   # Blackjack: nothing to decide (BJ-6.4.1)
    legal = ["hit", "stand"]                        # BJ-6.2
    if double == "any" or total == 11:
        legal.append("double")                      # BJ-17.1
    if r1 == r2:
        legal.append("split")                       # BJ-16.1
    if up != "A":
        legal.append("surrender")                   # BJ-18.1
    return legal


@pytest.mark.parametrize("double", ["any", "eleven"])
def test_every_first_two_cards_against_every_up_card_offers_the_right_decisions_BJ_6_2(double):
    opts = bj.options({"double": double})
    for r1 in RANKS:
        for r2 in RANKS:
            for up in RANKS:
                rnd = Round(opts, shoe("%ss,%sh,%sd" % (r1, up, r2)), [Seat(1)])
                want = expected_first_decisions(r1, r2, up, double)
                assert rnd.legal() == want, (r1, r2, up)
                assert rnd.can_insure(0) == (up == "A")                           # BJ-12.1
                bj_hand = {r1, r2} in ({"A", ten} for ten in "TJQK")                # BJ-10.1
                assert rnd.can_even_money(0) == (bj_hand and up in "ATJQK")      # BJ-10.3


def test_insurance_offer_closes_when_any_box_plays_BJ_12_1():
    rnd = Round(OPTS, shoe("Ts,2s,Ah,9d,3c,5c"), [Seat(1), Seat(1)])
    assert rnd.can_insure(1)
    rnd.stand()                      # box 0 plays
    assert not rnd.can_insure(1)
