"""Five-card poker hands: category, comparable key, best five of six/seven, Caribbean Stud suit tie-breaks.

evaluate(cards) -> (category, ranks): higher tuples are better hands. `ranks` holds the ranks that
decide between two hands of the category, most significant first:
  ROYAL_FLUSH (14,) · STRAIGHT_FLUSH / STRAIGHT (top,) with the wheel 5-4-3-2-A as (5,) because the
  ace counts lowest there (CSP-4.3, CSP-8.2) · QUADS (quad, kicker) · FULL_HOUSE (trips, pair) ·
  FLUSH / HIGH_CARD five ranks · TRIPS (trips, k1, k2) · TWO_PAIR (high pair, low pair, kicker) ·
  PAIR (pair, k1, k2, k3).
No straight wraps round the ace (Q-K-A-2-3 is not one).

Caribbean Stud (CSP-8) never pushes: csp_key(cards) = (category, ranks, suit) appends the suit value
(spades 3 > hearts 2 > clubs 1 > diamonds 0, CSP-4.1) that settles hands of equal ranks. Two hands
dealt from one deck never have equal csp_keys (every tie-break below lands on cards of disjoint suits).

Internally a card is an int id = (rank - 2) * 4 + suit value, so `id & 3` is the suit value and the
tables below (prime product per rank multiset, rank bitmask per flush) classify a hand with one
dict look-up into a dense class index 0..7461 (higher is better), which is what the exhaustive
analyses compare.
"""
from itertools import combinations, combinations_with_replacement

from ..cards import SUITS, Card, parse_cards
from ..errors import RuleError

HIGH_CARD = 0  # CSP-8.10
PAIR = 1  # CSP-8.9
TWO_PAIR = 2  # CSP-8.8
TRIPS = 3  # CSP-8.7
STRAIGHT = 4  # CSP-8.6
FLUSH = 5  # CSP-8.5
FULL_HOUSE = 6  # CSP-8.4
QUADS = 7  # CSP-8.3
STRAIGHT_FLUSH = 8  # CSP-8.2
ROYAL_FLUSH = 9  # CSP-8.1
CATEGORY_IDS = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
                "full_house", "four_of_a_kind", "straight_flush", "royal_flush")

SUIT_VALUE = {s: 3 - i for i, s in enumerate(SUITS)}  # CSP-4.1: s 3, h 2, c 1, d 0
PAIR_SUIT_CHOICES = ("higher", "lower")

_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # one per rank 2..A


def id_card(cid):
    return Card((cid >> 2) + 2, SUITS[3 - (cid & 3)])


_ID_OF_CARD = {id_card(i): i for i in range(52)}


def card_id(card):
    try:
        return _ID_OF_CARD[card]
    except (KeyError, TypeError):
        raise RuleError("%r is not a card" % (card,)) from None


def _straight_top(ranks_desc):
    """Top rank of five distinct ranks in sequence (5 for the wheel, CSP-4.3), else None."""
    if ranks_desc[0] - ranks_desc[4] == 4:
        return ranks_desc[0]
    if ranks_desc == (14, 5, 4, 3, 2):
        return 5
    return None


def _value_of_ranks(ranks_desc, suited):
    """(category, ranks) of five ranks (sorted high to low) and whether the cards share one suit."""
    counts = {}
    for r in ranks_desc:
        counts[r] = counts.get(r, 0) + 1
    # groups by (count, rank), largest first: the order the tie-breaks of CSP-8 read them in
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    shape = tuple(n for n, _ in groups)
    ranks = tuple(r for _, r in groups)
    if shape == (4, 1):
        return QUADS, ranks
    if shape == (3, 2):
        return FULL_HOUSE, ranks
    if shape == (3, 1, 1):
        return TRIPS, ranks
    if shape == (2, 2, 1):
        return TWO_PAIR, ranks
    if shape == (2, 1, 1, 1):
        return PAIR, ranks
    top = _straight_top(ranks_desc)
    if top is not None:
        if suited:
            return (ROYAL_FLUSH, (14,)) if top == 14 else (STRAIGHT_FLUSH, (top,))
        return STRAIGHT, (top,)
    return (FLUSH if suited else HIGH_CARD), ranks_desc


def _build_tables():
    by_product, by_flush_mask = {}, {}
    for combo in combinations_with_replacement(range(14, 1, -1), 5):
        if any(combo.count(r) > 4 for r in set(combo)):
            continue
        product = 1
        for r in combo:
            product *= _PRIMES[r - 2]
        by_product[product] = _value_of_ranks(combo, False)
        if len(set(combo)) == 5:
            mask = 0
            for r in combo:
                mask |= 1 << r
            by_flush_mask[mask] = _value_of_ranks(combo, True)
    values = sorted(set(by_product.values()) | set(by_flush_mask.values()))
    dense = {v: i for i, v in enumerate(values)}
    return ({k: dense[v] for k, v in by_product.items()},
            {k: dense[v] for k, v in by_flush_mask.items()}, values)


_CLASS_BY_PRODUCT, _CLASS_BY_FLUSH_MASK, CLASS_VALUES = _build_tables()
CLASS_COUNT = len(CLASS_VALUES)  # 7462 distinct (category, ranks)
CLASS_CATEGORY = tuple(v[0] for v in CLASS_VALUES)
# rank whose best-suited card settles equal ranks (CSP-8.1/.2/.5/.6/.8/.9/.10): the top card, the
# (higher) pair; 0 where the regulation compares ranks only (CSP-8.3/.4/.7: no two such hands can tie)
CLASS_TIE_RANK = tuple(0 if v[0] in (TRIPS, FULL_HOUSE, QUADS) else v[1][0] for v in CLASS_VALUES)
_ID_PRIME = tuple(_PRIMES[i >> 2] for i in range(52))
_ID_SUIT = tuple(i & 3 for i in range(52))
_ID_RANKBIT = tuple(1 << ((i >> 2) + 2) for i in range(52))
_ID_RANK = tuple((i >> 2) + 2 for i in range(52))


def class_of_ids(a, b, c, d, e):
    """Dense class index (0..7461, higher is better) of five distinct card ids; no validation."""
    s = _ID_SUIT
    if s[a] == s[b] == s[c] == s[d] == s[e]:
        r = _ID_RANKBIT
        return _CLASS_BY_FLUSH_MASK[r[a] | r[b] | r[c] | r[d] | r[e]]
    p = _ID_PRIME
    return _CLASS_BY_PRODUCT[p[a] * p[b] * p[c] * p[d] * p[e]]


def tie_suit_of_ids(cls, ids, pair_suit="higher"):
    """Suit value (0..3) that settles equal ranks for a hand of class `cls` (CSP-8), 0 if none."""
    rank = CLASS_TIE_RANK[cls]
    if not rank:
        return 0
    rk = _ID_RANK
    # a wheel's tie rank is 5, its highest card, since the ace counts lowest there (CSP-4.3)
    suits = [i & 3 for i in ids if rk[i] == rank]
    if len(suits) > 1 and pair_suit == "lower":
        return min(suits)
    return max(suits)


def csp_score_of_ids(ids, pair_suit="higher"):
    """Caribbean Stud strength as one int (higher wins): class index * 4 + tie-break suit value."""
    cls = class_of_ids(*ids)
    return cls * 4 + tie_suit_of_ids(cls, ids, pair_suit)


def _ids_of(cards, count_ok):
    if not (isinstance(cards, (list, tuple)) and all(type(c) is Card for c in cards)):
        cards = parse_cards(cards)
    if len(cards) not in count_ok:
        raise RuleError("a poker hand here needs %s cards, got %d" % (" or ".join(map(str, count_ok)), len(cards)))
    return distinct_ids(cards)


def distinct_ids(cards):
    """Card ids of Cards dealt from one deck; the same card twice is a RuleError."""
    ids = [card_id(c) for c in cards]
    if len(set(ids)) != len(ids):
        twice = [c for c in cards if ids.count(card_id(c)) > 1][0]
        raise RuleError("card %s appears twice in a one-deck game" % (twice,))
    return ids


def evaluate(cards):
    """(category, ranks) of exactly five distinct cards (Card objects or text); higher is better."""
    return CLASS_VALUES[class_of_ids(*_ids_of(cards, (5,)))]


def best_of(cards):
    """(category, ranks) of the best five of five to seven distinct cards."""
    ids = _ids_of(cards, (5, 6, 7))
    return CLASS_VALUES[max(class_of_ids(*five) for five in combinations(ids, 5))]


def best_five(cards):
    """The five cards (in the order given) that make best_of(cards)."""
    cards = parse_cards(cards)
    ids = _ids_of(cards, (5, 6, 7))
    best = max(combinations(range(len(ids)), 5), key=lambda idx: class_of_ids(*(ids[i] for i in idx)))
    return [cards[i] for i in best]


def category_id(cards):
    """'royal_flush', 'pair', ... of five cards."""
    return CATEGORY_IDS[evaluate(cards)[0]]


def csp_key(cards, pair_suit="higher"):
    """(category, ranks, suit): the Caribbean Stud order of CSP-8, a strict order between two hands
    from one deck. The suit that settles equal ranks (CSP-4.1 values, spades highest):
      royal, straight flush, flush (CSP-8.1/.2/.5): the hand's suit;
      straight, high card (CSP-8.6/.10): the suit of the highest card (the 5 of a wheel, CSP-4.3);
      pair, two pair (CSP-8.9/.8): the suit of the pair (the higher pair for two pair); the text does
        not say which of the pair's two cards counts — pair_suit='higher' (default) takes its higher
        suited card, 'lower' its lower one;
      quads, full house, trips (CSP-8.3/.4/.7): ranks only (suit value 0), as two hands from one
        deck cannot share those ranks.
    """
    if pair_suit not in PAIR_SUIT_CHOICES:
        raise RuleError("pair_suit must be one of %s, got %r" % (", ".join(PAIR_SUIT_CHOICES), pair_suit))
    ids = _ids_of(cards, (5,))
    cls = class_of_ids(*ids)
    category, ranks = CLASS_VALUES[cls]
    return category, ranks, tie_suit_of_ids(cls, ids, pair_suit)


def csp_compare(first, second, pair_suit="higher"):
    """+1 if the first five cards beat the second under CSP-8, -1 if they lose; never 0.

    The two hands come from one deck: a shared card is a RuleError."""
    a, b = parse_cards(first), parse_cards(second)
    distinct_ids(a + b)
    ka, kb = csp_key(a, pair_suit), csp_key(b, pair_suit)
    return 1 if ka > kb else -1


_COUNTS = []


def category_counts():
    """Number of the 2,598,960 five-card hands in each category, by counting suit assignments per
    rank multiset (not by dealing every hand); computed once."""
    if not _COUNTS:
        _COUNTS.extend(_count_categories())
    return list(_COUNTS)


def _count_categories():
    from math import comb
    counts = [0] * len(CATEGORY_IDS)
    for combo in combinations_with_replacement(range(14, 1, -1), 5):
        multiplicities = [combo.count(r) for r in set(combo)]
        if max(multiplicities) > 4:
            continue
        ways = 1
        for m in multiplicities:
            ways *= comb(4, m)
        if len(multiplicities) == 5:
            ways -= 4  # the one-suit assignments are flushes
            counts[_value_of_ranks(combo, True)[0]] += 4
        counts[_value_of_ranks(combo, False)[0]] += ways
    return counts
