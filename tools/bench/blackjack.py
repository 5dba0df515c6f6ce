"""Blackjack benchmark: time of the exact side-bet tables, of the basic-strategy computation, and the
round engine's throughput under the basic strategy (which sets how long the main-bet simulation takes)."""
import time

from rulebook.blackjack import game as blackjack
from rulebook.blackjack.sidebets import side_edges
from rulebook.blackjack.basic_strategy import Strategy


def timed(fn):
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def main():
    opts = blackjack.options(None)
    t, book = timed(lambda: Strategy(opts))
    t2, expectation = timed(book.expectation)
    print("blackjack basic strategy + infinite-deck edge (exact Fractions): %.3f s  (house edge %.4f%%)"
          % (t + t2, -100 * float(expectation)))
    against = blackjack.split_table(opts)
    t, _ = timed(lambda: [side_edges(blackjack.options({"decks": d}), against) for d in range(1, 9)])
    print("blackjack exact side-bet tables, decks 1-8:                     %.3f s" % t)
    t, sim = timed(lambda: blackjack.simulate(20000, 1, opts))
    print("blackjack round engine, basic strategy:                         %.0f rounds/s" % (20000 / t))
    print("blackjack main-bet edge by simulation at the default %d rounds: about %.0f s"
          % (blackjack.DEFAULT_MC_ROUNDS, blackjack.DEFAULT_MC_ROUNDS * t / 20000))


if __name__ == "__main__":
    main()
