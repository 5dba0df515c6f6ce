"""Baccarat exact odds off the top of the shoe: published anchors, internal consistency, and a
simulation of real shoes agreeing with the exact figures."""
from fractions import Fraction as F

import pytest

from rulebook.baccarat import game as baccarat
from rulebook.baccarat.exact import coup_distribution
from rulebook.errors import RuleError


def pct(figures, bet):
    return float(figures[bet]["house_edge"]) * 100


# Published (Wizard of Odds, "Baccarat" and "EZ Baccarat" analyses, off the top of a full shoe).
@pytest.mark.parametrize("decks, banker, player, tie", [(8, 1.0579, 1.2351, 14.3596),
                                                        (6, 1.0558, 1.2374, 14.4382)])
def test_published_main_bet_edges(decks, banker, player, tie):
    figures = baccarat.edge({"decks": decks})
    assert round(pct(figures, "banker"), 4) == banker
    assert round(pct(figures, "player"), 4) == player
    assert round(pct(figures, "tie"), 4) == tie


def test_published_8_deck_win_probabilities_BAC_11():
    figures = baccarat.edge({})
    assert round(float(figures["banker"]["win_probability"]), 6) == 0.458597
    assert round(float(figures["player"]["win_probability"]), 6) == 0.446247
    assert round(float(figures["tie"]["win_probability"]), 6) == 0.095156


def test_published_ez_banker_and_dragon7_8_decks_BAC_18_3():
    figures = baccarat.edge({"banker_mode": "ez"})
    assert round(pct(figures, "banker"), 4) == 1.0183
    assert round(pct(figures, "dragon7"), 4) == 7.6113


def test_published_super6_banker_8_decks_BAC_18_2():
    assert round(pct(baccarat.edge({"banker_mode": "super6"}), "banker"), 2) == 1.46


@pytest.mark.parametrize("decks, edge", [(6, 11.25), (8, 10.36)])
def test_pair_bets_11_to_1_BAC_17_3(decks, edge):
    figures = baccarat.edge({"decks": decks})
    assert round(pct(figures, "player_pair"), 2) == edge == round(pct(figures, "banker_pair"), 2)


def test_banker_modes_differ_only_where_the_regulation_says_BAC_18():
    """super6 and ez change the banker bet by exactly the coups they touch (counted from the same table)."""
    totals, _, denom = coup_distribution(8)
    banker_win_6 = F(sum(w for (p, b, _, _), w in totals.items() if b == 6 and b > p), denom)
    banker_win_3card_7 = F(sum(w for (p, b, _, n), w in totals.items() if b == 7 > p and n == 3), denom)
    banker_win = F(sum(w for (p, b, _, _), w in totals.items() if b > p), denom)
    player_win = F(sum(w for (p, b, _, _), w in totals.items() if p > b), denom)
    e = {mode: baccarat.edge({"banker_mode": mode})["banker"]["house_edge"]
         for mode in ("commission", "super6", "ez")}
    assert e["commission"] == player_win - banker_win * F(19, 20)
    assert e["super6"] == player_win - (banker_win - banker_win_6) - banker_win_6 / 2
    assert e["ez"] == player_win - (banker_win - banker_win_3card_7)
    # lucky6 (BAC-17.5): 12:1 on a two-card banker 6, 20:1 on a three-card one, else lost
    six2 = F(sum(w for (p, b, _, n), w in totals.items() if b == 6 > p and n == 2), denom)
    six3 = F(sum(w for (p, b, _, n), w in totals.items() if b == 6 > p and n == 3), denom)
    lucky6 = baccarat.edge({})["lucky6"]
    assert lucky6["house_edge"] == -(12 * six2 + 20 * six3 - (1 - six2 - six3))
    assert lucky6["win_probability"] == six2 + six3


def test_distribution_is_complete_and_symmetric_in_counts():
    for decks in (6, 12):
        totals, values, denom = coup_distribution(decks, with_values=True)
        assert sum(totals.values()) == denom == sum(values.values())
        # every coup has 4 to 6 cards and each side 2 or 3
        assert all(2 <= n <= 3 and 2 <= m <= 3 for (_, _, n, m) in totals)
        assert all(4 <= sum(k) <= 6 for k in values)


def test_house_edges_are_all_positive_with_set_awards():
    opts = {"a_one_pair_cents": 50000, "b_three_cents": 100000, "c_three_cents": 100000}
    lines = baccarat.flags(opts)
    assert not any("not positive" in line for line in lines)


def test_flags_a_bet_without_house_edge():
    # a pool far above any realistic one makes jackpot A favour the player: flagged
    lines = baccarat.flags({"jackpot_pool_cents": 10 ** 12})
    assert any(line.startswith("progressive_a") and "not positive" in line for line in lines)


AWARDS = {"jackpot_stake_cents": 100, "a_one_pair_cents": 500, "a_three_of_a_kind_cents": 2000,
          "a_two_pairs_cents": 4000, "a_four_of_a_kind_cents": 30000, "b_three_cents": 1000,
          "b_four_cents": 10000, "b_two_threes_cents": 30000, "c_three_cents": 900, "c_four_cents": 9000}


@pytest.mark.parametrize("mode, rounds, seed", [("commission", 16000, 11), ("super6", 6000, 12),
                                                ("ez", 6000, 13)])
def test_simulated_shoes_agree_with_exact_edges(mode, rounds, seed):
    opts = dict(AWARDS, banker_mode=mode)
    exact = baccarat.edge(opts)
    observed = baccarat.simulate(rounds, seed, opts)
    for bet, figures in exact.items():
        o = observed[bet]
        assert o["rounds"] == rounds
        assert abs(o["mean_net"] + float(figures["house_edge"])) < 4 * o["stderr"], bet


def test_simulate_is_reproducible_and_checks_its_arguments():
    assert baccarat.simulate(300, 5) == baccarat.simulate(300, 5)
    assert baccarat.simulate(300, 5) != baccarat.simulate(300, 6)
    with pytest.raises(RuleError, match="rounds"):
        baccarat.simulate(0, 5)
