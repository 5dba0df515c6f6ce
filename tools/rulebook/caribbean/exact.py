"""Exact Caribbean Stud ante/raise house edge under the optimal raise decision, counted by rank patterns.

The player sees five cards P and the dealer's up card u (CSP-7.1). Per unit of ante, with N_nq(P, u) the
dealer completions D (u in D, D disjoint from P, C(46,4) of them) that do not qualify and N_low those that
qualify and lose to P: raising is worth (4 N_nq + (4 + 2 pay) N_low) / C(46,4) - 3, folding -1 (CSP-6.7,
CSP-9.2, CSP-9.4, CSP-9.5). How (docs/rulebook.md, "Caribbean Stud's exact analysis", derives each count):
- High-card P (the only hands whose decision depends on u): N_nq and N_low depend on P's ranks, u's rank,
  the set M of ranks where P holds u's suit (a dealer flush must avoid them) and, for A-K high, P's ace
  suit against u's suit (the CSP-8.10 tie-break); the (P, u) are counted per such key.
- Pair or better: always raised (proved per pair class and up rank, and for two pair or better by a
  bound over every card), so only sums over u matter: 5 x the dealer hands disjoint from P, summed per
  category from group x group counts of disjoint hand pairs (inclusion-exclusion over shared subsets);
  within one category, a lower dealer hand is half of the disjoint pairs, since CSP-8 never ties.
"""
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb, prod

import numpy as np

from . import rules as csp
from ..poker import poker5
from ..errors import RuleError
from ..poker.poker5 import CLASS_CATEGORY, CLASS_VALUES, FLUSH, HIGH_CARD, PAIR, TWO_PAIR

HANDS = comb(52, 5)  # 2,598,960 player hands
UPS = 47  # up cards the player can see
COMPLETIONS = comb(46, 4)  # 163,185 dealer hands per (player hand, up card)
ACE, KING = 12, 11  # rank indices (card id >> 2)
AK = (1 << ACE) | (1 << KING)
ALL_RANKS = (1 << 13) - 1
_POPCOUNT = np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.int64)
_BIN = np.array([[comb(x, j) for j in range(6)] for x in range(53)], dtype=np.int64)
_BIN32 = _BIN.astype(np.int32)  # subset indices of the hand table (below 20 * C(52, 4))
_CATEGORY = np.array(CLASS_CATEGORY, dtype=np.int64)
_DRAWS = np.array([3 ** k * 4 ** (4 - k) for k in range(5)])  # 4 dealer cards, k at P's ranks


def _frozen(*arrays):
    for a in arrays:
        a.flags.writeable = False
    return arrays if len(arrays) > 1 else arrays[0]


@lru_cache(maxsize=1)
def _rank_sets():
    """Every set of five distinct ranks: (rank bit masks, non-flush class, ranks (n, 5))."""
    sets = list(combinations(range(13), 5))
    masks = np.array([sum(1 << r for r in s) for s in sets], dtype=np.int64)
    cls = np.array([poker5._CLASS_BY_PRODUCT[prod(poker5._PRIMES[r] for r in s)] for s in sets], dtype=np.int64)
    return _frozen(masks, cls, np.array(sets, dtype=np.int64))


def _completions(p, ranks):
    """Per row of rank counts p (rows, 13) and rank set (columns): the ways to draw one card of each
    rank of the set from the deck less the hand, prod (4 - p_r)."""
    out = np.ones((len(p), len(ranks)), dtype=np.int64)
    for j in range(ranks.shape[1]):
        out *= 4 - p[:, ranks[:, j]]
    return out


def _families():
    """Selectors over _rank_sets() of the high-card (non-straight) rank sets: without both A and K (such
    a dealer high card never qualifies), with both (A-K high, CSP-9.3)."""
    masks, cls, ranks = _rank_sets()
    high = _CATEGORY[cls] == HIGH_CARD
    ak = (masks & AK) == AK
    return (high & ~ak), (high & ak)


def _holds_rank(ranks_of_sets):
    """(sets, 13) 0/1: whether each rank set holds each rank."""
    out = np.zeros((len(ranks_of_sets), 13), dtype=np.int64)
    out[np.arange(len(ranks_of_sets))[:, None], ranks_of_sets] = 1
    return out


def _subset_counts(member_masks):
    """Z[x] = # of the given rank masks inside x, for every 13-bit x (sum over subsets)."""
    z = np.bincount(member_masks, minlength=1 << 13).astype(np.int64)
    for b in range(13):
        z = z.reshape(-1, 2, 1 << b)
        z[:, 1] += z[:, 0]
        z = z.reshape(-1)
    return z


@lru_cache(maxsize=1)
def _low_family_tables():
    """For the non-qualifying high-card dealer ranks (default qualification), per up rank ur:
    W[mask, ur] = sum over the rank sets R holding ur of prod over R less ur of (4 - p_r) for a
    high-card player of ranks `mask`, and Z[ur, x] = # such R inside x (the dealer flushes to take off:
    R must avoid the ranks M where P holds u's suit, x = all ranks but M)."""
    masks, _, ranks = _rank_sets()
    low, _ = _families()
    players = np.flatnonzero(_CATEGORY[_rank_sets()[1]] == HIGH_CARD)
    p = _holds_rank(ranks[players])
    holds = _holds_rank(ranks[low])
    full = _completions(p, ranks[low])  # (players, sets)
    w = np.zeros((1 << 13, 13), dtype=np.int64)
    w[masks[players]] = (full @ holds) // (4 - p)
    z = np.stack([_subset_counts(masks[low][holds[:, ur] == 1]) for ur in range(13)])
    return _frozen(w, z)


def _not_qualified(q_masks, ur, m, qualify):
    """N_nq for high-card players (rank masks), up ranks and the ranks M where P holds u's suit."""
    if qualify == "ace_and_king":
        # no A or no K among the dealer's five (CSP-9.1 literal): inclusion-exclusion over the 46 cards
        n_a = 4 - ((q_masks >> ACE) & 1) - (ur == ACE)
        n_k = 4 - ((q_masks >> KING) & 1) - (ur == KING)
        c4 = _BIN[:, 4]
        return np.where(ur == ACE, c4[46 - n_k], np.where(ur == KING, c4[46 - n_a],
                                                           c4[46 - n_a] + c4[46 - n_k] - c4[46 - n_a - n_k]))
    w, z = _low_family_tables()
    return w[q_masks, ur] - z[ur, ALL_RANKS & ~m]


def _lower_ak_high(q_masks, ur, m, su, a):
    """N_low for A-K high players: the A-K high dealer hands of lower ranks (as rank masks compare), less
    their flushes, plus those of the same ranks with a lower ace suit (CSP-8.10). a: P's ace suit."""
    masks = _rank_sets()[0]
    _, ak = _families()
    keys, inverse = np.unique((q_masks << 26) | (m << 13) | ur, return_inverse=True)
    q_u, m_u, ur_u = keys >> 26, (keys >> 13) & ALL_RANKS, keys & ALL_RANKS
    low = np.zeros(len(keys), dtype=np.int64)
    not_up = ~(1 << ur_u)
    for r in masks[ak].tolist():
        hit = (r < q_u) & (((r >> ur_u) & 1) == 1)
        shared = _POPCOUNT[r & q_u & not_up]
        low += np.where(hit, _DRAWS[np.minimum(shared, 4)] - ((r & m_u) == 0), 0)
    low = low[inverse.reshape(-1)]
    # same ranks: each of D's cards avoids P's suit at its rank, D's ace below P's, u one of D's cards
    in_q = ((q_masks >> ur) & 1) == 1
    below = su < a
    same = np.where(ur == ACE, np.where(below, 81, 0), 27 * a) - (below & (m == 0))
    return low + np.where(in_q, same, 0)


@lru_cache(maxsize=1)
def _high_card_keys():
    """Every (P, u) with P high card, grouped: (rank mask, up rank, M, u's suit, P's ace suit, count).

    A-K high keys carry u's suit and P's ace suit (the tie-break); the others -1 there, counted over
    all four suits of u. P's suits: M's ranks in u's suit, the others in any of the other three, less
    the five-of-a-suit assignments (flushes)."""
    masks, cls, ranks = _rank_sets()
    players = np.flatnonzero(_CATEGORY[cls] == HIGH_CARD)
    q, q_ranks = masks[players], ranks[players]
    pattern = np.arange(32)
    sub = ((pattern[None, :, None] >> np.arange(5)) & 1) * (1 << q_ranks[:, None, :])
    sub = sub.sum(axis=2)  # (players, 32): every M inside Q
    ok = (sub[:, None, :] >> np.arange(13)[None, :, None]) & 1 == 0  # (players, 13, 32): ur not in M
    qi, ur, j = np.nonzero(ok)
    q, m, ur = q[qi], sub[qi, j], ur.astype(np.int64)
    size = _POPCOUNT[m]
    count = 4 * (3 ** (5 - size) - (m == q) - 3 * (m == 0))
    ak = (q & AK) == AK
    others = ~ak & (count > 0)
    rest = [q[others], ur[others], m[others], np.full(others.sum(), -1), np.full(others.sum(), -1), count[others]]
    q, ur, m, size = q[ak], ur[ak], m[ak], size[ak]
    n = len(q)
    su = np.repeat(np.arange(4), 4)
    a = np.tile(np.arange(4), 4)
    q, ur, m, size = (np.repeat(x, 16) for x in (q, ur, m, size))
    su, a = np.tile(su, n), np.tile(a, n)
    ace_in_m = ((m >> ACE) & 1) == 1
    count = np.where(ace_in_m, np.where(a == su, 3 ** (5 - size) - (m == q), 0),
                     np.where(a != su, 3 ** np.maximum(4 - size, 0) - (m == 0), 0))
    keep = count > 0
    ak_keys = [x[keep] for x in (q, ur, m, su, a, count)]
    return _frozen(*[np.concatenate([x, y]) for x, y in zip(rest, ak_keys)])


def _strategy_raises(q_masks, ur):
    """rules.decide_ids per (rank mask, up rank): its decision depends on nothing else."""
    table = {}
    for key in set(zip(q_masks.tolist(), ur.tolist())):
        q, r = key
        hand = [rank * 4 + (0 if i else 1) for i, rank in enumerate(x for x in range(13) if (q >> x) & 1)]
        up = next(r * 4 + s for s in range(4) if r * 4 + s not in hand)
        table[key] = csp.decide_ids(hand, up)
    return np.array([table[key] for key in zip(q_masks.tolist(), ur.tolist())], dtype=bool)


@lru_cache(maxsize=1)
def _hands():
    """Every 5-card hand (ids ascending per row), rows in combinatorial-number-system (colex) order."""
    hands = np.arange(52, dtype=np.uint8)[:, None]
    for j in range(2, 6):
        hands = np.concatenate([np.hstack([hands[:comb(e, j - 1)], np.full((comb(e, j - 1), 1), e, dtype=np.uint8)])
                                for e in range(j - 1, 52)])
    return _frozen(hands)


def _categories(hands):
    """Each hand's CSP-8 category (poker5's look-up tables, by prime product and flush rank mask)."""
    rank = hands >> 2
    primes = np.array(poker5._PRIMES, dtype=np.int32)  # a product of five is below 2**31
    products = primes[rank[:, 0]]
    for i in range(1, 5):
        products *= primes[rank[:, i]]
    keys = np.array(sorted(poker5._CLASS_BY_PRODUCT), dtype=np.int32)
    by_product = _CATEGORY[[poker5._CLASS_BY_PRODUCT[k] for k in keys.tolist()]]
    category = by_product[np.searchsorted(keys, products)]
    suit = hands & 3
    flush = (suit[:, 1:] == suit[:, :1]).all(axis=1)
    by_mask = np.zeros(1 << 15, dtype=np.int64)
    for mask, c in poker5._CLASS_BY_FLUSH_MASK.items():
        by_mask[mask] = CLASS_CATEGORY[c]
    category[flush] = by_mask[(1 << (rank[flush].astype(np.int64) + 2)).sum(axis=1)]
    return category


@lru_cache(maxsize=1)
def _groups():
    """(group per hand: category * 2 + holds an A and a K, # hands holding each card per group (20, 52))."""
    hands = _hands()
    rank = hands >> 2
    ak = (rank == ACE).any(axis=1) & (rank == KING).any(axis=1)
    group = (_categories(hands) * 2 + ak).astype(np.int32)
    per_card = np.zeros((20, 52), dtype=np.int64)
    for i in range(5):
        per_card += np.bincount(group * 52 + hands[:, i], minlength=20 * 52).reshape(20, 52)
    return _frozen(group, per_card)


@lru_cache(maxsize=1)
def _disjoint_pairs():
    """K[g, h] = # ordered pairs of disjoint hands (P in group g, D in group h): sum over the k-subsets S
    of (-1)^k (# g hands holding S) x (# h hands holding S), k = 0..5 (k = 5: D = P)."""
    hands = _hands()
    group, per_card = _groups()
    sizes = np.bincount(group, minlength=20)
    total = np.outer(sizes, sizes).astype(np.float64) - np.diag(sizes)  # k = 0 and k = 5
    total -= per_card.astype(np.float64) @ per_card.T  # k = 1
    for k in range(2, 5):
        n = comb(52, k)
        counts = np.zeros(20 * n, dtype=np.int32)  # at most C(50, 3) hands hold a 2-card set
        for pos in combinations(range(5), k):
            idx = group * np.int32(n)
            for i, p in enumerate(pos):
                idx += _BIN32[hands[:, p], i + 1]
            counts += np.bincount(idx, minlength=20 * n).astype(np.int32)
            del idx
        c = counts.reshape(20, n).astype(np.float64)
        del counts
        total += (-1) ** k * (c @ c.T)  # exact: every partial sum is below 2**53
    return _frozen(np.rint(total).astype(np.int64))


def _class_ranks(classes):
    """Rank counts (rows, 13) of each class (CLASS_VALUES' ranks are 2..14; a straight's is its top card,
    the wheel's 5 holding an ace)."""
    out = np.zeros((len(classes), 13), dtype=np.int64)
    for row, c in enumerate(classes):
        category, ranks = CLASS_VALUES[c]
        if len(ranks) == 1:
            ranks = tuple(r if r > 1 else 14 for r in range(ranks[0], ranks[0] - 5, -1))
        shape = {poker5.QUADS: (4, 1), poker5.FULL_HOUSE: (3, 2), poker5.TRIPS: (3, 1, 1),
                 TWO_PAIR: (2, 2, 1), PAIR: (2, 1, 1, 1)}.get(category, (1,) * 5)
        for n, r in zip(shape, ranks):
            out[row, r - 2] = n
    return out


@lru_cache(maxsize=1)
def _literal_same_category_lower():
    """qualify 'ace_and_king': per category >= PAIR, # disjoint (P, D) of that category, P without an A
    and a K, D with both and of a lower class. Pairs .. quads by rank counts, prod C(4, p_r) C(4 - p_r, d_r);
    flushes 12 (two suits) + 4 (one suit, no shared rank)."""
    out = {}
    for cat in range(PAIR, 10):
        classes = [c for c, k in enumerate(CLASS_CATEGORY) if k == cat]
        p = _class_ranks(classes)
        ak = (p[:, ACE] > 0) & (p[:, KING] > 0)
        mine, theirs = np.flatnonzero(~ak), np.flatnonzero(ak)
        lower = np.array(classes)[theirs][None, :] < np.array(classes)[mine][:, None]
        if not lower.any():
            out[cat] = 0
            continue
        if cat == FLUSH:
            shared = p[mine] @ p[theirs].T
            out[cat] = int((lower * (12 + 4 * (shared == 0))).sum())
            continue
        if cat not in (PAIR, TWO_PAIR, poker5.TRIPS, poker5.FULL_HOUSE, poker5.QUADS):
            raise RuleError("no rank-count formula for category %d" % cat)
        ways = np.ones(lower.shape, dtype=np.int64)
        for r in range(13):
            pr, dr = p[mine, r][:, None], p[theirs, r][None, :]
            ways *= _BIN[4, pr] * _BIN[np.clip(4 - pr, 0, 4), dr]
        out[cat] = int((lower * ways).sum())
    return out


def _made_hand_totals(qualify):
    """Per category >= PAIR: (hands, sum over hands of # non-qualifying D disjoint from P, of # qualified
    weaker D disjoint from P). Within a category half the disjoint pairs: the CSP-8 tie-breaks (suits for
    equal pairs and two pairs, CSP-8.8/8.9) order every two disjoint hands."""
    k = _disjoint_pairs()
    sizes = np.bincount(_groups()[0], minlength=20)
    by_cat = k.reshape(10, 2, 10, 2).sum(axis=1)  # [P category, D category, D holds A and K]
    out = {}
    for cat in range(PAIR, 10):
        n = int(sizes[2 * cat] + sizes[2 * cat + 1])
        if qualify == "ace_and_king":
            nq = int(by_cat[cat, :, 0].sum())
            both = k[2 * cat + 1, 2 * cat + 1]
            low = int(by_cat[cat, :cat, 1].sum()) + both // 2 + _literal_same_category_lower()[cat]
        else:
            nq = int(by_cat[cat, HIGH_CARD, 0])
            same = int(by_cat[cat, cat].sum())
            low = int(by_cat[cat, PAIR:cat].sum()) + int(by_cat[cat, HIGH_CARD, 1]) + same // 2
        out[cat] = (n, nq, low)
    return out


@lru_cache(maxsize=1)
def _pair_classes():
    """(pair classes, their rank counts (classes, 13))."""
    classes = np.array([c for c, k in enumerate(CLASS_CATEGORY) if k == PAIR])
    return _frozen(classes, _class_ranks(classes.tolist()))


def _pair_bounds(pay):
    """Lower bounds on 4 N_nq + (4 + 2 pay) N_low per (pair class, up rank) under both qualifications:
    the dealer's non-straight high cards (A-K high ones weigh 4 + 2 pay, the rest 4), less one flush per
    rank set (M empty, the worst case). Shape (pair classes, 13)."""
    ranks = _rank_sets()[2]
    p = _pair_classes()[1]
    out = 0
    for family, weight in zip(_families(), (4, 4 + 2 * pay)):
        holds = _holds_rank(ranks[family])
        w = (_completions(p, ranks[family]) @ holds) // (4 - p)
        out = out + weight * (w - holds.sum(axis=0)[None, :])
    return out


def _lower_pairs(rows, ur):
    """# dealer pairs holding u (of rank ur) of a lower class than the pair classes at `rows`, disjoint."""
    classes, p = _pair_classes()
    theirs = np.flatnonzero(p[:, ur] > 0)
    d = p[theirs] - (np.arange(13) == ur)  # the dealer's cards besides u
    left = 4 - p[rows] - (np.arange(13) == ur)  # the cards of each rank left to draw from
    ways = (classes[theirs][None, :] < classes[rows][:, None]).astype(np.int64)
    for r in range(13):
        ways *= _BIN[left[:, r]][:, d[:, r]]
    return ways.sum(axis=1)


@lru_cache(maxsize=8)
def _made_hands_raise(pay_pair):
    """Raising beats folding for every (P, u) with P a pair or better, under both qualifications: pairs by
    _pair_bounds (and the lower-class dealer pairs where that is not enough), two pair or better because
    the dealer hands that are high card or one pair lose to P or do not qualify, and all but the
    most per card of the others are such. A RuleError if a bound fails."""
    per_card = _groups()[1]
    strong = per_card[2 * TWO_PAIR:].sum(axis=0).max()
    if 4 * (COMPLETIONS - strong) <= 2 * COMPLETIONS:
        raise RuleError("cannot prove that two pair or better always raises")
    bound = _pair_bounds(pay_pair)
    for ur in range(13):
        rows = np.flatnonzero(bound[:, ur] <= 2 * COMPLETIONS)
        if len(rows):
            failed = rows[bound[rows, ur] + 4 * _lower_pairs(rows, ur) <= 2 * COMPLETIONS]
            if len(failed):
                raise RuleError("cannot prove that %s always raises" % (CLASS_VALUES[_pair_classes()[0][failed[0]]],))
    return True


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


def _add_rows(tally, pay, raise_mask, n_nq, n_low, weight):
    tally.raise_(pay, (weight * raise_mask).sum(), (weight * raise_mask * n_nq).sum(),
                 (weight * raise_mask * n_low).sum())
    tally.folded += int((weight * ~raise_mask).sum())


def ante_raise_edge(opts=None):
    """Exact ante/raise figures per unit of ante: the optimal decision per (hand, up card) and strategy()'s.

    Keys: house_edge (hand per ante), raise_probability, win_probability (the ante wins), raise_house_edge
    and raise_win_probability (per unit raised, over the raised pairs), all Fractions; 'strategy' holds the
    same for rules.decide_ids. pair_suit (CSP-8.9) changes no figure: it decides which of two
    disjoint equal-class hands wins, and both orders are counted."""
    opts = csp.with_defaults(opts)
    pays = tuple(csp.raise_pays(cat, opts) for cat in range(10))
    return {key: dict(value) if isinstance(value, dict) else value
            for key, value in _edge(opts["qualify"], pays).items()}


@lru_cache(maxsize=8)
def _edge(qualify, pays):
    """ante_raise_edge for the options that matter: qualification and the raise pay per category."""
    best, rule = _Tally(), _Tally()
    q, ur, m, su, a, count = _high_card_keys()
    n_nq = _not_qualified(q, ur, m, qualify)
    ak = su >= 0
    n_low = np.zeros(len(q), dtype=np.int64)
    n_low[ak] = _lower_ak_high(q[ak], ur[ak], m[ak], su[ak], a[ak])
    num, den = pays[HIGH_CARD].numerator, pays[HIGH_CARD].denominator
    raise_best = 4 * den * n_nq + (4 * den + 2 * num) * n_low > 2 * den * COMPLETIONS
    _add_rows(best, pays[HIGH_CARD], raise_best, n_nq, n_low, count)
    raise_rule = np.zeros(len(q), dtype=bool)
    raise_rule[ak] = _strategy_raises(q[ak], ur[ak])
    _add_rows(rule, pays[HIGH_CARD], raise_rule, n_nq, n_low, count)

    _made_hands_raise(pays[PAIR])
    for cat, (n, nq_sum, low_sum) in _made_hand_totals(qualify).items():
        for tally in (best, rule):
            tally.raise_(pays[cat], n * UPS, 5 * nq_sum, 5 * low_sum)
    out = best.figures()
    out["strategy"] = rule.figures()
    return out


def _key_of(player_ids, up_id):
    """(rank mask, up rank, M, u's suit, P's ace suit) of a high-card hand and up card (arrays of one)."""
    mask = sum(1 << (c >> 2) for c in player_ids)
    m = sum(1 << (c >> 2) for c in player_ids if c & 3 == up_id & 3)
    ace = [c & 3 for c in player_ids if c >> 2 == ACE]
    return tuple(np.array([x], dtype=np.int64) for x in (mask, up_id >> 2, m, up_id & 3, ace[0] if ace else -1))


def counts(player_ids, up_id, opts=None):
    """(N_nq, N_low) of a high-card hand and up card by the paths ante_raise_edge adds up."""
    opts = csp.with_defaults(opts)
    ids = list(player_ids) + [up_id]
    if len(ids) != 6 or len(set(ids)) != 6 or not all(isinstance(i, int) and 0 <= i < 52 for i in ids):
        raise RuleError("needs five distinct player card ids and a different up card id")
    if CLASS_CATEGORY[poker5.class_of_ids(*player_ids)] != HIGH_CARD:
        raise RuleError("exact counts per up card are for high-card hands; pairs or better always raise")
    q, ur, m, su, a = _key_of(player_ids, up_id)
    n_nq = int(_not_qualified(q, ur, m, opts["qualify"])[0])
    n_low = int(_lower_ak_high(q, ur, m, su, a)[0]) if (int(q[0]) & AK) == AK else 0
    return n_nq, n_low


def ev_raise(player_ids, up_id, opts=None):
    """Exact EV per unit of ante of raising a high-card hand `player_ids` against the up card `up_id`."""
    opts = csp.with_defaults(opts)
    n_nq, n_low = counts(player_ids, up_id, opts)
    pay = csp.raise_pays(HIGH_CARD, opts)
    return Fraction(n_nq + (1 + 2 * pay) * n_low - 3 * (COMPLETIONS - n_nq - n_low), COMPLETIONS)
