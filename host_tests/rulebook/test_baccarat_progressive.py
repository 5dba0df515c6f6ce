"""Baccarat jackpots A/B/C (BAC-13.1.4.4, BAC-13.2, BAC-17.6-17.12): classes of crafted coups, awards,
exact class probabilities against closed forms counted by hand."""
from fractions import Fraction as F

import pytest

from rulebook.baccarat import game as baccarat
from rulebook.baccarat.progressive import (class_a_probabilities, class_bc_probabilities,
                                           progressive_class)
from rulebook.baccarat.rules import coup_from_cards
from rulebook.cards import parse_cards
from rulebook.errors import RuleError


def classes(cards, **opts):
    found = baccarat.jackpot_classes(cards, opts)
    return found["progressive_a"], found["progressive_b"], found["progressive_c"]


def test_royal_first_five_one_suit_any_order_BAC_13_1_4_4_A_1():
    # P As,Qs = 1 draws Ts; B Ks,Js = 0 draws 2h: first five A K Q J 10 of spades
    assert classes("As,Ks,Qs,Js,Ts,2h")[0] == "royal"
    assert classes("Ts,Ks,Qs,Js,As,2h")[0] == "royal"


def test_paradise_straight_ace_of_another_suit_BAC_13_1_4_4_A_2():
    assert classes("Ah,Ks,Qs,Js,Ts,2h")[0] == "paradise_straight"
    # K Q J 10 not all one suit: nothing
    assert classes("Ah,Ks,Qs,Jd,Ts,2h")[0] is None


def test_royal_needs_the_fifth_card_not_the_sixth_BAC_13_1_4_4_A_1():
    # P Ks,Js = 0 draws 2h; B Qs,Ts = 0 draws As: the ace is the sixth card
    assert classes("Ks,Qs,Js,Ts,2h,As")[0] is None


def test_four_of_a_kind_first_four_distinct_suits_BAC_13_1_4_4_A_3():
    # P 7s,7c = 4 draws Kc -> 4; B 7h,7d = 4 stands on a 10 (BAC-9.4.2)
    assert classes("7s,7h,7c,7d,Kc")[0] == "four_of_a_kind"
    # two sevens of spades: the literal reading wants different suits; three of a kind remains
    assert classes("7s,7h,7s,7d,Kc")[0] == "three_of_a_kind"
    assert classes("7s,7h,7s,7d,Kc", four_suits="any")[0] == "four_of_a_kind"


def test_two_pairs_of_different_ranks_BAC_13_1_4_4_A_4():
    # P 4s,4d = 8 natural; B 5h,5c = 0
    assert classes("4s,5h,4d,5c")[0] == "two_pairs"
    # jacks and kings both count zero, yet are different ranks (the J/Q example of BAC-13.1.4.1)
    assert classes("Js,Kh,Jd,Kc,9s,2c")[0] == "two_pairs"


def test_three_of_a_kind_in_first_four_any_order_BAC_13_1_4_4_A_5():
    assert classes("4s,4h,4d,5c")[0] == "three_of_a_kind"  # P 4,4 natural 8; B 4,5 natural 9
    assert classes("4s,4h,5d,4c")[0] == "three_of_a_kind"  # P 4,5 natural 9; B 4,4 natural 8


def test_single_pair_player_or_banker_BAC_13_1_4_4_A_6():
    assert classes("4s,5h,4d,6c")[0] == "one_pair"  # player pair
    assert classes("2s,9d,3h,9c")[0] == "one_pair"  # banker pair
    assert classes("9s,Kd,Th,2c")[0] is None


def test_six_five_of_a_kind_over_all_cards_BAC_13_1_4_4_B_1_and_13_2_2():
    # P 5,5 = 0 draws 5 -> 5; B 5,5 = 0 draws 5: six fives of mixed colours
    assert classes("5s,5h,5c,5d,5s,5h") == ("four_of_a_kind", "six_of_a_kind", "six_of_a_kind")
    # B's third card a K: five fives
    assert classes("5s,5h,5c,5d,5s,Kh")[1:] == ("five_of_a_kind", "five_of_a_kind")


def test_six_of_one_rank_and_colour_BAC_13_1_4_4_C_1():
    assert classes("5s,5c,5s,5c,5s,5c")[1:] == ("six_of_a_kind", "six_same_colour")
    assert classes("5h,5d,5h,5d,5h,5d")[1:] == ("six_of_a_kind", "six_same_colour")


def test_two_threes_pictures_are_different_ranks_BAC_13_1_4_4_B_3_and_13_2_1():
    # three kings and three queens (all zero points, but K and Q are different ranks)
    assert classes("Ks,Kh,Kc,Qd,Qs,Qh")[1:] == ("two_threes", "two_threes")
    # ten, jack, queen, king: four different ranks, no class
    assert classes("Ts,Jh,Qc,Kd,9s,2c") == (None, None, None)


def test_four_and_three_across_both_hands_BAC_13_2_2_and_13_2_3():
    # P 5s,5c = 0 draws Kc; B 5h,5d = 0 draws 2h: four fives
    assert classes("5s,5h,5c,5d,Kc,2h")[1:] == ("four", "four")
    # P 5s,Kc = 5 draws 5c -> 0; B 5h,Kd = 5 draws on a 5 (BAC-9.3.4) 2h: fives in both hands
    assert classes("5s,5h,Kc,Kd,5c,2h") == (None, "three", "three")


def test_progressive_class_checks_its_input():
    p, b = parse_cards("9s,Th"), parse_cards("Kd,2c")
    dealt = parse_cards("9s,Kd,Th,2c")
    assert progressive_class("a", p, b, dealt) is None
    with pytest.raises(RuleError, match="scheme"):
        progressive_class("d", p, b, dealt)
    with pytest.raises(RuleError, match="exactly the 4 to 6 cards"):
        progressive_class("b", p, parse_cards("Kd,3c"), dealt)
    with pytest.raises(RuleError, match="dealing order"):
        progressive_class("b", p, b, parse_cards("9s,Th,Kd,2c"))
    with pytest.raises(RuleError, match="four_suits"):
        progressive_class("a", p, b, dealt, four_suits="some")


def test_jackpot_awards_and_sharing_BAC_17_6_to_17_12():
    royal = "As,Ks,Qs,Js,Ts,2h"
    opts = {"jackpot_stake_cents": 5000, "jackpot_pool_cents": 10_000_000,
            "a_paradise_straight_cents": 500_000, "a_one_pair_cents": 15_000}
    assert baccarat.resolve(royal, opts)["progressive_a"] == 2000 - 1  # the whole pool (BAC-17.6)
    shared = dict(opts, jackpot_bettors=3)  # split equally, rounded down to the cent
    assert baccarat.resolve(royal, shared)["progressive_a"] == F(3_333_333, 5000) - 1
    paradise = "Ah,Ks,Qs,Js,Ts,2h"
    # BAC-17.7: the higher of the fixed amount and 10% of the pool
    assert baccarat.resolve(paradise, opts)["progressive_a"] == 200 - 1  # 10% = 1,000,000 cents
    bigger_fixed = dict(opts, a_paradise_straight_cents=1_500_000)
    assert baccarat.resolve(paradise, bigger_fixed)["progressive_a"] == 300 - 1
    assert baccarat.resolve("4s,5h,4d,6c", opts)["progressive_a"] == 2  # fixed 150.00 (17.8)
    returned = dict(opts, jackpot_stake_returned=True)
    assert baccarat.resolve("4s,5h,4d,6c", returned)["progressive_a"] == 3
    two = dict(opts, jackpot_bettors=2)
    assert baccarat.resolve("4s,5h,4d,6c", two)["progressive_a"] == F(7500, 5000) - 1
    assert baccarat.resolve("9s,Kd,Th,2c", opts)["progressive_a"] == -1


def test_jackpot_c_six_of_a_kind_and_five_BAC_17_10_to_17_12():
    opts = {"jackpot_stake_cents": 100, "jackpot_pool_cents": 200_000, "c_six_of_a_kind_cents": 15_000,
            "c_six_of_a_kind_bp": 500, "b_five_of_a_kind_cents": 4000}
    assert baccarat.resolve("5s,5c,5s,5c,5s,5c", opts)["progressive_c"] == 2000 - 1  # 17.10
    assert baccarat.resolve("5s,5h,5c,5d,5s,5h", opts)["progressive_c"] == 150 - 1  # 5% = 10,000 < 15,000
    assert baccarat.resolve("5s,5h,5c,5d,5s,5h", dict(opts, c_six_of_a_kind_bp=1000))["progressive_c"] == 199
    assert baccarat.resolve("5s,5h,5c,5d,5s,5h", opts)["progressive_b"] == 2000 - 1  # 17.6
    five = "5s,5h,5c,5d,5s,Kh"
    assert baccarat.resolve(five, opts)["progressive_b"] == 39
    assert baccarat.resolve(five, opts)["progressive_c"] == -1  # no award in BAC-17 for C five
    assert baccarat.resolve(five, dict(opts, c_five_of_a_kind_cents=700))["progressive_c"] == 6
    assert any("five_of_a_kind" in line and "no award" in line for line in baccarat.flags({}))


def falling(n, k):
    out = 1
    for i in range(k):
        out *= n - i
    return out


@pytest.mark.parametrize("decks", [6, 8])
def test_class_a_probabilities_against_counts_by_hand(decks):
    n = 52 * decks
    probs = class_a_probabilities(decks)
    # royal: 5! orders of the ranks (each deals a fifth card), 4 suits, `decks` copies of every card
    assert probs["royal"] == F(120 * 4 * decks ** 5, falling(n, 5))
    assert probs["paradise_straight"] == F(120 * 4 * 3 * decks ** 5, falling(n, 5))
    assert probs["four_of_a_kind"] == F(13 * 24 * decks ** 4, falling(n, 4))
    assert class_a_probabilities(decks, "any")["four_of_a_kind"] == F(13 * falling(4 * decks, 4), falling(n, 4))
    assert probs["two_pairs"] == F(13 * 12 * falling(4 * decks, 2) ** 2, falling(n, 4))
    # every pair class together is "player pair or banker pair"
    pair = F(13 * falling(4 * decks, 2), falling(n, 2))
    both = F(13 * 13 * falling(4 * decks, 2) ** 2 - 13 * falling(4 * decks, 2) ** 2
             + 13 * falling(4 * decks, 4), falling(n, 4))
    pair_classes = probs["four_of_a_kind"] + probs["two_pairs"] + probs["three_of_a_kind"] + probs["one_pair"]
    assert pair_classes == 2 * pair - both


def test_class_bc_probabilities_split_picture_ranks_BAC_13_2_1():
    decks = 8
    six_fives = (0, 0, 0, 0, 0, 6, 0, 0, 0, 0)
    out = class_bc_probabilities({six_fives: 1}, decks)
    colour = F(2 * falling(2 * decks, 6), falling(4 * decks, 6))
    assert out["b"]["six_of_a_kind"] == 1
    assert out["c"]["six_same_colour"] == colour and out["c"]["six_of_a_kind"] == 1 - colour
    six_zeros = (6, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    out = class_bc_probabilities({six_zeros: 1}, decks)
    z = 16 * decks
    assert out["b"]["six_of_a_kind"] == F(4 * falling(4 * decks, 6), falling(z, 6))
    # two threes from six zero cards: choose the two ranks (6), the positions (20)
    assert out["b"]["two_threes"] == F(6 * 20 * falling(4 * decks, 3) ** 2, falling(z, 6))
    assert sum(out["b"].values()) < 1  # six zero cards can also spread 2,2,1,1 (no class)


def test_edge_reports_class_probabilities_that_sum_below_one():
    figures = baccarat.edge({})
    for scheme in "abc":
        f = figures["progressive_" + scheme]
        assert f["win_probability"] == sum(f["class_probability"].values())
        assert 0 < f["win_probability"] < 1
    # B and C share every class but C's colour split of six of a kind
    b, c = figures["progressive_b"]["class_probability"], figures["progressive_c"]["class_probability"]
    assert c["six_same_colour"] + c["six_of_a_kind"] == b["six_of_a_kind"]
    for cls in ("five_of_a_kind", "two_threes", "four", "three"):
        assert b[cls] == c[cls]


def test_jackpot_edge_follows_the_awards():
    opts = {"a_one_pair_cents": 5000, "a_three_of_a_kind_cents": 20000, "a_two_pairs_cents": 50000,
            "a_four_of_a_kind_cents": 500000, "a_paradise_straight_cents": 5_000_000,
            "jackpot_pool_cents": 100_000_000, "jackpot_stake_cents": 1000}
    f = baccarat.edge(opts)["progressive_a"]
    p = f["class_probability"]
    expected = (p["one_pair"] * 5 + p["three_of_a_kind"] * 20 + p["two_pairs"] * 50
                + p["four_of_a_kind"] * 500 + p["paradise_straight"] * 10000 + p["royal"] * 100000) - 1
    assert f["house_edge"] == -expected


def test_coup_from_cards_and_jackpot_classes_agree_on_hands():
    coup = coup_from_cards(parse_cards("5s,5h,Kc,Kd,5c,2h"))
    assert [str(c) for c in coup.player] == ["5s", "Kc", "5c"]
    assert progressive_class("b", coup.player, coup.banker, coup.cards) == "three"
