"""Three-card poker hands of Fortune 3 Card Poker: category, comparable key and dense strength (F3-6, F3-7.1).

Order (F3-7.1, high to low): straight flush > three of a kind > straight > flush > pair > high card.
Single cards rank A high, 2 low (F3-6.1); sequences run A-K-Q (highest) down to 3-2-A (lowest, the ace
counting 1; F3-6.2), and no sequence wraps (K-A-2 is not a straight).

A hand's key is (category, ranks) and a higher key is a better hand; two hands with equal keys tie
(F3-7.1.1/.3/.4/.5 call that 和局; F3-7.1.6 states no tie for three odd cards, and equal ranks are
taken as a tie there too). `strength()` maps the key to a dense int 0..740 (higher is better) for the
exact tables, where comparing small ints is what keeps them fast.
"""
from itertools import combinations_with_replacement

from ..cards import Card, check_single_deck, parse_cards
from ..errors import RuleError

HIGH_CARD = 0  # F3-7.1.6 three odd cards
PAIR = 1  # F3-7.1.5
FLUSH = 2  # F3-7.1.4
STRAIGHT = 3  # F3-7.1.3
THREE_OF_A_KIND = 4  # F3-7.1.2
STRAIGHT_FLUSH = 5  # F3-7.1.1
CATEGORY_IDS = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")

ACE = 14


def _sequence_high(ranks_desc):
    """High rank of a three-card sequence per F3-6.2 (3 for 3-2-A), or None."""
    a, b, c = ranks_desc
    if a - 1 == b and b - 1 == c:
        return a
    if (a, b, c) == (ACE, 3, 2):
        return 3
    return None


def _key_of_ranks(ranks_desc, suited):
    """(category, tie-break ranks) from three ranks sorted high to low and whether all share a suit."""
    a, b, c = ranks_desc
    if a == b == c:
        return THREE_OF_A_KIND, (a,)
    if a == b or b == c:
        pair, odd = (a, c) if a == b else (b, a)
        return PAIR, (pair, odd)
    high = _sequence_high(ranks_desc)
    if high is not None:
        # F3-7.1.3: a straight is "not of one suit"; three suited cards in sequence are the SF.
        return (STRAIGHT_FLUSH if suited else STRAIGHT), (high,)
    return (FLUSH if suited else HIGH_CARD), ranks_desc


def _build_tables():
    keys = {}
    for ranks in combinations_with_replacement(range(14, 1, -1), 3):
        keys[(ranks, False)] = _key_of_ranks(ranks, False)
        if ranks[0] != ranks[1] and ranks[1] != ranks[2]:
            keys[(ranks, True)] = _key_of_ranks(ranks, True)
    ordered = sorted(set(keys.values()))
    dense = {key: i for i, key in enumerate(ordered)}
    return keys, {k: dense[v] for k, v in keys.items()}, ordered


_KEYS, _STRENGTH, KEYS_IN_ORDER = _build_tables()
STRENGTH_COUNT = len(KEYS_IN_ORDER)


def checked(cards):
    """Three distinct Cards from Cards or text; RuleError otherwise."""
    hand = parse_cards(cards)
    if len(hand) != 3:
        raise RuleError("a Fortune 3 hand has 3 cards, got %d: %s" % (len(hand), ",".join(map(str, hand))))
    check_single_deck(hand)
    return hand


def _lookup(cards, table):
    a, b, c = cards
    ranks = tuple(sorted((a.rank, b.rank, c.rank), reverse=True))
    return table[(ranks, a.suit == b.suit == c.suit)]


def evaluate(cards):
    """(category, ranks) of three cards; a higher tuple is a better hand, equal tuples tie."""
    return _lookup(checked(cards), _KEYS)


def category(cards):
    return evaluate(cards)[0]


def strength(cards):
    """Dense strength 0..STRENGTH_COUNT-1 of three Cards (not validated: for the exact tables)."""
    return _lookup(cards, _STRENGTH)


def strength_of_key(key):
    """Dense strength of an evaluate() key."""
    if key not in _DENSE:
        raise RuleError("%r is not a three-card hand key" % (key,))
    return _DENSE[key]


_DENSE = {key: i for i, key in enumerate(KEYS_IN_ORDER)}


def compare(first, second):
    """1 if the first hand is higher, -1 if lower, 0 for a tie (F3-7.1)."""
    a, b = evaluate(first), evaluate(second)
    return (a > b) - (a < b)


def describe(key):
    """'pair of 5s, K' style text for an evaluate() key."""
    cat, ranks = key
    names = "".join(str(Card(r, "s"))[0] for r in ranks)
    return "%s %s" % (CATEGORY_IDS[cat], names)
