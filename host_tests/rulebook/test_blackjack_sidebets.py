"""Blackjack side bets (BJ-13, BJ-14): exact odds against brute-force counting of real shoes and
against closed forms; the rules are rewritten here from the articles, not taken from the module."""
from fractions import Fraction as F
from itertools import permutations

import pytest

from rulebook.blackjack import game as bj
from rulebook.blackjack.sidebets import sevens_distribution, two_card_edges
from rulebook.cards import deck


def points(card, ace):
    """BJ-13.3 points of one card: ace `ace`, ten and pictures 10, others face value."""
    if card.rank == 14:
        return ace
    return min(card.rank, 10)


def brute_two_card(decks, ace):
    """{bet: {net: probability}} over every ordered pair of distinct physical cards of the shoe."""
    cards = deck() * decks
    counts = {"any_pair": {}, "over13": {}, "under13": {}}
    n = 0
    for a, b in permutations(cards, 2):
        n += 1
        total = points(a, ace) + points(b, ace)
        for bet, won, pays in (("any_pair", a.rank == b.rank, 11), ("over13", total > 13, 1),
                               ("under13", total < 13, 1)):
            net = pays if won else -1
            counts[bet][net] = counts[bet].get(net, 0) + 1
    return {bet: {F(k): F(v, n) for k, v in d.items()} for bet, d in counts.items()}


@pytest.mark.parametrize("decks, ace", [(1, 1), (2, 1), (1, 11), (3, 1)])
def test_two_card_side_bets_exact_against_counting_BJ_14_1_BJ_14_3(decks, ace):
    exact = two_card_edges(bj.options({"decks": decks, "over13_ace": ace}))
    brute = brute_two_card(decks, ace)
    for bet in brute:
        assert exact[bet]["distribution"] == brute[bet]


@pytest.mark.parametrize("decks", range(1, 9))
def test_any_pair_closed_form_BJ_14_1(decks):
    # the second card matches the first's rank: 4d - 1 of the 52d - 1 cards left
    p = F(4 * decks - 1, 52 * decks - 1)
    fig = two_card_edges(bj.options({"decks": decks}))["any_pair"]
    assert fig["win_probability"] == p
    assert fig["house_edge"] == 1 - 12 * p


def sevens_pay(a, b, third, mixed):
    """BJ-14.2, highest combination only; third is the card after the split, or None."""
    if a.rank != 7 or b.rank != 7:
        return -1
    pay = 150 if a.suit == b.suit else 50
    if third is not None and third.rank == 7:
        if a.suit == b.suit == third.suit:
            return 5000
        if mixed == "not_all_same" or len({a.suit, b.suit, third.suit}) == 3:
            return 500
    return pay


def brute_sevens(decks, split_against, mixed):
    """Every ordered (box 1st, dealer up, box 2nd, next card) of physical cards starting with 7,?,7."""
    cards = deck() * decks
    n = len(cards)
    counts, seen = {}, 0
    sevens = [i for i, c in enumerate(cards) if c.rank == 7]
    for i in sevens:
        for j in sevens:
            if i == j:
                continue
            for u in range(n):
                if u in (i, j):
                    continue
                up_value = 1 if cards[u].rank == 14 else min(cards[u].rank, 10)
                for k in range(n):
                    if k in (i, j, u):
                        continue
                    third = cards[k] if up_value in split_against else None
                    net = sevens_pay(cards[i], cards[j], third, mixed)
                    counts[net] = counts.get(net, 0) + 1
                    seen += 1
    total = n * (n - 1) * (n - 2) * (n - 3)
    counts[-1] = counts.get(-1, 0) + total - seen
    return {F(k): F(v, total) for k, v in counts.items() if v}


@pytest.mark.parametrize("decks, split_against, mixed", [
    (1, set(range(1, 11)), "not_all_same"),
    (1, {2, 3, 4, 5, 6, 7}, "not_all_same"),
    (2, set(range(1, 11)), "not_all_same"),
    (2, set(range(1, 11)), "all_different"),
    (2, set(), "not_all_same"),
])
def test_sevens_exact_against_counting_BJ_13_2_BJ_14_2(decks, split_against, mixed):
    opts = bj.options({"decks": decks, "sevens_three_mixed": mixed})
    assert sevens_distribution(opts, split_against) == brute_sevens(decks, split_against, mixed)


def test_sevens_closed_form_one_deck_never_split_BJ_14_2_1_BJ_14_2_2():
    # two 7s of one suit are impossible in one deck: 4/52 * 3/51 pays 50, the rest loses
    dist = sevens_distribution(bj.options({"decks": 1}), set())
    assert dist == {F(50): F(4 * 3, 52 * 51), F(-1): 1 - F(4 * 3, 52 * 51)}


def test_side_bet_edges_every_deck_count_are_house_favoured():
    for decks in (1, 6, 8):
        figures = bj.edge(bj.options({"decks": decks}), rounds=200)
        for bet in ("any_pair", "sevens", "over13", "under13", "insurance"):
            assert 0 < figures[bet]["house_edge"] < 1, (decks, bet)
        p = figures["insurance"]["win_probability"]
        assert p == F(16 * decks, 52 * decks - 1)        # BJ-12.2: ten-value behind the ace
        assert figures["insurance"]["house_edge"] == -(2 * p - (1 - p))


def test_extra_pairs_after_a_split_by_hand_BJ_13_1_2():
    from rulebook.blackjack.sidebets import extra_pairs
    # one deck, 8,8 split against a 6: two 8s among the 49 unseen cards; no re-split (two hands):
    # hand 1 draws an 8 with 2/49, then hand 2 with 1/48; else hand 2 draws one with 2/48
    dist = extra_pairs(2, 49, 2)
    assert dist == {2: F(2, 49) * F(1, 48),
                    1: F(2, 49) * F(47, 48) + F(47, 49) * F(2, 48),
                    0: F(47, 49) * F(46, 48)}
    # with one re-split allowed, an 8 on hand 1 makes three hands: the 8s left can all come
    dist = extra_pairs(2, 49, 3)
    # both 8s come: hand 1 draws 8 and re-splits, then the last 8 goes to one of hands 1a, 1b, 2
    # (1/48 + 47/48 * (1/47 + 46/47 * 1/46) = 3/48); or hand 2 draws the first 8, re-splits, and
    # hand 2a or 2b draws the last (1/47 + 46/47 * 1/46 = 2/47)
    assert dist[2] == F(2, 49) * F(3, 48) + F(47, 49) * F(2, 48) * F(2, 47)
    assert sum(dist.values()) == 1


def test_any_pair_paid_once_when_split_pairs_do_not_count_BJ_13_1():
    for decks in (1, 6, 8):
        p = F(4 * decks - 1, 52 * decks - 1)
        fig = bj.edge(bj.options({"decks": decks, "any_pair_split_pairs": False}), rounds=100)["any_pair"]
        assert fig["house_edge"] == 1 - 12 * p


def test_any_pair_pays_again_for_pairs_after_splits_BJ_13_1_2():
    # 8,8 v 6 split: hand 1 draws 8 (a pair again) and is re-split; hands 8+T, 8+T, 8+T v 6+T+9
    text = "8s,6h,8d,8c,Td,Th,Ts,Tc,9c|split,split,stand,stand,stand"
    assert bj.resolve(text)["any_pair"] == 22
    assert bj.resolve(text, bj.options({"any_pair_split_pairs": False}))["any_pair"] == 11
    # the pair-again count also reaches the money settlement of a staked bet
    from rulebook.blackjack.round import Round, Seat
    from rulebook.cards import Shoe, parse_cards
    rnd = Round(bj.options(None), Shoe(decks=6, cards=parse_cards(text.split("|")[0])), [Seat(1, {"any_pair": 5})])
    for name in ("split", "split", "stand", "stand", "stand"):
        getattr(rnd, name)()
    rnd.dealer_play()
    assert rnd.settle()[0]["any_pair"] == 110
    assert rnd.settle()[0]["main"] == 3          # three 18s v 6+T+9 = bust
