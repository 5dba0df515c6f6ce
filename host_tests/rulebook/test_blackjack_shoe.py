"""Blackjack shoe procedures: burns (BJ-4.1, BJ-4.2), the second cut card's last round (BJ-2.1.1,
BJ-2.2.1), the one-round metal-box deck (BJ-2.2.3), replayed shoes."""
import random

import pytest

from rulebook.blackjack import game as bj
from rulebook.blackjack.shoe import play_shoe
from rulebook.cards import deck
from rulebook.errors import RuleError


def opts(**given):
    return bj.options(given)


def test_start_burn_as_many_cards_as_decks_or_one_BJ_4_1():
    cards = deck() * 2
    assert play_shoe(opts(decks=2), cards=cards).burned == tuple(cards[:2])      # BJ-4.1.1
    assert play_shoe(opts(decks=2, burn_start="one"), cards=cards).burned == tuple(cards[:1])  # BJ-4.1.2
    assert play_shoe(opts(decks=2, burn_start="none"), cards=cards).burned == ()


def test_the_round_that_reaches_the_cut_card_is_the_last_BJ_2_1_BJ_2_2_1():
    o = opts(decks=2, cut_from_end=60)
    for seed in range(5):
        play = play_shoe(o, seed=seed, boxes=2)
        used = 104 - play.cards_left
        assert used > 104 - 60                    # the last round went past the cut card ...
        before_last = used - sum(len(r.dealer) + sum(len(h.cards) for s in r.seats for h in s.hands)
                                 + len(r.burned) for r in play.rounds[-1:])
        assert before_last <= 104 - 60            # ... and every earlier round ended before it


def test_cut_card_must_lie_in_the_shoe_and_among_the_last_30_BJ_2_1_1():
    with pytest.raises(RuleError, match="outside a shoe"):
        play_shoe(opts(decks=1, cut_from_end=60), seed=1)
    with pytest.raises(RuleError, match="cut_from_end"):
        opts(cut_from_end=20)


def test_simulated_rounds_each_come_from_a_full_shoe_BJ_2_1_2_BJ_2_2_4():
    # simulate() deals as a shuffler-dealer: every card goes back into the machine after each round
    shoe = bj.FreshShoe(1, random.Random(3))
    for _ in range(3):
        shoe.new_round()
        assert sorted(map(str, (shoe.draw() for _ in range(52)))) == sorted(map(str, deck()))
    with pytest.raises(ValueError):
        shoe.draw()  # a 53rd card in one round: one deck holds 52


def test_metal_box_deck_serves_one_round_BJ_2_2_3():
    with pytest.raises(RuleError, match="BJ-2.2.3"):
        play_shoe(opts(decks=1, dealing="box"), seed=1)


def test_burn_before_each_later_round_BJ_4_2():
    play = play_shoe(opts(decks=2, burn_each_round=True, burn_start="none"), seed=4)
    assert play.rounds[0].burned == []
    assert all(len(r.burned) == 1 for r in play.rounds[1:])
    assert len(play.rounds) >= 2


def test_burn_before_dealer_second_card_in_a_replayed_round_BJ_4_2():
    # T+9 stands v 9; the 2c is burnt, the dealer's second card is the K: 19 v 19
    o = opts(burn_before_dealer_second=True)
    assert bj.resolve("Ts,9h,9d,2c,Kc|stand", o)["main"] == 0
    # without the burn the 2c is the dealer's: 9+2 = 11 hits K = 21
    assert bj.resolve("Ts,9h,9d,2c,Kc|stand")["main"] == -1


def test_a_seeded_shoe_replays_exactly():
    a = play_shoe(opts(decks=6), seed=99, boxes=3)
    b = play_shoe(opts(decks=6), seed=99, boxes=3)
    assert [r.dealer for r in a.rounds] == [r.dealer for r in b.rounds]
    assert [r.settle() for r in a.rounds] == [r.settle() for r in b.rounds]
