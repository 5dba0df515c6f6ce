"""Benchmark of Fortune 3 in the reference engine: time of each exact table, 3-card evaluator throughput."""
import time
from itertools import combinations

from rulebook import fortune3
from rulebook.poker import poker3
from rulebook.cards import deck


def _fresh():
    """Drop the memoised tables so every figure is a cold computation."""
    fortune3._ANTE_CACHE.clear()
    fortune3._COUNT_CACHE.clear()
    del fortune3._HAND_TABLES[:]


def _timed(label, func):
    _fresh()
    start = time.perf_counter()
    value = func()
    print("%-58s %8.3f s" % (label, time.perf_counter() - start))
    return value


def main():
    print("Fortune 3 (rulebook, CPython)")
    _timed("exact ante/play table, optimal decision (22,100 x 18,424)", fortune3.ante_table)
    _timed("exact Pair Plus (22,100 hands)", fortune3.three_card_counts)
    _timed("exact Six Card Bonus (C(52,6) = 20,358,520 sets)", lambda: fortune3.best_hand_counts(6))
    _timed("exact progressive classes (C(52,5) = 2,598,960 hands)", lambda: fortune3.best_hand_counts(5))
    _timed("full edge() table, every bet", fortune3.edge)
    hands = list(combinations(deck(), 3))
    for label, func in (("poker3.evaluate (validated, Card objects)", poker3.evaluate),
                        ("poker3.strength (table look-up, unvalidated)", poker3.strength)):
        start = time.perf_counter()
        for hand in hands:
            func(hand)
        elapsed = time.perf_counter() - start
        print("%-58s %8.0f hands/s (all 22,100 in %.3f s)" % (label, len(hands) / elapsed, elapsed))
    start = time.perf_counter()
    rounds = 5000
    fortune3.simulate(rounds, 1)
    per_second = rounds / (time.perf_counter() - start)
    print("%-58s %8.0f rounds/s" % ("simulate (one box, optimal play, every bet)", per_second))


if __name__ == "__main__":
    main()
