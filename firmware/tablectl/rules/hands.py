"""Jackpot hand classes: Caribbean Stud 5 cards, Fortune 3's 3 + 2 community cards, baccarat A/B/C.

Cards are ints 0..51 (see cards.py). Poker progressive classes, higher is better:
    NONE=0, FLUSH=1, FULL_HOUSE=2, FOUR=3, STRAIGHT_FLUSH=4, ROYAL=5
    CLASS_IDS = ('none', 'flush', 'full_house', 'four_of_a_kind', 'straight_flush', 'royal_flush'), an
                ids.SpotIds (indexing, slices, index, iteration: one string, not a str per id)
    classify5(cards) -> class            CSP-10.2: the player's five cards
    classify_3_plus_2(three, two) -> class
        F3-13.7 / F3-15.1: the player's three cards with the two community cards make exactly one
        five-card hand, so this is classify5 of the five (no "best of" choice exists).
A-2-3-4-5 is a straight (CSP-4.3, F3-6.3) and so, suited, a straight flush; A-K-Q-J-10 suited is the
royal flush (CSP-8.1, F3-7.2.1). ValueError for a bad card, a card twice or a wrong count.

Baccarat progressive (BAC-13.1.4.4, BAC-13.2): class codes per scheme, 0 = no award, higher is better;
the ids are rulebook.baccarat.progressive's (ids.SpotIds, like CLASS_IDS):
    BACCARAT_CLASS_IDS['a'] = ('none', 'one_pair', 'three_of_a_kind', 'two_pairs', 'four_of_a_kind',
                               'paradise_straight', 'royal')
    BACCARAT_CLASS_IDS['b'] = ('none', 'three', 'four', 'two_threes', 'five_of_a_kind', 'six_of_a_kind')
    BACCARAT_CLASS_IDS['c'] = ('none', 'three', 'four', 'two_threes', 'five_of_a_kind', 'six_of_a_kind',
                               'six_same_colour')
    baccarat_class(scheme, cards_in_deal_order, player_cards, banker_cards, four_suits_distinct=True)
        -> class code of the highest class the coup makes. The deal is P, B, P, B then third cards
        (BAC-7.1); the hands must be exactly the 4..6 dealt cards (duplicates allowed: 6-12 decks).
    (a hit's cards by game, a coup's hands by the drawing rules: tablectl.rules.hits)
Readings (the same as the rulebook's): A's "first five cards" are the first five dealt, so a four-card
coup makes no royal or paradise straight; A.3 "same rank but different suits" needs four different
suits (four_suits_distinct=False accepts any suits; four of a rank that fails it still holds three of
a kind); B/C count ranks over every card of the coup, K, Q, J and 10 being different ranks (BAC-13.2.1).
"""
from tablectl import const

from . import cards as _cards
from .ids import SpotIds

NONE = const(0)
FLUSH = const(1)
FULL_HOUSE = const(2)
FOUR = const(3)
STRAIGHT_FLUSH = const(4)
ROYAL = const(5)
CLASS_IDS = SpotIds(" none flush full_house four_of_a_kind straight_flush royal_flush ")

_ROYAL_MASK = const(0x1F00)  # ranks T J Q K A (8..12)
_WHEEL_MASK = const(0x100F)  # ranks A 2 3 4 5 (12, 0..3): CSP-4.3, the ace counts low


def _class5(c0, c1, c2, c3, c4):
    """Progressive class of five distinct valid cards."""
    r0, r1, r2, r3, r4 = c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, c4 >> 2
    # equal-rank pairs among the five: 6 = four of a kind, 4 = full house (3 + 1), 0 = five ranks
    pairs = ((r0 == r1) + (r0 == r2) + (r0 == r3) + (r0 == r4) + (r1 == r2) + (r1 == r3) + (r1 == r4)
             + (r2 == r3) + (r2 == r4) + (r3 == r4))
    if pairs == 6:
        return FOUR  # CSP-8.3
    if pairs == 4:
        return FULL_HOUSE  # CSP-8.4
    if pairs:
        return NONE
    s = c0 & 3
    if (c1 & 3) != s or (c2 & 3) != s or (c3 & 3) != s or (c4 & 3) != s:
        return NONE  # five ranks and no flush: at best a straight, which has no progressive award
    mask = (1 << r0) | (1 << r1) | (1 << r2) | (1 << r3) | (1 << r4)
    low = mask & -mask
    if mask == low * 31 or mask == _WHEEL_MASK:  # five consecutive ranks
        return ROYAL if mask == _ROYAL_MASK else STRAIGHT_FLUSH  # CSP-8.1, CSP-8.2
    return FLUSH  # CSP-8.5


def classify5(cards):
    _cards.check(cards, 5)
    return _class5(cards[0], cards[1], cards[2], cards[3], cards[4])


def classify_3_plus_2(three, two):
    _cards.check(three, 3)
    _cards.check(two, 2)
    five = (three[0], three[1], three[2], two[0], two[1])
    _cards.check(five, 5)  # a community card may not also be in the player's hand
    return _class5(five[0], five[1], five[2], five[3], five[4])


# ---- baccarat ----------------------------------------------------------------------------------

BACCARAT_CLASS_IDS = {
    "a": SpotIds(" none one_pair three_of_a_kind two_pairs four_of_a_kind paradise_straight royal "),
    "b": SpotIds(" none three four two_threes five_of_a_kind six_of_a_kind "),
    "c": SpotIds(" none three four two_threes five_of_a_kind six_of_a_kind six_same_colour "),
}


_ACE = const(12)


def _check_deal(dealt, player, banker):
    _cards.check_shoe(dealt, 4, 6)
    _cards.check_shoe(player, 2, 3)
    _cards.check_shoe(banker, 2, 3)
    if len(player) + len(banker) != len(dealt):
        raise ValueError("the hands must hold exactly the cards dealt")
    # BAC-7.1: P, B, P, B; then the player's third card (if any) before the banker's (BAC-9)
    order = [player[0], banker[0], player[1], banker[1]]
    if len(player) == 3:
        order.append(player[2])
    if len(banker) == 3:
        order.append(banker[2])
    for i in range(len(dealt)):
        if dealt[i] != order[i]:
            raise ValueError("deal order is P B P B, then third cards (BAC-7.1): card %d is %s, not %s"
                             % (i + 1, _cards.name(dealt[i]), _cards.name(order[i])))


def _class_a(dealt, player, banker, four_suits_distinct):
    if len(dealt) >= 5:
        mask = 0
        for i in range(5):
            mask |= 1 << (dealt[i] >> 2)
        if mask == _ROYAL_MASK:  # five cards over five ranks: each of T J Q K A once
            suit = -1
            ace_suit = -1
            same = True
            for i in range(5):
                c = dealt[i]
                if c >> 2 == _ACE:
                    ace_suit = c & 3
                elif suit < 0:
                    suit = c & 3
                elif c & 3 != suit:
                    same = False
            if same:
                return 6 if ace_suit == suit else 5  # BAC-13.1.4.4.A.1 royal, A.2 paradise straight
    r0, r1, r2, r3 = dealt[0] >> 2, dealt[1] >> 2, dealt[2] >> 2, dealt[3] >> 2
    if r0 == r1 == r2 == r3:
        if not four_suits_distinct:
            return 4  # A.3
        s0, s1, s2, s3 = dealt[0] & 3, dealt[1] & 3, dealt[2] & 3, dealt[3] & 3
        if s0 != s1 and s0 != s2 and s0 != s3 and s1 != s2 and s1 != s3 and s2 != s3:
            return 4  # A.3: "the same, but of different suits"
    p_pair = player[0] >> 2 == player[1] >> 2  # BAC-13.1.4.1
    b_pair = banker[0] >> 2 == banker[1] >> 2
    if p_pair and b_pair and player[0] >> 2 != banker[0] >> 2:
        return 3  # A.4 two pairs of different ranks
    # A.5: three of one rank among the first four (any three of four positions)
    if (r0 == r1 == r2) or (r0 == r1 == r3) or (r0 == r2 == r3) or (r1 == r2 == r3):
        return 2
    if p_pair or b_pair:
        return 1  # A.6
    return 0


def _class_bc(scheme, dealt):
    n = len(dealt)
    top = second = 0
    for i in range(n):  # rank multiplicities over every card of the coup (BAC-13.2.2, 13.2.3)
        r = dealt[i] >> 2
        first = True
        for j in range(i):
            if dealt[j] >> 2 == r:
                first = False
                break
        if first:
            k = 0
            for j in range(i, n):
                if dealt[j] >> 2 == r:
                    k += 1
            if k > top:
                top, second = k, top
            elif k > second:
                second = k
    if top == 6:
        if scheme == "c":
            colour = dealt[0] & 1  # spades/clubs (0, 2) black, hearts/diamonds (1, 3) red: C.1
            for c in dealt:
                if c & 1 != colour:
                    return 5
            return 6  # C.1
        return 5  # B.1, C.2
    if top == 5:
        return 4
    if top == 3 and second == 3:
        return 3
    if top == 4:
        return 2
    if top == 3:
        return 1
    return 0


def baccarat_class(scheme, cards_in_deal_order, player_cards, banker_cards, four_suits_distinct=True):
    if scheme not in BACCARAT_CLASS_IDS:
        raise ValueError("baccarat jackpot scheme is 'a', 'b' or 'c', got %r" % (scheme,))
    _check_deal(cards_in_deal_order, player_cards, banker_cards)
    if scheme == "a":
        return _class_a(cards_in_deal_order, player_cards, banker_cards, four_suits_distinct)
    return _class_bc(scheme, cards_in_deal_order)

