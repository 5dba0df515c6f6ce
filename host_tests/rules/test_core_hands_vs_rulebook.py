"""The firmware jackpot hand classes against rulebook.poker.poker5 (all 2,598,960 five-card hands),
rulebook.fortune3 (3 + 2 community cards) and rulebook.baccarat.progressive (A/B/C classes)
(CSP-10.2, F3-7.3, F3-15.1, BAC-13.1.4.4, BAC-13.2)."""
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from rulebook.baccarat import progressive as baccarat_progressive
from rulebook import fortune3
from rulebook.poker import poker5
from rulebook.cards import Card
from tablectl.rules import cards, hands

# CSP-10.2 / F3-7.3 progressive classes by the rulebook's five-card category ids
CLASS_OF_CATEGORY = {"royal_flush": hands.ROYAL, "straight_flush": hands.STRAIGHT_FLUSH,
                     "four_of_a_kind": hands.FOUR, "full_house": hands.FULL_HOUSE, "flush": hands.FLUSH}
# textbook counts of the 2,598,960 five-card hands (independent of both implementations)
TEXTBOOK = {hands.ROYAL: 4, hands.STRAIGHT_FLUSH: 36, hands.FOUR: 624, hands.FULL_HOUSE: 3744,
            hands.FLUSH: 5108}


def hand(text):
    """'As Kd 7h' -> the core's card ints."""
    return [cards.parse(c) for c in text.split()]


def card(c):
    return Card((c >> 2) + 2, "shcd"[c & 3])


def expected_class(five):
    category = poker5.evaluate([card(c) for c in five])[0]
    return CLASS_OF_CATEGORY.get(poker5.CATEGORY_IDS[category], hands.NONE)


def test_card_ints_round_trip_and_match_rulebook_cards():
    for c in range(52):
        assert cards.parse(cards.name(c)) == c
        assert str(card(c)) == cards.name(c)
    assert cards.parse("10h") == cards.parse("Th")


def test_all_2598960_hands_against_textbook_and_rulebook_poker5_CSP_10_2():
    """Every hand the firmware puts in a jackpot class is in that class for rulebook.poker.poker5, and the
    firmware's class sizes are the textbook counts (which rulebook's own tests hold it to): so the two
    agree on all 2,598,960 hands. The firmware's class function is timed here without the input
    check that classify5 adds (the check has its own tests below)."""
    counts = Counter()
    jackpot_hands = []
    class5 = hands._class5
    for five in itertools.combinations(range(52), 5):
        got = class5(*five)
        counts[got] += 1
        if got:
            jackpot_hands.append((five, got))
    mismatches = [(five, got) for five, got in jackpot_hands if expected_class(five) != got]
    assert not mismatches[:5]
    assert {k: v for k, v in counts.items() if k != hands.NONE} == TEXTBOOK
    assert sum(counts.values()) == 2598960


def test_every_hand_the_rulebook_calls_a_jackpot_class_is_one_CSP_10_2():
    """The converse of the exhaustive pass, through the public entry point: random hands classify as
    the rulebook says."""
    rng = random.Random(4)
    for _ in range(20000):
        five = tuple(rng.sample(range(52), 5))
        assert hands.classify5(five) == expected_class(five), five


def hands_of_every_class():
    """One or more literal hands per class, written independently (F3-7.2.1..7.2.5, CSP-8)."""
    p = hand
    return {
        hands.ROYAL: [p("As Ks Qs Js Ts"), p("Td Ad Jd Kd Qd")],
        hands.STRAIGHT_FLUSH: [p("9h Kh Qh Jh Th"), p("Ac 2c 3c 4c 5c"), p("6s 2s 3s 4s 5s")],
        hands.FOUR: [p("7s 7h 7c 7d 2s"), p("Ad As Ac Ah Kd")],
        hands.FULL_HOUSE: [p("Ks Kh Kd 2c 2d"), p("3s 3h Ad Ac As")],
        hands.FLUSH: [p("As Ks Qs Js 9s"), p("2d 4d 6d 8d Td"), p("Qs Ks As 2s 3s")],  # no wrap-around
        hands.NONE: [p("As Kh Qs Js Ts"), p("Ah 2c 3c 4c 5c"), p("Ks Kh Kd 2c 3d"), p("2s 3s 4s 5s 7h")],
    }


def test_literal_hands_of_every_class_F3_7_2():
    for cls, examples in hands_of_every_class().items():
        for five in examples:
            assert hands.classify5(five) == cls, [cards.name(c) for c in five]


def test_three_plus_two_is_the_five_card_class_for_every_split_F3_15_1():
    """F3-15.1: three player cards + two community cards form exactly one five-card hand, so every
    way of splitting a hand into 3 + 2 must give the five-card class."""
    for cls, examples in hands_of_every_class().items():
        for five in examples:
            for three in itertools.combinations(five, 3):
                two = [c for c in five if c not in three]
                assert hands.classify_3_plus_2(list(three), two) == cls


def test_three_plus_two_every_jackpot_hand_against_rulebook_fortune3_F3_13_7():
    """All 13,516 five-card hands of flush or better, each split into 3 player + 2 community cards
    (the split rotating through all ten), against rulebook.fortune3.progressive_class."""
    splits = list(itertools.combinations(range(5), 3))
    n = 0
    for five in itertools.combinations(range(52), 5):
        cls = hands._class5(*five)
        if not cls:
            continue
        pick = splits[n % len(splits)]
        three = [five[i] for i in pick]
        two = [five[i] for i in range(5) if i not in pick]
        name = fortune3.progressive_class([card(c) for c in three], [card(c) for c in two])
        assert hands.classify_3_plus_2(three, two) == CLASS_OF_CATEGORY.get(name, hands.NONE) == cls
        n += 1
    assert n == sum(TEXTBOOK.values())


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True))
def test_three_plus_two_random_deals_against_rulebook_fortune3_F3_13_7(five):
    three, two = five[:3], five[3:]
    name = fortune3.progressive_class([card(c) for c in three], [card(c) for c in two])
    assert hands.classify_3_plus_2(three, two) == CLASS_OF_CATEGORY.get(name, hands.NONE)


@pytest.mark.parametrize("bad", [
    [0, 1, 2, 3], [0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 3], [0, 1, 2, 3, 52], [0, 1, 2, 3, -1],
    [0, 1, 2, 3, "As"], [0, 1, 2, 3, True],
])
def test_bad_five_card_hands_raise_ValueError(bad):
    with pytest.raises(ValueError):
        hands.classify5(bad)


def test_three_plus_two_refuses_a_card_in_both_groups():
    with pytest.raises(ValueError, match="twice"):
        hands.classify_3_plus_2([0, 1, 2], [2, 9])
    with pytest.raises(ValueError):
        hands.classify_3_plus_2([0, 1], [2, 9, 10])


# ---- baccarat progressive classes (BAC-13.1.4.4, BAC-13.2) --------------------------------------------

def random_coups(rng, count):
    """Coups dealt by rulebook.baccarat.rules from biased 8-deck card streams, so the rare classes show:
    a few ranks (pairs, threes, six of a kind), the royal ranks (royal, paradise), one colour or suit."""
    from rulebook.baccarat.rules import play_coup
    rank_pools = [list(range(13)), [rng.randrange(13)], rng.sample(range(13), 2), rng.sample(range(13), 3),
                  [8, 9, 10, 11, 12]]
    suit_pools = [[0, 1, 2, 3], [rng.randrange(4)], [0, 2], [1, 3]]
    for _ in range(count):
        ranks = rng.choice(rank_pools)
        suits = rng.choice(suit_pools)
        stream = iter([rng.choice(ranks) * 4 + rng.choice(suits) for _ in range(6)])
        coup = play_coup(lambda: card(next(stream)))
        to_int = lambda cs: [(c.rank - 2) * 4 + "shcd".index(c.suit) for c in cs]
        yield to_int(coup.cards), to_int(coup.player), to_int(coup.banker), coup


def test_baccarat_classes_against_rulebook_cover_every_class_BAC_13_1_4_4():
    rng = random.Random(13)
    seen = {s: set() for s in "abc"}
    n = 0
    for dealt, player, banker, coup in random_coups(rng, 12000):
        for scheme in "abc":
            for distinct in (True, False):
                want = baccarat_progressive.progressive_class(scheme, coup.player, coup.banker, coup.cards,
                                                              "distinct" if distinct else "any")
                got = hands.baccarat_class(scheme, dealt, player, banker, distinct)
                assert hands.BACCARAT_CLASS_IDS[scheme][got] == (want or "none"), (scheme, distinct, coup.cards)
                seen[scheme].add(want or "none")
        n += 1
    for scheme in "abc":
        assert seen[scheme] == set(hands.BACCARAT_CLASS_IDS[scheme]), scheme


def test_baccarat_literal_coups_BAC_13_1_4_4():
    """Independent expectations for hand-written coups (cards in dealing order P, B, P, B, ...)."""
    p = hand

    def cls(scheme, text, n_player, **kw):
        dealt = p(text)
        player = [dealt[0], dealt[2]] + dealt[4:5] * (n_player == 3)
        banker = [dealt[1], dealt[3]] + dealt[2 + n_player:]
        return hands.BACCARAT_CLASS_IDS[scheme][hands.baccarat_class(scheme, dealt, player, banker, **kw)]

    # A.1 royal in any order; A.2 the ace of another suit; a 4-card coup has no fifth card
    assert cls("a", "Ts Js Qs Ks As", 3) == "royal"
    assert cls("a", "Ts Js Qs Ks Ah", 3) == "paradise_straight"
    # A.3 four of a rank of four suits; four 7s with a suit twice is three of a kind (A.5) unless 'any'
    assert cls("a", "7s 7h 7c 7d", 2) == "four_of_a_kind"
    assert cls("a", "7s 7h 7s 7d", 2) == "three_of_a_kind"
    assert cls("a", "7s 7h 7s 7d", 2, four_suits_distinct=False) == "four_of_a_kind"
    assert cls("a", "5s 9h 5c 9d", 2) == "two_pairs"  # A.4 player 5-5, banker 9-9
    assert cls("a", "5s 5h 5c 9d", 2) == "three_of_a_kind"  # A.5
    assert cls("a", "5s 2h 5c 9d 3c", 3) == "one_pair"  # A.6
    assert cls("a", "5s 2h 6c 9d 3c", 3) == "none"
    # B/C count every card; K, Q, J, 10 are different ranks (BAC-13.2.1)
    assert cls("b", "Ks Qs Js Ts 4c 4d", 3) == "none"
    assert cls("b", "Ks Kh Kc 4s 4c 4d", 3) == "two_threes"
    assert cls("c", "Ks Kc Ks Kc Ks Kc", 3) == "six_same_colour"
    assert cls("c", "Ks Kc Ks Kh Ks Kc", 3) == "six_of_a_kind"


@pytest.mark.parametrize("dealt,player,banker", [
    ("As Kh 2c", "As 2c", "Kh"),  # too few cards
    ("As Kh 2c 3d", "Kh 2c", "As 3d"),  # hands do not follow P, B, P, B
    ("As Kh 2c 3d 4s", "As 2c", "Kh 3d"),  # a dealt card in neither hand
])
def test_baccarat_bad_deals_raise_ValueError_BAC_7_1(dealt, player, banker):
    p = hand
    with pytest.raises(ValueError):
        hands.baccarat_class("a", p(dealt), p(player), p(banker))


def test_baccarat_unknown_scheme_raises_ValueError():
    p = hand
    with pytest.raises(ValueError, match="scheme"):
        hands.baccarat_class("d", p("As Kh 2c 3d"), p("As 2c"), p("Kh 3d"))
