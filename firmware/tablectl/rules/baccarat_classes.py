"""Baccarat progressive classes A/B/C of one coup (BAC-13.1.4.4, BAC-13.2); see hands.baccarat_class.

Loaded by hands.baccarat_class on first use, so the poker progressive games never hold it in RAM.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from . import cards as _cards
from .hands import BACCARAT_CLASS_IDS

_ROYAL_MASK = const(0x1F00)  # ranks T J Q K A (8..12)
_ACE = const(12)


def _check_deal(dealt, player, banker):
    _cards.check_shoe(dealt, 4, 6)
    _cards.check_shoe(player, 2, 3)
    _cards.check_shoe(banker, 2, 3)
    if len(player) + len(banker) != len(dealt):
        raise ValueError("the player's and banker's cards must be exactly the cards dealt")
    # BAC-7.1: P, B, P, B; then the player's third card (if any) before the banker's (BAC-9)
    order = [player[0], banker[0], player[1], banker[1]]
    if len(player) == 3:
        order.append(player[2])
    if len(banker) == 3:
        order.append(banker[2])
    for i in range(len(dealt)):
        if dealt[i] != order[i]:
            raise ValueError("cards are dealt P, B, P, B then third cards (BAC-7.1): card %d is %s, "
                             "the hands say %s" % (i + 1, _cards.name(dealt[i]), _cards.name(order[i])))


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


def classify(scheme, cards_in_deal_order, player_cards, banker_cards, four_suits_distinct=True):
    if scheme not in BACCARAT_CLASS_IDS:
        raise ValueError("baccarat jackpot scheme is 'a', 'b' or 'c', got %r" % (scheme,))
    _check_deal(cards_in_deal_order, player_cards, banker_cards)
    if scheme == "a":
        return _class_a(cards_in_deal_order, player_cards, banker_cards, four_suits_distinct)
    return _class_bc(scheme, cards_in_deal_order)
