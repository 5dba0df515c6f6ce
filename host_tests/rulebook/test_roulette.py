"""Single-zero roulette reference engine (60/2004): the layout's bets and every pocket, written here
from the standard single-zero layout and the regulation's pays."""
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from rulebook import RuleError, roulette

# The standard single-zero wheel's red numbers, typed from the wheel (RL-1.4 leaves colours unnamed).
RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
PAYS = {1: 35, 2: 17, 3: 11, 4: 8, 6: 5, 9: 3, 12: 2, 18: 1}  # RL-7.1-7.8, by how many numbers


def expected_layout():
    """Every bet and its numbers by arithmetic on the layout's numbering (row = (n-1)//3)."""
    bets = {"straight_%d" % n: {n} for n in range(37)}
    for a in range(0, 37):
        for b in range(a + 1, 37):
            beside = b == a + 1 and a % 3 != 0 and a > 0  # same row, next column
            below = b == a + 3 and a > 0  # same column, next row
            if beside or below or (a == 0 and b <= 3):
                bets["split_%d_%d" % (a, b)] = {a, b}
    bets["street_0_1_2"], bets["street_0_2_3"], bets["corner_0_1_2_3"] = {0, 1, 2}, {0, 2, 3}, {0, 1, 2, 3}
    for n in range(1, 37):
        if n % 3 == 1:
            bets["street_%d" % n] = {n, n + 1, n + 2}
            if n <= 31:
                bets["six_line_%d" % n] = set(range(n, n + 6))
            if n <= 28:
                bets["nine_%d" % n] = set(range(n, n + 9))
        if n % 3 != 0 and n <= 32:
            bets["corner_%d" % n] = {n, n + 1, n + 3, n + 4}
    bets["set12_a"] = {1, 3, 5, 13, 15, 17, 20, 22, 24, 32, 34, 36}  # RL-6.7
    bets["set12_b"] = {2, 4, 6, 14, 16, 18, 19, 21, 23, 31, 33, 35}
    for k in (1, 2, 3):
        bets["column_%d" % k] = {n for n in range(1, 37) if (n - k) % 3 == 0}
        bets["dozen_%d" % k] = set(range(12 * k - 11, 12 * k + 1))
    bets["low"], bets["high"] = set(range(1, 19)), set(range(19, 37))
    bets["red"], bets["black"] = RED, set(range(1, 37)) - RED
    bets["odd"] = {n for n in range(1, 37) if n % 2}
    bets["even"] = {n for n in range(1, 37) if not n % 2}
    return bets


EXPECTED = expected_layout()


def test_every_bet_with_its_numbers_and_pays_RL_6_1_to_RL_7_8():
    pays = roulette.bets()
    assert set(pays) == set(EXPECTED)
    assert len(pays) == 37 + 60 + 14 + 23 + 11 + 10 + 2 + 3 + 3 + 6
    assert {bet: set(nums) for bet, nums in roulette.LAYOUT.items()} == EXPECTED
    for bet, nums in EXPECTED.items():
        assert pays[bet] == "%d:1" % PAYS[len(nums)], bet


def test_every_number_is_in_the_expected_number_of_bets():
    """A cross-check of the grid: the middle-column numbers 5..32 sit in 4 splits, 4 corners, 2 six-lines."""
    for n in range(5, 33, 3):
        assert sum(1 for b, nums in roulette.LAYOUT.items() if b.startswith("split_") and n in nums) == 4
        assert sum(1 for b, nums in roulette.LAYOUT.items() if b.startswith("corner_") and n in nums) == 4
        assert sum(1 for b, nums in roulette.LAYOUT.items() if b.startswith("six_line_") and n in nums) == 2


@pytest.mark.parametrize("zero_rule", ["covering", "straight_only"])
def test_all_37_pockets_every_bet_RL_1_3_RL_4_RL_7_1_to_7_8_RL_8(zero_rule):
    for pocket in range(37):
        nets = roulette.resolve(pocket, {"zero_rule": zero_rule})
        assert set(nets) == set(EXPECTED)
        for bet, nums in EXPECTED.items():
            wins = pocket in nums
            if pocket == 0 and zero_rule == "straight_only":
                wins = bet == "straight_0"
            assert nets[bet] == (PAYS[len(nums)] if wins else -1), (bet, pocket)


def test_zero_loses_every_even_money_bet_RL_1_5_RL_8():
    nets = roulette.resolve("0")
    for bet in ("low", "high", "red", "black", "odd", "even", "column_1", "dozen_1", "set12_a"):
        assert nets[bet] == -1
    assert nets["straight_0"] == 35 and nets["split_0_2"] == 17 and nets["corner_0_1_2_3"] == 8


def test_single_zero_edge_is_one_in_37_for_every_bet_RL_8():
    e = roulette.edge()
    assert {figures["house_edge"] for figures in e.values()} == {Fraction(1, 37)}  # 2.70%
    assert "%.2f" % (100 / 37) == "2.70"
    assert e["red"]["win_probability"] == Fraction(18, 37)
    assert roulette.flags() == []


def test_straight_only_reading_of_zero_RL_8():
    e = roulette.edge({"zero_rule": "straight_only"})
    assert e["straight_0"]["house_edge"] == Fraction(1, 37)
    assert e["split_0_1"]["house_edge"] == 1 - Fraction(18, 37)  # wins only on 1
    assert e["corner_0_1_2_3"]["house_edge"] == 1 - Fraction(3 * 9, 37)
    assert e["street_4"]["house_edge"] == Fraction(1, 37)


@pytest.mark.parametrize("text", ["37", "-1", "00", "07", "x", "", "1,2", "3.0", " 36 5"])
def test_impossible_pockets_raise_RL_1_2(text):
    with pytest.raises(RuleError, match="0 to 36"):
        roulette.parse_outcome(text)


@pytest.mark.parametrize("value", [37, -1, True, 2.0, None])
def test_impossible_pockets_as_values_raise(value):
    with pytest.raises(RuleError, match="0 to 36"):
        roulette.resolve(value)


def test_bad_option_raises():
    with pytest.raises(RuleError, match="zero_rule"):
        roulette.edge({"zero_rule": "half_back"})


@settings(max_examples=30, deadline=None)
@given(pocket=st.integers(1, 36))
def test_each_number_wins_exactly_the_bets_covering_it_RL_1_4(pocket):
    nets = roulette.resolve(str(pocket))
    winners = {bet for bet, net in nets.items() if net > 0}
    assert winners == {bet for bet, nums in EXPECTED.items() if pocket in nums}
    # every number is in exactly one of each even-money pair, one column, one dozen, one street of the grid
    assert len(winners & {"red", "black"}) == len(winners & {"odd", "even"}) == len(winners & {"low", "high"}) == 1
    assert len([b for b in winners if b.startswith(("column_", "dozen_", "street_")) and "_0_" not in b]) == 3
