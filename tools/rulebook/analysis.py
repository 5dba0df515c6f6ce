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


def simulate(draw, settle, bet_ids, rounds, seed):
    """Monte Carlo cross-check: `rounds` outcomes from draw(rng) with rng = random.Random(seed), every bet
    staked one unit every round -> {bet_id: {"rounds", "mean_net", "stderr"}} (floats).

    Outcomes must be hashable: each distinct one is settled once and its nets reused.
    """
    check_rounds(rounds, seed)
    rng = random.Random(seed)
    settled = {}
    sums = dict.fromkeys(bet_ids, 0.0)
    squares = dict.fromkeys(bet_ids, 0.0)
    for _ in range(rounds):
        outcome = draw(rng)
        nets = settled.get(outcome)
        if nets is None:
            exact = settle(outcome)
            nets = settled[outcome] = [(bet, float(exact[bet])) for bet in bet_ids]
        for bet, net in nets:
            sums[bet] += net
            squares[bet] += net * net
    out = {}
    for bet in bet_ids:
        mean = sums[bet] / rounds
        variance = max(squares[bet] / rounds - mean * mean, 0.0)
        stderr = math.sqrt(variance / (rounds - 1)) if rounds > 1 else None  # undefined from one round
        out[bet] = {"rounds": rounds, "mean_net": mean, "stderr": stderr}
    return out
