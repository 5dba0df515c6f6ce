"""Benchmark: the 5-card evaluator (rulebook.poker.poker5) beside treys, and the Caribbean Stud analyses."""
import random
import time
from itertools import combinations

from rulebook.caribbean import game as caribbean_stud
from rulebook.poker import poker5
from rulebook.options import resolve_options


def _rate(label, count, seconds):
    print("  %-58s %9.0f hands/s  (%d in %.2f s)" % (label, count / seconds, count, seconds))


def main():
    t = time.perf_counter()
    classify, n = poker5.class_of_ids, 0
    for hand in combinations(range(52), 5):
        classify(*hand)
        n += 1
    _rate("poker5.class_of_ids, all 2,598,960 hands (ids)", n, time.perf_counter() - t)

    rng = random.Random(1)
    deck = [poker5.id_card(i) for i in range(52)]
    hands = [rng.sample(deck, 5) for _ in range(200_000)]
    t = time.perf_counter()
    for h in hands:
        poker5.evaluate(h)
    _rate("poker5.evaluate, 200,000 random hands (Card objects)", len(hands), time.perf_counter() - t)
    t = time.perf_counter()
    for h in hands:
        poker5.csp_key(h)
    _rate("poker5.csp_key (with the CSP-8 suit), 200,000 hands", len(hands), time.perf_counter() - t)

    try:
        from treys import Card as TCard
        from treys import Evaluator
    except ImportError:
        print("  treys not installed: no comparison")
    else:
        ev = Evaluator()
        tdeck = {c: TCard.new(str(c)) for c in deck}
        tall = [tdeck[poker5.id_card(i)] for i in range(52)]
        t = time.perf_counter()
        five, n = ev._five, 0
        for hand in combinations(tall, 5):
            five(hand)
            n += 1
        _rate("treys Evaluator._five, all 2,598,960 hands (ints)", n, time.perf_counter() - t)
        thands = [[tdeck[c] for c in h] for h in hands]
        t = time.perf_counter()
        for h in thands:
            ev.evaluate(h[:2], h[2:])
        _rate("treys Evaluator.evaluate, 200,000 random hands", len(thands), time.perf_counter() - t)

    opts = resolve_options(caribbean_stud.OPTIONS)
    t = time.perf_counter()
    edges = caribbean_stud.edge(opts)
    seconds = time.perf_counter() - t
    ante = edges["ante"]
    print("  caribbean_stud edge (exact ante/raise over 2,598,960 hands x 47 up cards + exact progressive): %.1f s"
          % seconds)
    print("    ante+raise house edge per ante %.5f%% (optimal decision, exact %s)  raise rate %.4f%%"
          % (100 * ante["house_edge"], ante["house_edge"], 100 * ante["raise_probability"]))
    print("    strategy() house edge per ante %.5f%%  raise rate %.4f%%"
          % (100 * ante["strategy_house_edge"], 100 * ante["strategy_raise_probability"]))
    rz = edges["raise"]
    print("    raise house edge per unit raised %.4f%%" % (100 * rz["house_edge"]))
    pr = edges["progressive"]
    print("    progressive house edge at pool %d cents: %.3f%% (exact); break-even pool %d cents"
          % (pr["pool_cents"], 100 * float(pr["house_edge"]), pr["break_even_pool_cents"]))
    t = time.perf_counter()
    sim = caribbean_stud.simulate(200_000, 2004, opts)["ante"]
    print("  caribbean_stud simulate, 200,000 rounds of strategy(): %.1f s, house edge %.3f%% +- %.3f%% (95%%)"
          % (time.perf_counter() - t, -100 * sim["mean_net"], 196 * sim["stderr"]))

if __name__ == "__main__":
    main()
