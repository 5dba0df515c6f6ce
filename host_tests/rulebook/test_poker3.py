"""Three-card ranking of Fortune 3 (F3-6, F3-7.1) against the textbook counts and the regulation's orders."""
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.poker import poker3
from rulebook.cards import Card, deck, parse_cards
from rulebook.errors import RuleError

ALL_HANDS = list(combinations(deck(), 3))

# F3-6.2 as printed, highest first; 10 written as T.
SEQUENCES = ["AKQ", "KQJ", "QJT", "JT9", "T98", "987", "876", "765", "654", "543", "432", "32A"]
RANK_OF = {ch: i + 2 for i, ch in enumerate("23456789TJQKA")}


def independent_category(hand):
    """A second formulation of F3-7.1: by the set of ranks and the set of suits."""
    ranks = sorted(c.rank for c in hand)
    one_suit = len({c.suit for c in hand}) == 1
    in_sequence = any(sorted(RANK_OF[ch] for ch in seq) == ranks for seq in SEQUENCES)
    if in_sequence and one_suit:
        return "straight_flush"
    if len(set(ranks)) == 1:
        return "three_of_a_kind"
    if in_sequence:
        return "straight"
    if one_suit:
        return "flush"
    if len(set(ranks)) == 2:
        return "pair"
    return "high_card"


def test_all_22100_hands_match_textbook_counts_F3_7_1():
    counts = Counter(poker3.CATEGORY_IDS[poker3.category(h)] for h in ALL_HANDS)
    assert len(ALL_HANDS) == 22100
    assert counts == {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720, "flush": 1096,
                      "pair": 3744, "high_card": 16440}


def test_every_hand_classified_as_the_independent_reading_F3_7_1():
    mismatched = [h for h in ALL_HANDS if poker3.CATEGORY_IDS[poker3.category(h)] != independent_category(h)]
    assert mismatched == []


def test_category_order_F3_7_1():
    # F3-7.1.1 .. F3-7.1.6, high to low
    order = ["straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card"]
    constants = [poker3.STRAIGHT_FLUSH, poker3.THREE_OF_A_KIND, poker3.STRAIGHT, poker3.FLUSH,
                 poker3.PAIR, poker3.HIGH_CARD]
    assert [poker3.CATEGORY_IDS[c] for c in constants] == order
    assert constants == sorted(constants, reverse=True)


def test_worst_hand_of_each_category_beats_best_of_the_next_F3_7_1():
    best, worst = {}, {}
    for h in ALL_HANDS:
        key = poker3.evaluate(h)
        best[key[0]] = max(best.get(key[0], key), key)
        worst[key[0]] = min(worst.get(key[0], key), key)
    for cat in range(1, 6):
        assert worst[cat] > best[cat - 1]


def test_sequences_rank_as_printed_A_K_Q_high_3_2_A_low_F3_6_2():
    suits = "shc"  # three suits: a straight, not a straight flush
    keys = [poker3.evaluate([Card(RANK_OF[ch], s) for ch, s in zip(seq, suits)]) for seq in SEQUENCES]
    assert all(k[0] == poker3.STRAIGHT for k in keys)
    assert all(a > b for a, b in zip(keys, keys[1:]))
    suited = [poker3.evaluate([Card(RANK_OF[ch], "d") for ch in seq]) for seq in SEQUENCES]
    assert all(k[0] == poker3.STRAIGHT_FLUSH for k in suited)
    assert all(a > b for a, b in zip(suited, suited[1:]))


def test_no_wrap_around_sequence_F3_6_2():
    assert poker3.category("Ks,Ah,2c") == poker3.HIGH_CARD
    assert poker3.category("Qh,Ah,2h") == poker3.FLUSH


def test_straight_needs_not_all_one_suit_F3_7_1_3():
    # two of one suit and one of another is still a straight ("not of one suit")
    assert poker3.category("7h,8h,9c") == poker3.STRAIGHT
    assert poker3.category("7h,8s,9c") == poker3.STRAIGHT


def test_high_cards_compare_in_F3_6_1_order_card_by_card_F3_7_1_6():
    assert poker3.compare("Ah,5c,3d", "Ks,Qh,Tc") == 1  # the highest card decides
    assert poker3.compare("Ah,9c,2d", "As,8h,7c") == 1  # then the second
    assert poker3.compare("Ah,9c,3d", "As,9h,2c") == 1  # then the third
    assert poker3.compare("Ah,9c,3d", "As,9h,3c") == 0  # equal ranks: tie (Interpretation)


def test_flush_compares_card_by_card_and_ties_F3_7_1_4():
    assert poker3.compare("Ah,9h,3h", "Ks,Qs,Ts") == 1
    assert poker3.compare("Ah,9h,4h", "As,9s,3s") == 1
    assert poker3.compare("Ah,9h,4h", "As,9s,4s") == 0


def test_pairs_compare_pair_then_odd_card_F3_7_1_5():
    assert poker3.compare("5h,5c,2d", "4s,4h,Ac") == 1
    assert poker3.compare("5h,5c,Kd", "5s,5d,Qc") == 1
    assert poker3.compare("5h,5c,Kd", "5s,5d,Kc") == 0


def test_trips_and_straights_compare_by_rank_F3_7_1_2_F3_7_1_3():
    assert poker3.compare("3h,3c,3d", "2s,2h,2c") == 1
    assert poker3.compare("As,2h,3c", "4s,2d,3h") == -1  # 3-2-A is the lowest sequence
    assert poker3.compare("Ks,Qd,Jh", "Kh,Qs,Jc") == 0


def test_distinct_keys_and_hands_per_key_exhaustive():
    # Independent count of equivalence classes: for a rank set or multiset, how many hands share its key.
    per_key = Counter(poker3.evaluate(h) for h in ALL_HANDS)
    expected_classes = (286 - 12) * 2 + 13 * 12 + 12 + 13 + 12  # high+flush, pair, straight, trips, SF
    assert len(per_key) == expected_classes == poker3.STRENGTH_COUNT
    hands_per_class = {poker3.HIGH_CARD: 4 ** 3 - 4, poker3.FLUSH: 4, poker3.PAIR: 6 * 4,
                       poker3.STRAIGHT: 4 ** 3 - 4, poker3.THREE_OF_A_KIND: 4, poker3.STRAIGHT_FLUSH: 4}
    assert all(n == hands_per_class[key[0]] for key, n in per_key.items())


def test_strength_is_the_dense_order_of_keys():
    pairs = {poker3.evaluate(h): poker3.strength(h) for h in ALL_HANDS}
    ordered = sorted(pairs)
    assert [pairs[k] for k in ordered] == list(range(len(ordered)))
    assert poker3.strength_of_key(ordered[-1]) == poker3.STRENGTH_COUNT - 1


hands = st.lists(st.sampled_from(deck()), min_size=6, max_size=6, unique=True)


@settings(max_examples=300, deadline=None)
@given(hands, st.permutations("shcd"))
def test_compare_is_antisymmetric_and_suit_blind(cards, perm):
    a, b = cards[:3], cards[3:]
    assert poker3.compare(a, b) == -poker3.compare(b, a)
    rename = dict(zip("shcd", perm))
    a2 = [Card(c.rank, rename[c.suit]) for c in a]
    assert poker3.evaluate(a2) == poker3.evaluate(a)


@settings(max_examples=300, deadline=None)
@given(hands)
def test_tie_only_with_same_ranks_and_suitedness(cards):
    a, b = cards[:3], cards[3:]
    same = (sorted(c.rank for c in a) == sorted(c.rank for c in b)
            and (len({c.suit for c in a}) == 1) == (len({c.suit for c in b}) == 1))
    assert (poker3.compare(a, b) == 0) == same


@pytest.mark.parametrize("text, words", [
    ("As,Kd", "3 cards"), ("As,Kd,Qh,Jc", "3 cards"), ("As,As,Kd", "twice"), ("As,Kd,1h", "bad card"),
])
def test_bad_hands_raise_rule_error(text, words):
    with pytest.raises(RuleError, match=words):
        poker3.evaluate(text)


def test_parse_forms_agree():
    expected = (poker3.STRAIGHT_FLUSH, (12,))
    assert poker3.evaluate("10h Jh Qh") == poker3.evaluate(parse_cards("Th,Jh,Qh")) == expected
