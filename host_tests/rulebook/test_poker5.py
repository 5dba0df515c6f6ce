"""rulebook.poker.poker5: every five-card hand against the textbook counts, ordering against an independent
naive ranking, the wheel (CSP-4.3) and the Caribbean Stud suit tie-breaks of CSP-8, one test per row."""
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.poker import poker5
from rulebook.cards import deck, parse_cards
from rulebook.errors import RuleError

TEXTBOOK = {  # the published counts of the 2,598,960 five-card hands
    "royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3744, "flush": 5108,
    "straight": 10200, "three_of_a_kind": 54912, "two_pair": 123552, "pair": 1098240, "high_card": 1302540,
}
DECK = deck()


def naive_key(cards):
    """An independent ranking written from the rules: (category, tie-break ranks), higher is better."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    top = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            top = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            top = 5
    by_count = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [n for _, n in by_count]
    order = tuple(r for r, _ in by_count)
    if top and flush:
        return (9, (14,)) if top == 14 else (8, (top,))
    if shape[0] == 4:
        return 7, order
    if shape == [3, 2]:
        return 6, order
    if flush:
        return 5, tuple(ranks)
    if top:
        return 4, (top,)
    if shape[0] == 3:
        return 3, order
    if shape[:2] == [2, 2]:
        return 2, order
    if shape[0] == 2:
        return 1, order
    return 0, tuple(ranks)


SUIT_RANK = {"s": 3, "h": 2, "c": 1, "d": 0}  # CSP-4.1


def naive_csp_key(cards):
    """CSP-8 written out separately: naive_key plus the suit of the card the article names."""
    category, ranks = naive_key(cards)
    if category in (3, 6, 7):  # trips, full house, quads: ranks only (CSP-8.3/.4/.7)
        return category, ranks, 0
    deciding = ranks[0]  # top card (the wheel's 5), the pair, the higher pair; any card of a flush
    if category in (5, 8, 9):
        deciding = cards[0].rank
    return category, ranks, max(SUIT_RANK[c.suit] for c in cards if c.rank == deciding)


five_cards = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
ten_cards = st.lists(st.sampled_from(DECK), min_size=10, max_size=10, unique=True)


def test_all_2598960_hands_match_the_textbook_counts():
    counts = [0] * 10
    category, classify = poker5.CLASS_CATEGORY, poker5.class_of_ids
    for hand in combinations(range(52), 5):
        counts[category[classify(*hand)]] += 1
    assert dict(zip(poker5.CATEGORY_IDS, counts)) == TEXTBOOK
    assert sum(counts) == 2598960


def test_category_counts_by_rank_multisets_agree_with_the_textbook():
    assert dict(zip(poker5.CATEGORY_IDS, poker5.category_counts())) == TEXTBOOK


def test_constants_and_ids():
    assert (poker5.HIGH_CARD, poker5.PAIR, poker5.TWO_PAIR, poker5.TRIPS, poker5.STRAIGHT, poker5.FLUSH,
            poker5.FULL_HOUSE, poker5.QUADS, poker5.STRAIGHT_FLUSH, poker5.ROYAL_FLUSH) == tuple(range(10))
    assert poker5.CATEGORY_IDS[poker5.ROYAL_FLUSH] == "royal_flush"
    assert poker5.CLASS_COUNT == 7462  # distinct hand values of standard poker


@settings(max_examples=400, deadline=None)
@given(five_cards)
def test_evaluate_matches_the_naive_ranking(cards):
    assert poker5.evaluate(cards) == naive_key(cards)


@settings(max_examples=250, deadline=None)
@given(five_cards, five_cards)
def test_order_matches_the_naive_ranking(a, b):
    ea, eb = poker5.evaluate(a), poker5.evaluate(b)
    na, nb = naive_key(a), naive_key(b)
    assert (ea > eb) == (na > nb) and (ea == eb) == (na == nb)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=6, max_size=7, unique=True))
def test_best_of_is_the_best_five(cards):
    assert poker5.best_of(cards) == max(naive_key(five) for five in combinations(cards, 5))
    assert poker5.evaluate(poker5.best_five(cards)) == poker5.best_of(cards)


def test_best_of_examples():
    assert poker5.best_of("As Ks Qs Js Ts 2d 3d") == (poker5.ROYAL_FLUSH, (14,))
    assert poker5.best_of("9h 8h 7h 6h 2h 5c") == (poker5.FLUSH, (9, 8, 7, 6, 2))
    assert poker5.best_of("9h 8h 7h 6h 2h 5h") == (poker5.STRAIGHT_FLUSH, (9,))
    assert poker5.best_of("Kd Kc Ks 2h 2c 2d 9s") == (poker5.FULL_HOUSE, (13, 2))


def test_wheel_is_the_lowest_straight_CSP_4_3():
    wheel = poker5.evaluate("Ah 2d 3c 4s 5h")
    assert wheel == (poker5.STRAIGHT, (5,))
    assert wheel < poker5.evaluate("2d 3c 4s 5h 6h")
    assert wheel > poker5.evaluate("Ah Ad Ac Ks Qs")  # still beats three of a kind
    assert poker5.evaluate("Kh Ad 2c 3s 4h")[0] == poker5.HIGH_CARD  # no wrap round the ace


def test_wheel_is_the_lowest_straight_flush_CSP_8_2():
    assert poker5.evaluate("Ad 2d 3d 4d 5d") == (poker5.STRAIGHT_FLUSH, (5,))
    assert poker5.evaluate("Ad 2d 3d 4d 5d") < poker5.evaluate("2s 3s 4s 5s 6s")
    assert poker5.evaluate("9c Tc Jc Qc Kc") < poker5.evaluate("Tc Jc Qc Kc Ac")


def beats(a, b, **kw):
    return poker5.csp_compare(a, b, **kw) == 1


def test_royal_flush_higher_suit_wins_CSP_8_1():
    assert beats("As Ks Qs Js Ts", "Ah Kh Qh Jh Th")
    assert beats("Ac Kc Qc Jc Tc", "Ad Kd Qd Jd Td")
    assert beats("Ad Kd Qd Jd Td", "9s Ks Qs Js Ts")  # any royal beats any straight flush


def test_straight_flush_ranks_then_suit_CSP_8_2():
    assert beats("9d Td Jd Qd Kd", "8s 9s Ts Js Qs")
    assert beats("5h 6h 7h 8h 9h", "5c 6c 7c 8c 9c")
    assert beats("2c 3c 4c 5c 6c", "Ad 2d 3d 4d 5d")


def test_four_of_a_kind_rank_only_kicker_not_counted_CSP_8_3():
    assert beats("Ks Kh Kc Kd 2s", "Qs Qh Qc Qd As")
    assert poker5.csp_key("Ks Kh Kc Kd 2s")[2] == 0  # no suit enters


def test_full_house_by_the_three_CSP_8_4():
    assert beats("8s 8h 8d 2c 2d", "7s 7h 7c As Ah")


def test_flush_card_by_card_then_suit_CSP_8_5():
    assert beats("Ts 9s 7s 5s 3s", "Th 9h 7h 5h 2h")
    assert beats("Kd 9d 7d 5d 2d", "Qs Js 9s 8s 7s")
    assert beats("Ts 9s 7s 5s 2s", "Th 9h 7h 5h 2h")  # equal ranks: spades
    assert beats("Tc 9c 7c 5c 2c", "Td 9d 7d 5d 2d")


def test_straight_ranks_then_suit_of_highest_card_CSP_8_6():
    assert beats("6d 7d 8d 9d Th", "5s 6s 7s 8s 9h")
    assert beats("6d 7d 8d 9d Ts", "6s 7s 8s 9s Th")  # the ten's suit decides, not the others
    # wheel: its highest card is the 5 (CSP-4.3), so the 5's suit decides, not the ace's
    assert beats("Ad 2d 3d 4h 5s", "As 2s 3s 4s 5h")


def test_three_of_a_kind_by_the_three_CSP_8_7():
    assert beats("Ks Kh Kc 6d 5d", "Qs Qh Qc As Jh")
    assert poker5.csp_key("Ks Kh Kc 6d 5d")[2] == 0


def test_two_pair_pairs_then_odd_card_then_suit_of_higher_pair_CSP_8_8():
    assert beats("Ts Th 6s 6h 5d", "9s 9h 8s 8h Ad")
    assert beats("Ts Th 7s 7h 5d", "Tc Td 6s 6h Ad")
    assert beats("Ts Th 6s 6h 5d", "Tc Td 6c 6d 4d")
    # everything equal: the higher pair's suits decide (Interpretation: its higher-suited card)
    assert beats("Ks Kd 5h 5c 2s", "Kh Kc 5s 5d 2h")
    assert beats("Kh Kc 5s 5d 2h", "Ks Kd 5h 5c 2s", pair_suit="lower")


def test_one_pair_pair_then_odd_cards_then_suit_of_pair_CSP_8_9():
    assert beats("Ts Th 2d 3c 4s", "9s 9h Ad Kc Qs")
    assert beats("Ts Th 9d 7c 6s", "Tc Td 9s 7d 5s")
    assert beats("Ts Td 9h 7c 6s", "Th Tc 9s 7d 6h")  # spade in the pair
    assert beats("Th Tc 9s 7d 6h", "Ts Td 9h 7c 6s", pair_suit="lower")  # diamond is the lowest card


def test_high_card_card_by_card_then_suit_of_highest_CSP_4_2_CSP_8_10():
    assert beats("As Jd 9c 7h 2d", "Kd Qd Jh 9s 8s")
    assert beats("As Kd 9c 7h 3d", "Ah Ks 9s 7s 2c")
    assert beats("Ah Kd 9c 7h 2d", "Ac Ks 9s 7s 2c")  # equal ranks: the ace's suit


@settings(max_examples=400, deadline=None)
@given(ten_cards, st.sampled_from(poker5.PAIR_SUIT_CHOICES))
def test_two_hands_from_one_deck_never_tie_CSP_8(cards, pair_suit):
    a, b = cards[:5], cards[5:]
    ka, kb = poker5.csp_key(a, pair_suit), poker5.csp_key(b, pair_suit)
    assert ka != kb
    assert poker5.csp_compare(a, b, pair_suit) == -poker5.csp_compare(b, a, pair_suit)
    if naive_key(a) != naive_key(b):  # the suit only ever settles equal ranks
        assert (ka > kb) == (naive_key(a) > naive_key(b))


@settings(max_examples=500, deadline=None)
@given(ten_cards)
def test_csp_order_matches_an_independent_reading_of_CSP_8(cards):
    a, b = cards[:5], cards[5:]
    assert naive_csp_key(a) != naive_csp_key(b)
    assert poker5.csp_compare(a, b) == (1 if naive_csp_key(a) > naive_csp_key(b) else -1)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_equal_rank_hands_are_always_settled_by_suit_CSP_8(data):
    """Hands with the same ranks (the only ones where the suit matters) from one deck."""
    ranks = data.draw(st.lists(st.sampled_from("23456789TJQKA"), min_size=5, max_size=5, unique=True))
    suits = data.draw(st.permutations("shcd"))
    a = ["%s%s" % (r, data.draw(st.sampled_from("shcd"))) for r in ranks]
    b = ["%s%s" % (r, suits[0] if x[1] != suits[0] else suits[1]) for r, x in zip(ranks, a)]
    a, b = parse_cards(a), parse_cards(b)
    assert poker5.csp_compare(a, b) == (1 if naive_csp_key(a) > naive_csp_key(b) else -1)


@pytest.mark.parametrize("bad", ["As Ks Qs Js", "As Ks Qs Js Ts 9s", "As As Qs Js Ts", "As Ks Qs Js Tx", ""])
def test_evaluate_rejects_bad_hands(bad):
    with pytest.raises(RuleError):
        poker5.evaluate(bad)


def test_best_of_and_compare_reject_bad_input():
    with pytest.raises(RuleError):
        poker5.best_of("As Ks Qs Js")
    with pytest.raises(RuleError):
        poker5.best_of("As Ks Qs Js Ts 9s 8s 7s")
    with pytest.raises(RuleError):
        poker5.best_of("As Ks Qs Js Ts As")
    with pytest.raises(RuleError, match="twice"):
        poker5.csp_compare("As Ks Qs Js Ts", "As 2d 3d 4d 5d")
    with pytest.raises(RuleError):
        poker5.csp_key("As Ks Qs Js Ts", pair_suit="middle")


def test_card_ids_round_trip_and_encode_the_suit_order_CSP_4_1():
    for card in DECK:
        assert poker5.id_card(poker5.card_id(card)) == card
    assert [poker5.card_id(c) & 3 for c in parse_cards("2s 2h 2c 2d")] == [3, 2, 1, 0]
