"""Shared analysis of a game of chance: exact edges by enumerating weighted outcomes, flags, sampling.

A game hands over its outcomes with integer weights (equal weights when every outcome is equally
likely) and a settle function outcome -> {bet_id: net per unit staked}; every figure comes out as an
exact Fraction. The card-game modules may reuse edges() over their own enumerations.
"""
import math
import random
from fractions import Fraction

from .errors import RuleError

LOSS = Fraction(-1)
PUSH = Fraction(0)


def ratio(pays):
    """'a:b' -> Fraction(a, b), the net of a win per unit staked (before any commission)."""
    won, _, staked = pays.partition(":")
    return Fraction(int(won), int(staked))


def equally_likely(outcomes):
    """(outcome, 1) for every outcome: the weights for a uniform outcome space."""
    return [(outcome, 1) for outcome in outcomes]


def edges(weighted_outcomes, settle, pays):
    """Exact figures of every bet in `pays` ({bet_id: 'a:b'}), in that order.

    weighted_outcomes: iterable of (outcome, positive integer weight); settle(outcome) -> {bet_id: net}.
    Each bet gets "pays", "win_probability" (P(net > 0)), "house_edge" (-E[net]) and "distribution"
    ({net: probability}, ascending), all Fractions.
    """
    counts = {bet: {} for bet in pays}
    total_weight = 0
    for outcome, weight in weighted_outcomes:
        total_weight += weight
        nets = settle(outcome)
        for bet, dist in counts.items():
            net = nets[bet]
            dist[net] = dist.get(net, 0) + weight
    if total_weight <= 0:
        raise ValueError("no outcomes to analyse")
    result = {}
    for bet, dist in counts.items():
        distribution = {net: Fraction(w, total_weight) for net, w in sorted(dist.items())}
        result[bet] = {
            "pays": pays[bet],
            "win_probability": sum((p for net, p in distribution.items() if net > 0), Fraction(0)),
            "house_edge": -sum((net * p for net, p in distribution.items()), Fraction(0)),
            "distribution": distribution,
        }
    return result


def percent(value):
    return "%.3f%%" % (100 * float(value))


def flag_lines(bet_edges, reasons=None):
    """One line per bet whose house edge is not positive; reasons: {bet_id: why} appended when known."""
    reasons = reasons or {}
    lines = []
    for bet, figures in bet_edges.items():
        edge = figures["house_edge"]
        if edge <= 0:
            line = "%s (pays %s): house edge %s (%s) is not positive" % (bet, figures["pays"], edge, percent(edge))
            if bet in reasons:
                line += ": " + reasons[bet]
            lines.append(line)
    return lines


def check_rounds(rounds, seed):
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
        raise RuleError("rounds must be a whole number of at least 1, got %r" % (rounds,))
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RuleError("seed must be a whole number, got %r" % (seed,))


def mean_stderr(total, squares, n):
    """(mean, standard error of the mean) of n observations from their sum and sum of squares:
    (None, None) from none, stderr None from one (undefined)."""
    if n == 0:
        return None, None
    mean = total / n
    if n < 2:
        return mean, None
    return mean, math.sqrt(max(squares / n - mean * mean, 0.0) / (n - 1))


class Tally:
    """Each bet's running count, sum and sum of squares of its net, for the Monte Carlo cross-checks."""

    def __init__(self, bet_ids):
        self.acc = {bet: [0, 0.0, 0.0] for bet in bet_ids}

    def add(self, bet, net):
        acc = self.acc[bet]
        x = float(net)
        acc[0] += 1
        acc[1] += x
        acc[2] += x * x

    def result(self):
        """{bet_id: {"rounds", "mean_net", "stderr"}} (floats; None where undefined)."""
        out = {}
        for bet, (n, total, squares) in self.acc.items():
            mean, err = mean_stderr(total, squares, n)
            out[bet] = {"rounds": n, "mean_net": mean, "stderr": err}
        return out


def simulate(draw, settle, bet_ids, rounds, seed):
    """Monte Carlo cross-check: `rounds` outcomes from draw(rng) with rng = random.Random(seed), every bet
    staked one unit every round -> {bet_id: {"rounds", "mean_net", "stderr"}} (floats).

    Outcomes must be hashable: each distinct one is settled once and its nets reused.
    """
    check_rounds(rounds, seed)
    rng = random.Random(seed)
    settled = {}
    tally = Tally(bet_ids)
    for _ in range(rounds):
        outcome = draw(rng)
        nets = settled.get(outcome)
        if nets is None:
            exact = settle(outcome)
            nets = settled[outcome] = [(bet, exact[bet]) for bet in bet_ids]
        for bet, net in nets:
            tally.add(bet, net)
    return tally.result()
