"""Exact baccarat coup distribution off the top of a full shoe, by enumerating card-value compositions.

Every coup is a sequence of 4 to 6 card values drawn without replacement from `decks` decks (value 0:
16 cards a deck, 1-9: 4). The probability of a value sequence depends only on how many of each value it
draws, so each hand's first two cards are enumerated as unordered pairs (times 2 when they differ) and
weights are kept as integers over the common denominator (52d)(52d-1)...(52d-5): a coup that ends
after k cards is counted with the (52d-k)...(52d-5) ways its unused cards could follow.
"""
from fractions import Fraction

from .rules import banker_rule, player_rule

_P_DRAWS = [[player_rule(p, b)[0] for b in range(10)] for p in range(10)]
# _B_DRAWS[banker total][player total][player third value, or 10 for "no third card"]
_B_DRAWS = [[[banker_rule(b, p, t if t < 10 else None)[0] for t in range(11)] for p in range(10)]
            for b in range(10)]


def _falling(n, k):
    out = 1
    for i in range(k):
        out *= n - i
    return out


def coup_distribution(decks, with_values=False):
    """(totals, values, denominator): integer weights of every coup outcome over `denominator`.

    totals maps (player total, banker total, player card count, banker card count) -> weight;
    values (only when with_values) maps the 10-tuple of value counts dealt -> weight.
    """
    counts = [16 * decks] + [4 * decks] * 9
    total = 52 * decks
    tail5 = total - 5
    tail4 = (total - 4) * tail5
    totals = {}
    values = {} if with_values else None
    pairs = [(a, b) for a in range(10) for b in range(a, 10)]
    for p1, p2 in pairs:
        wp = counts[p1] * (counts[p2] - (p1 == p2)) * (1 if p1 == p2 else 2)
        counts[p1] -= 1
        counts[p2] -= 1
        pt = (p1 + p2) % 10
        for b1, b2 in pairs:
            w4 = wp * counts[b1] * (counts[b2] - (b1 == b2)) * (1 if b1 == b2 else 2)
            if not w4:
                continue
            counts[b1] -= 1
            counts[b2] -= 1
            bt = (b1 + b2) % 10
            if with_values:
                used4 = [0] * 10
                for v in (p1, p2, b1, b2):
                    used4[v] += 1
            if _P_DRAWS[pt][bt]:
                for p3 in range(10):
                    w5 = w4 * counts[p3]
                    if not w5:
                        continue
                    counts[p3] -= 1
                    pt3 = (pt + p3) % 10
                    if _B_DRAWS[bt][pt][p3]:
                        for b3 in range(10):
                            w6 = w5 * counts[b3]
                            if not w6:
                                continue
                            key = (pt3, (bt + b3) % 10, 3, 3)
                            totals[key] = totals.get(key, 0) + w6
                            if with_values:
                                _add_values(values, used4, (p3, b3), w6)
                    else:
                        key = (pt3, bt, 3, 2)
                        totals[key] = totals.get(key, 0) + w5 * tail5
                        if with_values:
                            _add_values(values, used4, (p3,), w5 * tail5)
                    counts[p3] += 1
            elif _B_DRAWS[bt][pt][10]:
                for b3 in range(10):
                    w5 = w4 * counts[b3]
                    if not w5:
                        continue
                    key = (pt, (bt + b3) % 10, 2, 3)
                    totals[key] = totals.get(key, 0) + w5 * tail5
                    if with_values:
                        _add_values(values, used4, (b3,), w5 * tail5)
            else:
                key = (pt, bt, 2, 2)
                totals[key] = totals.get(key, 0) + w4 * tail4
                if with_values:
                    _add_values(values, used4, (), w4 * tail4)
            counts[b1] += 1
            counts[b2] += 1
        counts[p1] += 1
        counts[p2] += 1
    return totals, values, _falling(total, 6)


def _add_values(values, used4, extra, weight):
    used = list(used4)
    for v in extra:
        used[v] += 1
    key = tuple(used)
    values[key] = values.get(key, 0) + weight


def pair_probability(decks):
    """BAC-13.1.4.1: a hand's first two cards share a rank (13 ranks of 4d cards each)."""
    n_rank, total = 4 * decks, 52 * decks
    return Fraction(13 * n_rank * (n_rank - 1), total * (total - 1))

