"""Blackjack basic strategy and main-game figures: the dealer's outcome probabilities against an
independent enumeration and published infinite-deck values, published basic-strategy cells for a
no-hole-card shoe with the dealer hitting soft 17, and simulation against the exact figures."""
import json
import math
import subprocess
import sys
from fractions import Fraction as F

import pytest

from rulebook.blackjack import game as bj
from rulebook.blackjack.basic_strategy import Strategy, dealer_distribution

OPTS = bj.options(None)
BOOK = Strategy(OPTS)


def independent_dealer(up, hits_soft17):
    """Float enumeration of the dealer's drawing rule (BJ-6.1), written from scratch."""
    probs = {v: (4 if v == 10 else 1) / 13 for v in range(1, 11)}
    out = {}

    def walk(cards, p):
        hard = sum(cards)
        total = hard + 10 if 1 in cards and hard + 10 <= 21 else hard
        soft = total != hard
        if len(cards) == 2 and total == 21:
            out["bj"] = out.get("bj", 0) + p
            return
        if total > 21:
            out["bust"] = out.get("bust", 0) + p
            return
        if total > 17 or (total == 17 and not (soft and hits_soft17)):
            out[total] = out.get(total, 0) + p
            return
        for v, q in probs.items():
            walk(cards + [v], p * q)

    walk([up], 1.0)
    return out


@pytest.mark.parametrize("hits_soft17", [True, False])
def test_dealer_distribution_matches_independent_enumeration_BJ_6_1(hits_soft17):
    opts = bj.options({"dealer_hits_soft17": hits_soft17})
    for up in range(1, 11):
        exact = dealer_distribution(up, opts)
        assert sum(exact.values()) == 1
        mine = independent_dealer(up, hits_soft17)
        assert set(exact) == set(mine)
        for k, p in mine.items():
            assert math.isclose(float(exact[k]), p, abs_tol=1e-12), (up, k)


def test_dealer_distribution_published_infinite_deck_values():
    # infinite-deck dealer tables (stands on soft 17): up 2 busts 35.36%, up 6 42.32%, up A 11.53%
    s17 = bj.options({"dealer_hits_soft17": False})
    assert round(float(dealer_distribution(2, s17)["bust"]), 4) == 0.3536
    assert round(float(dealer_distribution(6, s17)["bust"]), 4) == 0.4232
    assert round(float(dealer_distribution(1, s17)["bust"]), 4) == 0.1153
    assert dealer_distribution(1, s17)["bj"] == F(4, 13)
    assert dealer_distribution(10, s17)["bj"] == F(1, 13)


def code(up, hard, ace=False, pair=None, book=BOOK):
    """The strategy code for a hand of hard sum `hard` (aces as 1), with an ace or not."""
    return book.code(up, hard, ace, pair)


A, T = 1, 10


def test_published_hard_cells_H17():
    assert [code(u, 12) for u in (2, 3, 4, 5, 6, 7)] == ["H", "H", "S", "S", "S", "H"]
    for total in (13, 14, 15, 16):
        assert all(code(u, total) == "S" for u in (2, 3, 4, 5, 6))
        assert code(7, total) == "H"
    assert all(code(u, 17) == "S" for u in (2, 3, 4, 5, 6, 7, 8, 9, T, A))
    assert all(code(u, 11) == "D" for u in (2, 3, 4, 5, 6, 7, 8, 9, T, A))   # H17: 11 v A doubles
    assert [code(u, 10) for u in (2, 9, T, A)] == ["D", "D", "H", "H"]
    assert [code(u, 9) for u in (2, 3, 6, 7)] == ["H", "D", "D", "H"]
    assert all(code(u, 8) == "H" for u in (2, 3, 4, 5, 6, 7, 8, 9, T, A))


def test_published_soft_cells_H17():
    assert code(2, 8, True) == "Ds"        # A,7 v 2 doubles when the dealer hits soft 17
    assert code(6, 9, True) == "Ds"        # A,8 v 6 likewise
    assert [code(u, 8, True) for u in (7, 8, 9, T)] == ["S", "S", "H", "H"]
    assert all(code(u, 10, True) == "S" for u in (2, 3, 4, 5, 6, 7, 8, 9, T, A))   # A,9


def test_published_pair_cells():
    assert all(code(u, 2, True, A) == "P" for u in (2, 3, 4, 5, 6, 7, 8, 9, T, A))
    assert all(code(u, 20, False, T) == "S" for u in (2, 3, 4, 5, 6, 7, 8, 9, T, A))
    assert all(code(u, 16, False, 8) == "P" for u in (2, 3, 4, 5, 6, 7, 8, 9))
    assert [code(u, 18, False, 9) for u in (2, 6, 7, 8, 9, T, A)] == ["P", "P", "S", "P", "P", "S", "S"]
    assert all(code(u, 10, False, 5) == "D" for u in (2, 3, 4, 5, 6, 7, 8, 9))


def test_surrender_cells_BJ_18():
    # decided before the dealer's second card, surrender keeps half even against a Blackjack
    # behind a ten, so 15 and 16 v T give up (early-surrender strategy); never against an ace
    assert code(T, 16) == "Rh" and code(T, 15) == "Rh"
    assert not code(A, 16).startswith("R")
    no_surrender = Strategy(bj.options({"surrender": False}))
    assert code(T, 16, book=no_surrender) == "H"


def test_never_insure_and_decline_even_money_BJ_10_3_BJ_12():
    # insurance loses 1/13 in an infinite deck: 2 * 4/13 - 9/13
    _, acts = BOOK.first_two_best(A, 11, True)
    assert acts["stand"] > acts["even"] == 1
    assert BOOK.by_up[A].p_bj == F(4, 13)


def test_strategy_text_has_every_row():
    text = bj.strategy()
    for row in ["%6d " % t for t in range(5, 21)] + ["   A,%d " % o for o in range(2, 10)] + ["   A,A ", "   T,T "]:
        assert row in text


def test_double_eleven_table_doubles_nothing_else_BJ_17_1_3():
    book = Strategy(bj.options({"double": "eleven"}))
    for up in (2, 3, 4, 5, 6):
        assert book.code(up, 10, False) == "H"
        assert book.code(up, 8, True) in ("S", "H")       # A,7 cannot double
    assert book.code(6, 11, False) == "D"


def test_simulation_agrees_with_exact_figures():
    opts = bj.options({"decks": 8})
    sim = bj.simulate(12000, 7, opts)
    exact = bj.edge(opts, rounds=200)
    for bet in ("any_pair", "over13", "under13", "sevens", "insurance"):
        mean, err = sim[bet]["mean_net"], sim[bet]["stderr"]
        assert abs(mean + float(exact[bet]["house_edge"])) < 4 * err, bet
    # the main bet: the infinite-deck value leaves out the bonus and card removal (both well under
    # the interval's width at 8 decks)
    infinite = float(BOOK.expectation())
    mean, err = sim["main"]["mean_net"], sim["main"]["stderr"]
    assert abs(mean - infinite) < 4 * err


def test_simulate_is_reproducible_and_counts_insurance_offers():
    a = bj.simulate(300, 11, OPTS)
    assert a == bj.simulate(300, 11, OPTS)
    assert a["main"]["rounds"] == 300
    assert 0 < a["insurance"]["rounds"] < 300


def test_edge_main_is_a_labelled_monte_carlo_figure():
    fig = bj.edge(OPTS, rounds=500)["main"]
    assert fig["method"] == "monte_carlo" and fig["rounds"] == 500
    lo, hi = fig["ci95"]
    assert lo < fig["house_edge"] < hi
    assert fig["infinite_deck_house_edge"] == -float(BOOK.expectation())


def test_cli_strategy_and_resolve():
    out = subprocess.run([sys.executable, "-m", "rulebook", "strategy", "blackjack"], capture_output=True,
                         text=True, check=True).stdout
    assert "pairs" in out and "A,A" in out
    res = subprocess.run([sys.executable, "-m", "rulebook", "resolve", "blackjack",
                          "8s,Th,8d,3c,Tc,9c,Ac|split,double,stand", "--json"],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(res)["net"]["main"] == "-1"
    bad = subprocess.run([sys.executable, "-m", "rulebook", "resolve", "blackjack", "Ts,Ah,6d|surrender"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "ace" in bad.stderr and "Traceback" not in bad.stderr


def test_flags_name_exactly_the_bets_without_a_house_edge():
    opts = bj.options({"decks": 8})
    figures = bj.edge(opts, rounds=3000, seed=5)
    lines = bj.flags(opts, figures)
    for bet, fig in figures.items():
        assert any(line.startswith(bet + " ") for line in lines) == (fig["house_edge"] <= 0), bet
    eleven = bj.options({"double": "eleven"})
    assert any("BJ-17.1.3" in line for line in bj.flags(eleven, figures))


def test_five_card_payout_is_worth_something_to_the_player_BJ_19():
    with_five, without = BOOK.expectation(), Strategy(OPTS, five_card=False).expectation()
    assert with_five > without
    # a five-card 12 against a ten: taking half a stake beats any play of the hand
    acts = BOOK.by_up[T].unsplit_actions(12, False, 5)
    assert max(acts, key=lambda a: BOOK.by_up[T].combined(acts[a])) == "five"
