"""Exact Caribbean Stud ante/raise house edge under the optimal raise decision (numpy, inclusion-exclusion).

The player sees five cards P and the dealer's up card u (CSP-7.1), then raises or folds. Per unit of
ante: fold -1 (CSP-6.7); raised, over the C(46,4) = 163,185 dealer completions D (u in D, D disjoint
from P): dealer not qualified +1 (CSP-9.2), P beats a qualified D +1 + 2 * raise_pays(category)
(CSP-9.4/9.5), else -3. With N_nq = # D not qualified and N_low = # D qualified and weaker than P
(strength s = class * 4 + CSP-8 tie suit, a strict order between disjoint hands):

    EV_raise(P, u) * C(46,4) = N_nq + (1 + 2 pay) N_low - 3 (C(46,4) - N_nq - N_low)

and the optimal player raises iff EV_raise > -1 (equal: either, the same value). The edge per ante is
-(sum over all (P, u) of max(EV_raise, -1)) / (C(52,5) * 47), an exact Fraction.

How the counts come out without dealing 2.6M x 47 x 163,185 rounds:
- Inclusion-exclusion: #{D : u in D, D disjoint from P, prop(D)} = sum over S subset of P of
  (-1)^|S| #{D containing S + {u} with prop}. Counts "containing T" are tables per subset size k,
  indexed by the combinatorial number system: dense (np.bincount) for "not qualified"; for
  "qualified and s_D < threshold" one sorted array per k of (T index << 15 | s_D) over the qualified
  hands, read by np.searchsorted with the queries sorted first (numpy narrows each search from the
  last answer, ~25x faster than random queries). A 5-card T is one hand, read directly.
- Suit symmetry: N_nq(P, u), and N_low with a class threshold, do not change when the suits are
  permuted; a hand's suit-canonical form is its four per-suit rank masks sorted (134,459 forms), so
  those counts are computed once per canonical hand and up card, and read for any hand through its
  suit permutation.
- Player high card below A-K: no qualified dealer hand is weaker (an A-K high or any pair beats it),
  N_low = 0; EV from N_nq alone, summed over canonical hands times their multiplicity.
- Player A-K high (167,280 hands): N_low = # qualified D of a lower class (symmetric, via the
  canonical hand) + # D of the same five ranks with a lower tie suit, which has a closed form:
  each of D's cards avoids P's suit at its rank, D is not a flush, D's ace has a lower suit than P's
  ace (CSP-8.10), u is one of D's cards.
- Player pair or better: suit-symmetric lower bounds, N_low >= # qualified D of a lower category
  (dense tables), or, where that is too weak (a low pair holding kings or aces), of a lower class,
  prove EV_raise > -1 for every (P, u) with the smallest raise pay each category can have (0 for the
  capped ones), so for every pay table and cap; they hold under all four qualify x pair_suit
  settings. Then the sum over u needs no u: sum_u N(P, u) = 5 * #{D disjoint from P with the
  property}, one inclusion-exclusion per hand over its 32 subsets; for pairs and two pairs (94% of
  these hands) the weaker D of a lower class by suit-canonical form, plus those of the same class
  with a lower tie suit in closed form (D holds the two suits P lacks at each pair rank, any of 3
  at each kicker). A (P, u) the bounds do not prove would be computed exactly (N_low with the
  threshold s_P) and folded if that is better (the tests force that path).
The strategy() rule (caribbean_rules.decide_ids) is scored with the same counts: it raises every pair
or better, folds below A-K, and decides A-K high hands by their ranks and the up card's rank only, so
decide_ids is asked once per (A-K high class, up rank).

Cost: about 20 s and 1.5 GB on the 2-core development machine for the first call; the tables that do not
depend on the pay table are kept (lru_cache) per qualify / pair_suit, so other pay options take ~1 s.
"""
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb

import numpy as np

from . import caribbean_rules as csp
from . import poker5
from .errors import RuleError
from .poker5 import CLASS_CATEGORY, CLASS_TIE_RANK, CLASS_VALUES, HIGH_CARD, PAIR, TWO_PAIR

HANDS = comb(52, 5)  # 2,598,960 player hands
UPS = 47  # up cards the player can see
COMPLETIONS = comb(46, 4)  # 163,185 dealer hands per (player hand, up card)
_SHIFT = 15  # s = class * 4 + suit < 7462 * 4 < 2**15
_ROW_BITS = 26  # row numbers packed under a sorted query
_BIN = np.array([[comb(x, j) for j in range(7)] for x in range(53)], dtype=np.int32)
_POSITIONS = [pos for k in range(6) for pos in combinations(range(5), k)]  # subsets of a hand's 5 slots
_AK_HIGH = np.array([cat == HIGH_CARD and v[1][:2] == (14, 13) for cat, v in zip(CLASS_CATEGORY, CLASS_VALUES)])
_CATEGORY = np.array(CLASS_CATEGORY, dtype=np.int64)


def _frozen(*arrays):
    for a in arrays:
        a.flags.writeable = False
    return arrays if len(arrays) > 1 else arrays[0]


def _subset_index(cards, positions):
    """Combinatorial-number-system index of the cards at `positions` of each row (rows ascending)."""
    idx = np.zeros(len(cards), dtype=np.int32)
    for i, p in enumerate(positions):
        idx += _BIN[cards[:, p], i + 1]
    return idx


@lru_cache(maxsize=1)
def _hands():
    """Every 5-card hand (ids ascending per row) at its combinatorial-number-system index, and its class.

    Colex order: the j-subsets of range(e) are the first C(e, j) j-subsets of range(52), so each size is
    the smaller one's prefixes, each closed by a larger card."""
    hands = np.arange(52, dtype=np.int64)[:, None]
    for j in range(2, 6):
        hands = np.concatenate([np.hstack([hands[:comb(e, j - 1)], np.full((comb(e, j - 1), 1), e)])
                                for e in range(j - 1, 52)])
    return _frozen(hands, _classes(hands))


def _classes(hands):
    """poker5.class_of_ids over rows, with poker5's own look-up tables."""
    rank, suit = hands >> 2, hands & 3
    products = np.array(poker5._ID_PRIME, dtype=np.int64)[hands].prod(axis=1)
    keys = np.array(sorted(poker5._CLASS_BY_PRODUCT), dtype=np.int64)
    by_product = np.array([poker5._CLASS_BY_PRODUCT[k] for k in keys.tolist()], dtype=np.int64)
    cls = by_product[np.searchsorted(keys, products)]
    flush = (suit == suit[:, :1]).all(axis=1)
    by_mask = np.zeros(1 << 15, dtype=np.int64)
    for mask, c in poker5._CLASS_BY_FLUSH_MASK.items():
        by_mask[mask] = c
    cls[flush] = by_mask[(1 << (rank[flush] + 2)).sum(axis=1)]
    return cls


@lru_cache(maxsize=2)
def _scores(pair_suit):
    """s = class * 4 + tie suit per hand (poker5.csp_score_of_ids)."""
    hands, cls = _hands()
    tie_rank = np.array(CLASS_TIE_RANK, dtype=np.int64)[cls]
    suit = hands & 3
    at_rank = (hands >> 2) + 2 == tie_rank[:, None]
    tie = np.maximum(np.where(at_rank, suit, -1).max(axis=1), 0)
    if pair_suit == "lower":
        tie = np.where(at_rank.sum(axis=1) > 1, np.where(at_rank, suit, 4).min(axis=1), tie)
    return _frozen(cls * 4 + tie)


@lru_cache(maxsize=2)
def _qualified(qualify):
    """Whether each hand qualifies (caribbean_rules.QUALIFIES_AK_OR_BETTER, CSP-9.1/9.3)."""
    hands, cls = _hands()
    if qualify == "ace_and_king":
        rank = hands >> 2
        return _frozen((rank == 12).any(axis=1) & (rank == 11).any(axis=1))
    return _frozen(np.array(csp.QUALIFIES_AK_OR_BETTER)[cls])


@lru_cache(maxsize=2)
def _not_qualified_tables(qualify):
    """[k] -> # non-qualifying hands containing each k-subset (k = 0..5)."""
    hands, _ = _hands()
    lows = hands[~_qualified(qualify)]
    tables = [np.array([len(lows)], dtype=np.int64)]
    for k in range(1, 6):
        table = np.zeros(comb(52, k), dtype=np.int64)
        for pos in combinations(range(5), k):
            table += np.bincount(_subset_index(lows, pos), minlength=comb(52, k))
        tables.append(table)
    return _frozen(*tables)


@lru_cache(maxsize=2)
def _below_tables(qualify, pair_suit):
    """Sorted (subset << 15 | s) arrays over the qualified hands, k = 1..4, with each subset's start."""
    hands, _ = _hands()
    q = _qualified(qualify)
    s = _scores(pair_suit)
    tops, top_s = hands[q], s[q]
    under = np.zeros((1 << _SHIFT) + 1, dtype=np.int64)
    under[1:] = np.cumsum(np.bincount(top_s, minlength=1 << _SHIFT))
    keys, starts = [under], [None]
    for k in range(1, 5):
        key = np.concatenate([(_subset_index(tops, pos).astype(np.int64) << _SHIFT) | top_s
                              for pos in combinations(range(5), k)])
        key.sort()
        start = np.zeros(comb(52, k) + 1, dtype=np.int64)
        start[1:] = np.cumsum(np.bincount(key >> _SHIFT, minlength=comb(52, k)))
        keys.append(_frozen(key))
        starts.append(_frozen(start))
    return keys, starts


def _count_below(k, subset, threshold, qualify, pair_suit):
    """# qualified hands containing the k-subset `subset` (index) with s < threshold, per row."""
    keys, starts = _below_tables(qualify, pair_suit)
    if k == 0:
        return keys[0][threshold]
    if k == 5:
        return (_qualified(qualify)[subset] & (_scores(pair_suit)[subset] < threshold)).astype(np.int64)
    rows = np.arange(len(subset), dtype=np.int64)
    packed = (((subset.astype(np.int64) << _SHIFT) | threshold) << _ROW_BITS) | rows
    packed.sort()  # sorted queries: each search starts from the previous answer
    found = np.empty(len(subset), dtype=np.int64)
    found[packed & ((1 << _ROW_BITS) - 1)] = np.searchsorted(keys[k], packed >> _ROW_BITS)
    return found - starts[k][subset]


def _chunks(n, size=1 << 20):
    return [slice(i, min(i + size, n)) for i in range(0, n, size)]


def _with_up(cards, up, counts, extra=None):
    """Per row, sum over S subset of P with |S| <= 4 of (-1)^|S| count(k, index of S + {u}, extra of the
    rows), k = |S| + 1: by inclusion-exclusion, the dealer hands holding u, disjoint from P, that count()
    counts; one array per count function. `extra` is a per-row array the counts need (a threshold).

    Rows are grouped by how many of P's cards lie below u, which fixes every card's place in S + {u},
    so each index is a sum of precomputed binomials."""
    outs = [np.zeros(len(cards), dtype=np.int64) for _ in counts]
    for part in _chunks(len(cards)):
        c, u = cards[part], up[part]
        split = (c < u[:, None]).sum(axis=1)
        order = np.argsort(split, kind="stable")
        bounds = np.searchsorted(split[order], np.arange(7))
        c, u, rows = c[order], u[order], np.arange(part.start, part.stop)[order]
        row_extra = None if extra is None else extra[rows]
        card_bin = [[_BIN[c[:, p], j] for j in range(6)] for p in range(5)]
        up_bin = [_BIN[u, j] for j in range(6)]
        totals = [np.zeros(len(u), dtype=np.int64) for _ in counts]
        for cut in range(6):  # P's cards at positions < cut lie below u
            g = slice(bounds[cut], bounds[cut + 1])
            if g.start == g.stop:
                continue
            group_extra = None if extra is None else row_extra[g]
            for pos in _POSITIONS[:-1]:
                idx = up_bin[sum(p < cut for p in pos) + 1][g].copy()
                for i, p in enumerate(pos):
                    idx += card_bin[p][i + 1 + (p >= cut)][g]
                for count, total in zip(counts, totals):
                    value = count(len(pos) + 1, idx, group_extra)
                    if len(pos) % 2:
                        total[g] -= value
                    else:
                        total[g] += value
        for out, total in zip(outs, totals):
            out[rows] = total
    return outs


def _not_qualified_with_up(cards, up, qualify):
    """N_nq(P, u) per row: dealer hands holding u, disjoint from P, not qualified."""
    tables = _not_qualified_tables(qualify)
    return _with_up(cards, up, [lambda k, idx, _: tables[k][idx]])[0]


def _below_with_up(cards, up, threshold, qualify, pair_suit):
    """# dealer hands holding u, disjoint from P, qualified, with s < threshold, per row."""
    return _with_up(cards, up, [lambda k, idx, t: _count_below(k, idx, t, qualify, pair_suit)], threshold)[0]


def _disjoint(cards, count):
    """Per row, sum over S subset of P of (-1)^|S| count(|S|, index of S, row slice): by inclusion-exclusion,
    the dealer hands disjoint from P that count() counts."""
    out = np.zeros(len(cards), dtype=np.int64)
    for part in _chunks(len(cards)):
        for pos in _POSITIONS:
            value = count(len(pos), _subset_index(cards[part], pos), part)
            out[part] += -value if len(pos) % 2 else value
    return out


def _disjoint_not_qualified(cards, qualify):
    tables = _not_qualified_tables(qualify)
    return _disjoint(cards, lambda k, idx, part: tables[k][idx])


def _disjoint_below(cards, threshold, qualify, pair_suit):
    return _disjoint(cards, lambda k, idx, part: _count_below(k, idx, threshold[part], qualify, pair_suit))


def _paired_same_class_lower(cards, cls, tie, pair_suit):
    """Pair or two pair P (tie: its tie suit): # D of P's class disjoint from P with a lower tie suit
    (CSP-8.8/8.9). Such a D holds the two suits P lacks at each pair rank and any of 3 suits at each
    kicker rank (27 hands for a pair, 3 for two pair); their tie suit is the higher (or, pair_suit
    'lower', the lower) of the two suits P lacks at its (higher) pair rank."""
    rank, suit = (cards >> 2) + 2, cards & 3
    at_tie = rank == np.array(CLASS_TIE_RANK, dtype=np.int64)[cls][:, None]
    held = np.zeros((len(cards), 4), dtype=bool)
    held[np.nonzero(at_tie)[0], suit[at_tie]] = True
    lacked = np.sort(np.argsort(held, axis=1, kind="stable")[:, :2], axis=1)
    their_tie = lacked[:, 0] if pair_suit == "lower" else lacked[:, 1]
    return np.where(their_tie < tie, np.where(_CATEGORY[cls] == PAIR, 27, 3), 0)


@lru_cache(maxsize=1)
def _canonical():
    """Suit-canonical forms: (representative hands, canonical id of every hand, multiplicities, and each
    hand's suit map sigma[hand, suit] taking it onto its representative)."""
    hands, _ = _hands()
    rows = np.arange(HANDS)
    rank, suit = hands >> 2, hands & 3
    masks = np.zeros((HANDS, 4), dtype=np.int64)
    for c in range(5):
        masks[rows, suit[:, c]] += 1 << rank[:, c]
    order = np.argsort(-masks, axis=1, kind="stable")  # canonical suit j is the hand's suit order[j]
    sigma = np.empty((HANDS, 4), dtype=np.int8)
    sigma[rows[:, None], order] = np.arange(4)
    sorted_masks = np.take_along_axis(masks, order, axis=1)
    key = (sorted_masks[:, 0] << 39) | (sorted_masks[:, 1] << 26) | (sorted_masks[:, 2] << 13) | sorted_masks[:, 3]
    _, first, canon, counts = np.unique(key, return_index=True, return_inverse=True, return_counts=True)
    reps = np.sort(rank[first] * 4 + np.take_along_axis(sigma[first], suit[first], axis=1), axis=1)
    return _frozen(reps, canon.reshape(-1), counts, sigma)


def _ups(cards):
    """The 47 cards outside each row's hand, (rows, 47)."""
    outside = np.ones((len(cards), 52), dtype=bool)
    outside[np.arange(len(cards))[:, None], cards] = False
    return np.broadcast_to(np.arange(52), outside.shape)[outside].reshape(len(cards), UPS)


def _per_up_table(reps, fill):
    """(reps, 52) tables of fill(cards, up) (one array or a list) over each representative and its 47
    up cards."""
    ups = _ups(reps)
    values = fill(np.repeat(reps, UPS, axis=0), ups.reshape(-1))
    tables = []
    for value in (values if isinstance(values, list) else [values]):
        table = np.zeros((len(reps), 52), dtype=np.int64)
        table[np.arange(len(reps))[:, None], ups] = value.reshape(len(reps), UPS)
        tables.append(table)
    return tables if isinstance(values, list) else tables[0]


@lru_cache(maxsize=2)
def _canonical_counts(qualify):
    """For every canonical representative and up card u, (forms, 52) each: N_nq(rep, u), and the number
    of qualified D (holding u, disjoint from rep) of a lower category than rep's (the bound for made hands)."""
    reps = _canonical()[0]
    nq_tables = _not_qualified_tables(qualify)
    lower_tables = _lower_category_tables(qualify)
    _, cls = _hands()
    qualified_category = np.where(_qualified(qualify), _CATEGORY[cls], 10).astype(np.int8)  # 10: never lower
    category = np.repeat(_CATEGORY[_rep_classes()], UPS).astype(np.int32)

    def lower_category(k, idx, category):
        if k == 5:  # the dealer's whole hand
            return qualified_category[idx] < category
        return lower_tables[k][idx * 10 + category]
    return _frozen(*_per_up_table(reps, lambda c, u: _with_up(
        c, u, [lambda k, idx, _: nq_tables[k][idx], lower_category], category)))


def _canonical_not_qualified(qualify):
    return _canonical_counts(qualify)[0]


@lru_cache(maxsize=4)
def _canonical_lower_class(qualify, pair_suit):
    """For A-K high canonical forms: (form -> row, # qualified D of a lower class per (row, up card))."""
    reps = _canonical()[0]
    rep_cls = _rep_classes()
    forms = np.flatnonzero(_AK_HIGH[rep_cls])
    row_of = np.full(len(reps), -1, dtype=np.int64)
    row_of[forms] = np.arange(len(forms))
    table = _per_up_table(reps[forms], lambda c, u: _below_with_up(
        c, u, 4 * np.repeat(rep_cls[forms], UPS), qualify, pair_suit))
    return _frozen(row_of, table)


@lru_cache(maxsize=1)
def _rep_classes():
    reps = _canonical()[0]
    return _frozen(_classes(reps))


def _same_class_lower_tie(cards, ups):
    """A-K high P (cards (rows, 5)), up cards (rows, m): # D of P's five ranks holding u, disjoint from P,
    not a flush, with a lower ace suit (the CSP-8.10 tie-break on the highest card). Each of D's cards
    avoids P's suit at its rank: 3 ways per rank, the ace's restricted to the suits below P's ace, less
    the one flush in u's suit when P holds no card of that suit."""
    rows = np.arange(len(cards))[:, None]
    rank, suit = cards >> 2, cards & 3
    suit_at = np.full((len(cards), 13), -1, dtype=np.int64)
    suit_at[rows, rank] = suit
    holds_suit = np.zeros((len(cards), 4), dtype=bool)
    holds_suit[rows, suit] = True
    up_rank, up_suit = ups >> 2, ups & 3
    theirs = np.take_along_axis(suit_at, up_rank, axis=1)
    fits = (theirs >= 0) & (theirs != up_suit)
    ace = suit_at[:, 12:13]
    flush = (up_suit < ace) & ~np.take_along_axis(holds_suit, up_suit, axis=1)
    count = np.where(up_rank == 12, np.where(up_suit < ace, 81, 0), 27 * ace) - flush
    return np.where(fits, count, 0)


@lru_cache(maxsize=4)
def _ak_high_counts(qualify, pair_suit):
    """Every A-K high hand: (hand ids, N_nq (hands, 47), N_low (hands, 47), its up cards (hands, 47))."""
    hands, cls = _hands()
    reps, canon, _, sigma = _canonical()
    picked = np.flatnonzero(_AK_HIGH[cls])
    cards, form, sig = hands[picked], canon[picked], sigma[picked]
    ups = _ups(cards)
    mapped = (ups >> 2) * 4 + np.take_along_axis(sig, ups & 3, axis=1)
    n_nq = _canonical_not_qualified(qualify)[form[:, None], mapped]
    row_of, lower = _canonical_lower_class(qualify, pair_suit)
    n_low = lower[row_of[form][:, None], mapped]
    tie = _same_class_lower_tie(cards, ups)
    return _frozen(picked, n_nq, n_low + tie, ups)


@lru_cache(maxsize=2)
def _lower_category_tables(qualify):
    """[k] -> # qualified hands containing a k-subset with a category below c, at subset * 10 + c (k = 1..4)."""
    hands, cls = _hands()
    q = _qualified(qualify)
    tops, cat = hands[q], _CATEGORY[cls[q]]
    tables = [None]
    for k in range(1, 5):
        n = comb(52, k)
        counts = np.zeros(n * 10, dtype=np.int64)
        for pos in combinations(range(5), k):
            counts += np.bincount(_subset_index(tops, pos).astype(np.int64) * 10 + cat, minlength=n * 10)
        below = np.zeros((n, 10), dtype=np.int32)
        below[:, 1:] = np.cumsum(counts.reshape(n, 10), axis=1)[:, :-1]
        tables.append(below.reshape(-1))
    return tables


# the smallest raise pay per category under any options: a capped category may pay next to nothing
_PAY_FLOOR = [Fraction(0) if cat in csp.CAPPED else Fraction(csp.RAISE_PAYS[cat]) for cat in range(10)]


@lru_cache(maxsize=4)
def _bound_failures(qualify, pair_suit):
    """Canonical (form, up card) pairs of pair-or-better hands where the bounds do not prove
    EV_raise > -1 for the smallest pay (_PAY_FLOOR), so for every pay table and cap: (forms, ups)."""
    reps = _canonical()[0]
    rep_cls = _rep_classes()
    forms = np.flatnonzero(_CATEGORY[rep_cls] >= PAIR)
    cards = reps[forms]
    ups = _ups(cards)
    cat = _CATEGORY[rep_cls[forms]]
    n_nq, lower = _canonical_counts(qualify)
    n_nq = n_nq[forms[:, None], ups].reshape(-1)
    bound = lower[forms[:, None], ups].reshape(-1)
    flat_cards, flat_up, flat_cat = np.repeat(cards, UPS, axis=0), ups.reshape(-1), np.repeat(cat, UPS)
    num = np.array([p.numerator for p in _PAY_FLOOR], dtype=np.int64)[flat_cat]
    den = np.array([p.denominator for p in _PAY_FLOOR], dtype=np.int64)[flat_cat]
    # EV * C * den > -C * den  <=>  4 den N_nq + (4 den + 2 num) N_low > 2 den C, with N_low >= bound
    failed = np.flatnonzero(4 * den * n_nq + (4 * den + 2 * num) * bound <= 2 * den * COMPLETIONS)
    # where the category bound is too weak (a low pair holding kings or aces), the class bound
    bound = _below_with_up(flat_cards[failed], flat_up[failed], 4 * rep_cls[forms[failed // UPS]],
                           qualify, pair_suit)
    num, den = num[failed], den[failed]
    failed = failed[4 * den * n_nq[failed] + (4 * den + 2 * num) * bound <= 2 * den * COMPLETIONS]
    return _frozen(forms[failed // UPS], flat_up[failed])


def _exact_rows(forms, form_ups, qualify, pair_suit):
    """Every actual (hand, up card) whose canonical (form, up card) is listed, with its exact counts:
    (hand ids, up cards, N_nq, N_low) arrays."""
    hands, _ = _hands()
    reps, canon, _, sigma = _canonical()
    listed = np.zeros((len(reps), 52), dtype=bool)
    listed[forms, form_ups] = True
    members = np.flatnonzero(np.isin(canon, forms))
    ups = _ups(hands[members])
    mapped = (ups >> 2) * 4 + np.take_along_axis(sigma[members], ups & 3, axis=1)
    row, col = np.nonzero(listed[canon[members][:, None], mapped])
    picked, up = members[row], ups[row, col]
    cards = hands[picked]
    n_nq = _not_qualified_with_up(cards, up, qualify)
    n_low = _below_with_up(cards, up, _scores(pair_suit)[picked], qualify, pair_suit)
    return picked, up, n_nq, n_low


@lru_cache(maxsize=4)
def _exact_failures(qualify, pair_suit):
    return _exact_rows(*_bound_failures(qualify, pair_suit), qualify, pair_suit)


class _Tally:
    """Integer sums over (player hand, up card) pairs, by raise pay."""

    def __init__(self):
        self.raised = {}  # pay -> [pairs raised, sum N_nq, sum N_low]
        self.folded = 0

    def raise_(self, pay, pairs, n_nq, n_low):
        entry = self.raised.setdefault(pay, [0, 0, 0])
        entry[0] += int(pairs)
        entry[1] += int(n_nq)
        entry[2] += int(n_low)

    def figures(self):
        c, total = COMPLETIONS, HANDS * UPS
        ev = -c * self.folded
        raise_net = raised = won = ante_won = 0
        for pay, (pairs, n_nq, n_low) in self.raised.items():
            ev += 4 * n_nq + (4 + 2 * pay) * n_low - 3 * c * pairs
            raise_net += pay * n_low - (c * pairs - n_nq - n_low)
            raised += pairs
            won += n_low
            ante_won += n_nq + n_low
        return {"house_edge": -Fraction(ev, c * total),
                "raise_probability": Fraction(raised, total),
                "win_probability": Fraction(ante_won, c * total),
                "raise_house_edge": -Fraction(raise_net, c * raised) if raised else None,
                "raise_win_probability": Fraction(won, c * raised) if raised else None}


def _strategy_raises(cls, ups):
    """decide_ids over A-K high hands of classes `cls` and their up cards, asked once per (class, up rank)."""
    hands, all_cls = _hands()
    table = {}
    for c in np.unique(cls).tolist():
        hand = hands[np.flatnonzero(all_cls == c)[0]].tolist()
        for up_rank in range(13):
            up = next(up_rank * 4 + s for s in range(4) if up_rank * 4 + s not in hand)
            table[c, up_rank] = csp.decide_ids(hand, up)
    lookup = np.zeros((len(CLASS_VALUES), 13), dtype=bool)
    for (c, r), raise_ in table.items():
        lookup[c, r] = raise_
    return lookup[cls[:, None], ups >> 2]


def _add_rows(tally, pay, raise_mask, n_nq, n_low, weight=1):
    w = np.broadcast_to(weight, raise_mask.shape)
    tally.raise_(pay, (w * raise_mask).sum(), (w * raise_mask * n_nq).sum(), (w * raise_mask * n_low).sum())
    tally.folded += int((w * ~raise_mask).sum())


@lru_cache(maxsize=2)
def _made_hand_totals(qualify, pair_suit):
    """Per category >= PAIR: (hands, sum over hands of # non-qualifying D disjoint from P, sum of # qualified
    weaker D disjoint from P); and the per-hand arrays (hand ids, n_nq, n_low).

    Pairs and two pairs (94% of these hands): the weaker hands of a lower class by suit-canonical form,
    plus the closed form of _paired_same_class_lower; the others by their own strength s_P."""
    hands, cls = _hands()
    reps, canon, _, _ = _canonical()
    score = _scores(pair_suit)
    picked = np.flatnonzero(_CATEGORY[cls] >= PAIR)
    n_nq = _disjoint_not_qualified(hands[picked], qualify)
    cat = _CATEGORY[cls[picked]]
    n_low = np.zeros(len(picked), dtype=np.int64)
    paired = cat <= TWO_PAIR
    rest = picked[~paired]
    n_low[~paired] = _disjoint_below(hands[rest], score[rest], qualify, pair_suit)
    pairs = picked[paired]
    forms, form_of = np.unique(canon[pairs], return_inverse=True)
    lower_class = _disjoint_below(reps[forms], 4 * _rep_classes()[forms], qualify, pair_suit)
    same_class = _paired_same_class_lower(hands[pairs], cls[pairs], score[pairs] & 3, pair_suit)
    n_low[paired] = lower_class[form_of.reshape(-1)] + same_class * _qualified(qualify)[pairs]
    sums = {c: (int((cat == c).sum()), int(n_nq[cat == c].sum()), int(n_low[cat == c].sum()))
            for c in range(PAIR, 10)}
    return sums, _frozen(picked, n_nq, n_low)


def ante_raise_edge(opts=None):
    """Exact ante/raise figures per unit of ante: the optimal decision per (hand, up card) and strategy()'s.

    Keys: house_edge (hand per ante), raise_probability, win_probability (the ante wins), raise_house_edge
    and raise_win_probability (per unit raised, over the raised pairs), all Fractions; 'strategy' holds the
    same for caribbean_rules.decide_ids; 'bound_failures' counts the (hand, up card) pairs of pair-or-better
    hands computed one by one because the bounds did not prove the raise (0 under every option so far)."""
    opts = csp.with_defaults(opts)
    pays = tuple(csp.raise_pays(cat, opts) for cat in range(10))
    return {key: dict(value) if isinstance(value, dict) else value
            for key, value in _edge(opts["qualify"], opts["pair_suit"], pays).items()}


@lru_cache(maxsize=8)
def _edge(qualify, pair_suit, pays):
    """ante_raise_edge for the options that matter: qualification, pair tie suit, the raise pay per category."""
    best, rule = _Tally(), _Tally()
    _, cls = _hands()

    # high card below A-K: N_low = 0; the rule folds them all
    reps, _, counts, _ = _canonical()
    rep_cls = _rep_classes()
    below = np.flatnonzero((_CATEGORY[rep_cls] == HIGH_CARD) & ~_AK_HIGH[rep_cls])
    ups = _ups(reps[below])
    n_nq = _canonical_not_qualified(qualify)[below[:, None], ups]
    _add_rows(best, pays[HIGH_CARD], 4 * n_nq > 2 * COMPLETIONS, n_nq, 0, counts[below][:, None])
    rule.folded += int(counts[below].sum()) * UPS

    # A-K high
    picked, n_nq, n_low, ups = _ak_high_counts(qualify, pair_suit)
    a, b = pays[HIGH_CARD].numerator, pays[HIGH_CARD].denominator
    raise_best = 4 * b * n_nq + (4 * b + 2 * a) * n_low > 2 * b * COMPLETIONS
    _add_rows(best, pays[HIGH_CARD], raise_best, n_nq, n_low)
    _add_rows(rule, pays[HIGH_CARD], _strategy_raises(cls[picked], ups), n_nq, n_low)

    # pair or better: raise all (the rule always does), then fold any unproven pair that is better folded
    sums, _ = _made_hand_totals(qualify, pair_suit)
    for cat, (n, nq_sum, low_sum) in sums.items():
        for tally in (best, rule):
            tally.raise_(pays[cat], n * UPS, 5 * nq_sum, 5 * low_sum)
    failed, _, f_nq, f_low = _exact_failures(qualify, pair_suit)
    for h, nq, low in zip(failed.tolist(), f_nq.tolist(), f_low.tolist()):
        pay = pays[CLASS_CATEGORY[cls[h]]]
        if 4 * nq + (4 + 2 * pay) * low - 3 * COMPLETIONS <= -COMPLETIONS:
            best.raise_(pay, -1, -nq, -low)
            best.folded += 1
    out = best.figures()
    out["strategy"] = rule.figures()
    out["bound_failures"] = len(failed)
    return out


def _counts_for(player_ids, up_id, opts):
    """(N_nq, N_low) of one (player hand, up card) by the paths ante_raise_edge uses."""
    cards = np.array([sorted(player_ids)], dtype=np.int64)
    up = np.array([up_id], dtype=np.int64)
    _, cls = _hands()
    _, canon, _, sigma = _canonical()
    h = int(_subset_index(cards, range(5))[0])
    mapped = (up_id >> 2) * 4 + int(sigma[h, up_id & 3])
    n_nq = int(_canonical_not_qualified(opts["qualify"])[canon[h], mapped])
    c = int(cls[h])
    if CLASS_CATEGORY[c] >= PAIR:
        s = _scores(opts["pair_suit"])[[h]]
        n_low = int(_below_with_up(cards, up, s, opts["qualify"], opts["pair_suit"])[0])
    elif _AK_HIGH[c]:
        row_of, lower = _canonical_lower_class(opts["qualify"], opts["pair_suit"])
        n_low = int(lower[row_of[canon[h]], mapped]) + int(_same_class_lower_tie(cards, up[:, None])[0, 0])
    else:
        n_low = 0
    return n_nq, n_low, CLASS_CATEGORY[c]


def ev_raise(player_ids, up_id, opts=None):
    """Exact EV per unit of ante of raising with `player_ids` against the up card `up_id` (card ids)."""
    opts = csp.with_defaults(opts)
    ids = list(player_ids) + [up_id]
    if len(ids) != 6 or len(set(ids)) != 6 or not all(0 <= i < 52 for i in ids):
        raise RuleError("ev_raise needs five distinct player card ids and a different up card id")
    n_nq, n_low, category = _counts_for(player_ids, up_id, opts)
    pay = csp.raise_pays(category, opts)
    return Fraction(n_nq + (1 + 2 * pay) * n_low - 3 * (COMPLETIONS - n_nq - n_low), COMPLETIONS)


def raise_all_sum(player_ids, opts=None):
    """Sum over the 47 up cards of EV_raise for a pair-or-better hand, from the per-hand totals that
    ante_raise_edge adds up (5 x the disjoint dealer hands; no up card needed)."""
    opts = csp.with_defaults(opts)
    cards = np.array([sorted(player_ids)], dtype=np.int64)
    h = int(_subset_index(cards, range(5))[0])
    _, (made, made_nq, made_low) = _made_hand_totals(opts["qualify"], opts["pair_suit"])
    at = int(np.searchsorted(made, h))
    if at >= len(made) or made[at] != h:
        raise RuleError("raise_all_sum is for pair-or-better hands")
    pay = csp.raise_pays(CLASS_CATEGORY[_hands()[1][h]], opts)
    nq, low = 5 * int(made_nq[at]), 5 * int(made_low[at])
    return Fraction(4 * nq + (4 + 2 * pay) * low - 3 * COMPLETIONS * UPS, COMPLETIONS)
