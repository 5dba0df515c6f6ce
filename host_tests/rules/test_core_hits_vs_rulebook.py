"""The firmware's hit classifier (tablectl.rules.hits) against the rulebook: a coup's hands by the drawing
rules for every combination of card values (BAC-7.1, BAC-9), and classify_hit against the rulebook's
classes for coups and poker hands drawn by hypothesis (CSP-10.2, F3-15.1, BAC-13.1.4.4)."""
import itertools

import pytest
from hypothesis import given, settings, strategies as st

from rulebook.baccarat import progressive as baccarat_progressive
from rulebook import fortune3
from rulebook.poker import poker5
from rulebook.baccarat.rules import play_coup
from rulebook.cards import Card
from rulebook.errors import RuleError
from tablectl.rules import hands, hits

# one rank of each BAC-5 value: 0 (ten), 1 (ace), 2..9
RANK_OF_VALUE = {0: 8, 1: 12, 2: 0, 3: 1, 4: 2, 5: 3, 6: 4, 7: 5, 8: 6, 9: 7}


def card(c):
    return Card((c >> 2) + 2, "shcd"[c & 3])


def rulebook_deal(cards):
    """The coup the rulebook's drawing rules deal from `cards` (enough of them): its player, banker, count."""
    it = iter(cards)
    coup = play_coup(lambda: card(next(it)))
    return len(coup.cards), coup.player, coup.banker


def test_coup_hands_deal_as_the_rulebook_for_every_value_of_the_first_five_cards_BAC_9():
    for values in itertools.product(range(10), repeat=5):
        deck = [RANK_OF_VALUE[v] << 2 | i % 4 for i, v in enumerate(values)] + [1]  # the 6th: 2h
        n, player, banker = rulebook_deal(deck)
        p, b = hits.coup_hands(deck[:n])
        assert [card(c) for c in p] == list(player) and [card(c) for c in b] == list(banker), values
        for wrong in (n - 1, n + 1):
            if 4 <= wrong <= 6:
                with pytest.raises(ValueError, match="take %d cards, not %d" % (n, wrong)):
                    hits.coup_hands(deck[:wrong])


DECK = st.integers(0, 51)


@settings(max_examples=400, deadline=None)
@given(st.lists(DECK, min_size=6, max_size=6), st.sampled_from("abc"))
def test_classify_hit_of_a_coup_is_the_rulebooks_class_BAC_13_1_4_4(deck, scheme):
    n, player, banker = rulebook_deal(deck)
    dealt = [card(c) for c in deck[:n]]
    want = baccarat_progressive.progressive_class(scheme, player, banker, dealt) or "none"
    assert hits.classify_hit("baccarat_" + scheme, deck[:n]) == want


@settings(max_examples=400, deadline=None)
@given(st.lists(DECK, min_size=5, max_size=5, unique=True))
def test_classify_hit_of_poker_cards_is_the_rulebooks_class_CSP_10_2_F3_15_1(five):
    category = poker5.CATEGORY_IDS[poker5.evaluate([card(c) for c in five])[0]]
    want = category if category in hands.CLASS_IDS else "none"
    assert hits.classify_hit("caribbean_stud", five) == want
    f3 = fortune3.progressive_class([card(c) for c in five[:3]], [card(c) for c in five[3:]])
    assert hits.classify_hit("fortune3", five) == (f3 or "none")


def test_classify_hit_refuses_what_is_no_hand():
    for game, cards in (("caribbean_stud", [0, 1, 2, 3]), ("caribbean_stud", [0, 0, 1, 2, 3]),
                        ("fortune3", [0, 1, 2, 3, 3]), ("baccarat_a", [0, 1, 2]), ("baccarat_d", [0, 1, 2, 3]),
                        ("sicbo", [0, 1, 2, 3, 4])):
        with pytest.raises(ValueError):
            hits.classify_hit(game, cards)
    with pytest.raises(RuleError):  # the reference refuses the same unknown scheme
        baccarat_progressive.progressive_class("d", [], [], [])
