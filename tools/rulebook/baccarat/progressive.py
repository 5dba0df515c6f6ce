"""Baccarat progressive jackpots A, B and C (BAC-13.1.4.4, BAC-13.2): award classes of a coup, exactly.

Class ids, highest first (each scheme pays only the highest class a coup makes):
  A: royal (BAC-13.1.4.4.A.1), paradise_straight (A.2), four_of_a_kind (A.3), two_pairs (A.4),
     three_of_a_kind (A.5), one_pair (A.6)
  B: six_of_a_kind (B.1), five_of_a_kind (B.2), two_threes (B.3), four (B.4), three (B.5)
  C: six_same_colour (C.1), six_of_a_kind (C.2), five_of_a_kind (C.3), two_threes (C.4), four (C.5),
     three (C.6)
Readings taken:
  - A's "first five cards" are the first five cards dealt in the coup (P, B, P, B, then the first third
    card); a coup of four cards has no fifth card and cannot make royal or paradise_straight.
  - A.3 says the first four cards are the same rank "but of different suits": with four_suits='distinct'
    (default, the literal reading) all four suits must differ; 'any' accepts any suits. Four of one rank
    that fail the suit test still hold three of a kind (A.5).
  - B and C count ranks over every card of the coup, K, Q, J and 10 being different ranks (BAC-13.2).
  - Art. 13 writes 點數 ("points") for what makes a pair, and its example (J,J pair; J,Q not) shows it
    means the rank, not the Art. 5 counting value; two_pairs (A.4, pairs of different 點數) and the B/C
    "same 點" classes are read the same way, so a pair of jacks and a pair of kings are two pairs.
"""
from collections import Counter
from fractions import Fraction
from itertools import permutations

from ..errors import RuleError
from .rules import player_rule, banker_rule

SCHEMES = ("a", "b", "c")
CLASSES = {
    "a": ("royal", "paradise_straight", "four_of_a_kind", "two_pairs", "three_of_a_kind", "one_pair"),
    "b": ("six_of_a_kind", "five_of_a_kind", "two_threes", "four", "three"),
    "c": ("six_same_colour", "six_of_a_kind", "five_of_a_kind", "two_threes", "four", "three"),
}
FOUR_SUITS = ("distinct", "any")
ROYAL_RANKS = frozenset((10, 11, 12, 13, 14))
_BLACK = frozenset("sc")  # C.1: colour is spades/clubs or hearts/diamonds


def is_pair(two_cards):
    """BAC-13.1.4.1: the first two cards of a hand have the same rank (J,J yes; J,Q no)."""
    return len(two_cards) >= 2 and two_cards[0].rank == two_cards[1].rank


def _class_a(player, banker, dealt, four_suits):
    first5 = dealt[:5]
    if len(first5) == 5 and frozenset(c.rank for c in first5) == ROYAL_RANKS:
        suits_kqjt = set(c.suit for c in first5 if c.rank != 14)
        ace = [c for c in first5 if c.rank == 14][0]
        if len(suits_kqjt) == 1:
            if ace.suit in suits_kqjt:
                return "royal"  # A.1
            return "paradise_straight"  # A.2
    first4 = dealt[:4]
    ranks4 = Counter(c.rank for c in first4)
    top = max(ranks4.values())
    if top == 4 and (four_suits == "any" or len(set(c.suit for c in first4)) == 4):
        return "four_of_a_kind"  # A.3
    p_pair, b_pair = is_pair(player), is_pair(banker)
    if p_pair and b_pair and player[0].rank != banker[0].rank:
        return "two_pairs"  # A.4
    if top >= 3:
        return "three_of_a_kind"  # A.5
    if p_pair or b_pair:
        return "one_pair"  # A.6
    return None


def _class_by_counts(scheme, counts, same_colour_six):
    """B/C class from the rank multiplicities of every card of the coup (BAC-13.2.2, 13.2.3)."""
    top = counts[0] if counts else 0
    if top == 6:
        if scheme == "c" and same_colour_six:
            return "six_same_colour"  # C.1
        return "six_of_a_kind"
    if top == 5:
        return "five_of_a_kind"
    if top == 3 and len(counts) > 1 and counts[1] == 3:
        return "two_threes"
    if top == 4:
        return "four"
    if top == 3:
        return "three"
    return None


def progressive_class(scheme, player_cards, banker_cards, deal_order_cards, four_suits="distinct"):
    """Highest award class of jackpot `scheme` ('a', 'b', 'c') the coup makes, or None."""
    if scheme not in SCHEMES:
        raise RuleError("unknown jackpot scheme %r (schemes: a, b, c)" % (scheme,))
    if four_suits not in FOUR_SUITS:
        raise RuleError("four_suits must be 'distinct' or 'any', got %r" % (four_suits,))
    player, banker, dealt = list(player_cards), list(banker_cards), list(deal_order_cards)
    if Counter(player) + Counter(banker) != Counter(dealt) or not 4 <= len(dealt) <= 6:
        raise RuleError("the player's and banker's cards must be exactly the 4 to 6 cards dealt")
    if dealt[0] != player[0] or dealt[1] != banker[0] or dealt[2] != player[1] or dealt[3] != banker[1]:
        raise RuleError("cards are dealt P, B, P, B (BAC-7.1): the hands do not match the dealing order")
    return classes_of(player, banker, dealt, four_suits)[SCHEMES.index(scheme)]


def classes_of(player, banker, dealt, four_suits="distinct"):
    """(A class, B class, C class) of a coup already known to be well formed (no checks: hot path)."""
    counts = sorted(Counter(c.rank for c in dealt).values(), reverse=True)
    six_colour = len(dealt) == 6 and len(set(c.suit in _BLACK for c in dealt)) == 1
    return (_class_a(player, banker, dealt, four_suits), _class_by_counts("b", counts, six_colour),
            _class_by_counts("c", counts, six_colour))


# ---- exact class probabilities off the top of a full shoe -------------------------------------------

def _falling(n, k):
    out = 1
    for i in range(k):
        out *= n - i
    return out


def _value_of_rank(rank):
    return 1 if rank == 14 else rank if rank <= 9 else 0


def _fifth_card_dealt(ranks4):
    """Whether the coup whose first four cards have these ranks (P, B, P, B) deals a fifth card."""
    v = [_value_of_rank(r) for r in ranks4]
    pt, bt = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    p_draws = player_rule(pt, bt)[0]
    return p_draws or banker_rule(bt, pt, None)[0]


def _equality_patterns(n):
    """Every way n ordered positions can share ranks: tuples of block labels 0, 1, ... in order."""
    patterns = [()]
    for _ in range(n):
        patterns = [p + (b,) for p in patterns for b in range(max(p, default=-1) + 2)]
    return patterns


def class_a_probabilities(decks, four_suits="distinct"):
    """{class: Fraction} for jackpot A off the top of a shoe of `decks` decks.

    The 13 ranks are alike, so the first four cards (P, B, P, B) are enumerated by which of them share
    a rank (15 patterns), each weighted by the ways to pick distinct ranks for its blocks and to draw
    them without replacement; suits only matter for four_of_a_kind (A.3) and royal/paradise_straight,
    whose five ranks are enumerated in every order with the suit patterns counted directly.
    """
    n_rank, total = 4 * decks, 52 * decks
    weights = dict.fromkeys(("four", "two_pairs", "three", "one_pair"), 0)
    for pattern in _equality_patterns(4):
        sizes = Counter(pattern)
        weight = _falling(13, len(sizes))
        for m in sizes.values():
            weight *= _falling(n_rank, m)
        top = max(sizes.values())
        p0, b0, p1, b1 = pattern
        if top == 4:
            weights["four"] += weight
        elif p0 == p1 and b0 == b1:
            weights["two_pairs"] += weight  # two blocks: different ranks
        elif top == 3:
            weights["three"] += weight
        elif p0 == p1 or b0 == b1:
            weights["one_pair"] += weight
    denom4 = _falling(total, 4)
    four = Fraction(weights["four"], denom4)
    # all four suits different: 4! suit orders, `decks` copies of each card
    distinct = four * Fraction(24 * decks ** 4, _falling(n_rank, 4)) if four_suits == "distinct" else four
    probs = {"royal": Fraction(0), "paradise_straight": Fraction(0), "four_of_a_kind": distinct,
             "two_pairs": Fraction(weights["two_pairs"], denom4),
             "three_of_a_kind": Fraction(weights["three"], denom4) + four - distinct,
             "one_pair": Fraction(weights["one_pair"], denom4)}
    denom5 = _falling(total, 5)
    for order in permutations(sorted(ROYAL_RANKS)):
        if not _fifth_card_dealt(order[:4]):
            continue
        # royal: one suit for all five (4 ways); paradise: K,Q,J,10 one suit, ace another (4 * 3)
        probs["royal"] += Fraction(4 * decks ** 5, denom5)
        probs["paradise_straight"] += Fraction(12 * decks ** 5, denom5)
    return probs


def _zero_rank_splits(k, decks):
    """{sorted multiplicities: ordered ways} of k zero-value cards over the ranks 10, J, Q, K.

    Divided by (16d)(16d-1)...(16d-k+1) it is the probability (multivariate hypergeometric).
    """
    out = {}
    n_rank = 4 * decks
    for pattern in _equality_patterns(k):
        sizes = sorted(Counter(pattern).values(), reverse=True)
        if len(sizes) > 4:
            continue
        weight = _falling(4, len(sizes))
        for m in sizes:
            weight *= _falling(n_rank, m)
        key = tuple(sizes)
        out[key] = out.get(key, 0) + weight
    return out


def class_bc_probabilities(value_multisets, decks):
    """{'b': {class: Fraction}, 'c': {...}} from {value counts (10-tuple): integer weight} of every coup.

    The weights are over a common denominator, so the result is normalised by their sum. Values 1-9
    are one rank each; the zero-value cards split over 10/J/Q/K by the multivariate hypergeometric
    law, independently of how the coup was played (BAC-13.2.1). C differs from B only in splitting
    six of a kind by colour (C.1 before C.2).
    """
    n_rank, zeros = 4 * decks, 16 * decks
    shapes = {}  # (zero cards, sorted multiplicities of values 1-9) -> weight
    for counts, w in value_multisets.items():
        key = (counts[0], tuple(sorted((m for m in counts[1:] if m), reverse=True)))
        shapes[key] = shapes.get(key, 0) + w
    scale = {k: _falling(zeros - k, 6 - k) for k in range(7)}  # to the common (16d)_6 denominator
    splits = {k: _zero_rank_splits(k, decks) for k in range(7)}
    sums = dict.fromkeys(CLASSES["b"], 0)
    for (k, fixed), w in shapes.items():
        for zero_parts, ways in splits[k].items():
            cls = _class_by_counts("b", sorted(fixed + zero_parts, reverse=True), False)
            if cls:
                sums[cls] += w * ways * scale[k]
    denom = sum(value_multisets.values()) * _falling(zeros, 6)
    b = {cls: Fraction(v, denom) for cls, v in sums.items()}
    colour = Fraction(2 * _falling(2 * decks, 6), _falling(n_rank, 6))  # six of a rank, one colour
    c = {"six_same_colour": b["six_of_a_kind"] * colour, "six_of_a_kind": b["six_of_a_kind"] * (1 - colour)}
    c.update((cls, b[cls]) for cls in CLASSES["b"][1:])
    return {"b": b, "c": c}
