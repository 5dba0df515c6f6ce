"""Baccarat benchmark: time of the exact tables (target < 2 s for one full table) and shoe-dealing speed."""
import time

from rulebook.baccarat import game as baccarat
from rulebook.baccarat.exact import coup_distribution


def best_of(runs, fn):
    best = None
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        elapsed = time.perf_counter() - t0
        best = elapsed if best is None else min(best, elapsed)
    return best


def cold_edge(opts):
    baccarat.exact_tables.cache_clear()
    return baccarat.edge(opts)


def main():
    for decks in (8, 6):
        t = best_of(3, lambda: coup_distribution(decks))
        print("baccarat exact coup totals, %d decks:            %.3f s" % (decks, t))
        t = best_of(3, lambda: cold_edge({"decks": decks}))
        print("baccarat exact full table (every bet), %d decks: %.3f s  (target < 2 s)" % (decks, t))

    def all_tables():
        baccarat.exact_tables.cache_clear()
        for decks in (6, 8):
            for mode in ("commission", "super6", "ez"):
                baccarat.edge({"decks": decks, "banker_mode": mode})

    print("baccarat exact, 6+8 decks x 3 banker modes:      %.3f s" % best_of(1, all_tables))
    rounds = 5000
    t = best_of(1, lambda: baccarat.simulate(rounds, 1, {}))
    print("baccarat simulate (deal + settle every bet):    %.0f coups/s" % (rounds / t))
    for decks in (8, 6):
        figures = baccarat.edge({"decks": decks})
        print("baccarat %d decks house edge: banker %.4f%%  player %.4f%%  tie %.4f%%"
              % (decks, *(100 * float(figures[b]["house_edge"]) for b in ("banker", "player", "tie"))))


if __name__ == "__main__":
    main()
