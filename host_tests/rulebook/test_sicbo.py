"""Sic Bo reference engine (57/2004) against expectations written here from the regulation's text."""
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, product

import pytest
from hypothesis import given, settings, strategies as st

from rulebook import RuleError, sicbo

ALL_THROWS = list(product(range(1, 7), repeat=3))


DEFAULTS = {"pay_5_16": 18, "pay_6_15": 14, "odd_even_lose_on_triple": False,
            "double_single_faces": "chosen", "three_faces": "distinct", "short_faces": "equal"}
# each reading of an ambiguous article, one at a time against the defaults (SB-5.9, SB-5.10, SB-5.12, SB-7)
READINGS = [{}, {"odd_even_lose_on_triple": True}, {"double_single_faces": "any"}, {"three_faces": "any"},
            {"short_faces": "any"}]


def expected_ids(three_faces="distinct", short_faces="equal"):
    """Every bet id of docs/rulebook.md, written out from the table, in its order."""
    ids = ["small", "big", "odd", "even"]
    ids += ["single_%d" % n for n in range(1, 7)] + ["triple_%d" % n for n in range(1, 7)] + ["any_triple"]
    ids += ["total_%d" % t for t in range(4, 18)]
    ids += ["double_single_%d_%d" % (a, b) for a in range(1, 7) for b in range(1, 7) if a != b]
    ids += ["three_%d_%d_%d" % c for c in combinations_with_replacement(range(1, 7), 3)
            if three_faces == "any" or len(set(c)) == 3]
    ids += ["combo_%d_%d" % c for c in combinations(range(1, 7), 2)]
    ids += ["double_%d" % n for n in range(1, 7)]
    if short_faces == "any":
        ids += ["double_%d_%d" % c for c in combinations(range(1, 7), 2)]
    ids += ["four_%d_%d_%d_%d" % c for c in combinations(range(1, 7), 4)]
    return ids


def total_pay(total, pay_5_16=18, pay_6_15=14):
    """SB-6.6 written as its lines read."""
    if total in (4, 17):
        return 50
    if total in (5, 16):
        return pay_5_16
    if total in (6, 15):
        return pay_6_15
    if total in (7, 14):
        return 12
    if total in (8, 13):
        return 8
    return 6  # 9, 10, 11, 12


def expected_net(bet, dice, **given):
    """The net of one bet on one throw, from the bet's id and SB-5.1-5.13, SB-6.1-6.13 and SB-7 (a formulation by sorted
    faces and list.count, independent of the engine's)."""
    opts = dict(DEFAULTS, **given)
    low, mid, high = sorted(dice)
    triple = low == high
    points = low + mid + high
    parts = bet.split("_")
    numbers = [int(p) for p in parts if p.isdigit()]
    if bet == "small":
        win, pays = points <= 10 and not triple, 1  # SB-5.1, SB-7
    elif bet == "big":
        win, pays = points >= 11 and not triple, 1  # SB-5.2, SB-7
    elif bet in ("odd", "even"):
        parity = 1 if bet == "odd" else 0
        win, pays = points % 2 == parity and not (opts["odd_even_lose_on_triple"] and triple), 1  # SB-5.7/5.8
    elif parts[0] == "single":
        shown = list(dice).count(numbers[0])  # SB-6.3: 1:1, 2:1, 3:1
        return Fraction(shown) if shown else Fraction(-1)
    elif parts[0] == "triple":
        win, pays = (low, mid, high) == (numbers[0],) * 3, 150  # SB-6.4
    elif bet == "any_triple":
        win, pays = triple, 24  # SB-6.5
    elif parts[0] == "total":
        win, pays = points == numbers[0], total_pay(numbers[0], opts["pay_5_16"], opts["pay_6_15"])  # SB-6.6
    elif parts[0] == "double" and parts[1] == "single":
        a, b = numbers
        if opts["double_single_faces"] == "any":
            win = low == mid != high or low != mid == high  # a pair and one other face, whichever
        else:
            win = sorted(dice) == sorted([a, a, b])
        pays = 50  # SB-6.9
    elif parts[0] == "three":
        win, pays = [low, mid, high] == numbers, 30  # SB-6.10
    elif parts[0] == "combo":
        win, pays = all(n in dice for n in numbers), 5  # SB-6.11
    elif parts[0] == "double" and len(numbers) == 2:
        win, pays = numbers[0] in dice and numbers[1] in dice, 8  # SB-6.12 read as two different faces
    elif parts[0] == "double":
        win, pays = list(dice).count(numbers[0]) >= 2, 8  # SB-6.12
    elif parts[0] == "four":
        hits = sum(1 for n in numbers if n in dice)
        win, pays = hits == 3 and low < mid < high, 7  # SB-6.13
    else:
        raise AssertionError("unexpected bet id %s" % bet)
    return Fraction(pays) if win else Fraction(-1)


def test_every_bet_id_of_the_digest_with_its_pays_SB_6_1_to_6_13():
    pays = sicbo.bets()
    assert list(pays) == expected_ids()
    assert len(pays) == 117
    assert pays["single_3"] == "1:1/2:1/3:1"
    assert pays["total_5"] == "18:1" and pays["total_15"] == "14:1" and pays["total_17"] == "50:1"
    written = {"double_single_6_1": "50:1", "three_1_2_6": "30:1", "combo_2_5": "5:1", "double_4": "8:1",
               "four_1_3_4_6": "7:1", "triple_2": "150:1", "any_triple": "24:1", "total_9": "6:1",
               "total_13": "8:1", "total_7": "12:1", "small": "1:1", "even": "1:1"}  # SB-6.1-6.13
    assert {bet: pays[bet] for bet in written} == written


@pytest.mark.parametrize("reading", READINGS, ids=str)
def test_all_216_throws_every_bet_SB_5_1_to_SB_6_13_SB_7(reading):
    ids = expected_ids(reading.get("three_faces", "distinct"), reading.get("short_faces", "equal"))
    assert list(sicbo.bets(reading)) == ids
    for dice in ALL_THROWS:
        nets = sicbo.resolve(dice, reading)
        assert list(nets) == ids
        for bet, net in nets.items():
            assert net == expected_net(bet, dice, **reading), (bet, dice)


def test_small_and_big_lose_on_every_triple_but_odd_even_win_literally_SB_7():
    for n in range(1, 7):
        nets = sicbo.resolve((n, n, n))
        assert nets["small"] == nets["big"] == -1
        assert nets["odd" if n % 2 else "even"] == 1  # SB-7 names only small and big
        assert nets["any_triple"] == 24 and nets["triple_%d" % n] == 150 and nets["single_%d" % n] == 3
        assert nets["double_%d" % n] == 8  # short: at least two dice show N


def test_odd_even_lose_on_triple_option_SB_7():
    nets = sicbo.resolve((3, 3, 3), {"odd_even_lose_on_triple": True})
    assert nets["odd"] == nets["even"] == -1
    assert sicbo.resolve("1,2,4", {"odd_even_lose_on_triple": True})["odd"] == 1


def test_published_house_edges_SB_6_1_to_6_13():
    """Published Sic Bo figures (e.g. small/big 2.78%, single number 7.87%), as exact fractions of 216."""
    e = sicbo.edge()
    published = {
        "small": (Fraction(7, 252), "2.78"), "big": (Fraction(7, 252), "2.78"),
        "single_4": (Fraction(17, 216), "7.87"), "triple_6": (Fraction(65, 216), "30.09"),
        "any_triple": (Fraction(66, 216), "30.56"), "total_4": (Fraction(63, 216), "29.17"),
        "total_5": (Fraction(102, 216), "47.22"), "total_6": (Fraction(66, 216), "30.56"),
        "total_7": (Fraction(21, 216), "9.72"), "total_8": (Fraction(27, 216), "12.50"),
        "total_9": (Fraction(41, 216), "18.98"), "total_10": (Fraction(27, 216), "12.50"),
        "double_single_2_5": (Fraction(63, 216), "29.17"), "three_2_4_6": (Fraction(30, 216), "13.89"),
        "combo_1_6": (Fraction(36, 216), "16.67"), "double_3": (Fraction(72, 216), "33.33"),
        "four_2_3_4_5": (Fraction(24, 216), "11.11"), "odd": (Fraction(0), "0.00"),
    }
    for bet, (edge, shown) in published.items():
        assert e[bet]["house_edge"] == edge, bet
        assert "%.2f" % (100 * edge) == shown, bet
    for t in range(4, 18):  # the table is symmetric: total T and 21-T have the same odds and pays
        assert e["total_%d" % t]["house_edge"] == e["total_%d" % (21 - t)]["house_edge"]


def test_win_probabilities_and_single_tiers_SB_6_3():
    e = sicbo.edge()
    assert e["small"]["win_probability"] == Fraction(105, 216)  # 108 throws total 4-10, 3 of them triples
    assert e["odd"]["win_probability"] == Fraction(1, 2)
    # single number: on one die 75 throws, two dice 15, three dice 1, none 125
    assert e["single_2"]["distribution"] == {-1: Fraction(125, 216), 1: Fraction(75, 216),
                                              2: Fraction(15, 216), 3: Fraction(1, 216)}
    assert e["single_2"]["win_probability"] == Fraction(91, 216)


def test_edges_equal_mean_of_independent_settlement():
    """Every bet's house edge is minus the mean of the independently written nets over the 216 throws."""
    e = sicbo.edge({"odd_even_lose_on_triple": True, "three_faces": "any", "short_faces": "any"})
    for bet in expected_ids("any", "any"):
        mean = sum(expected_net(bet, d, odd_even_lose_on_triple=True, three_faces="any", short_faces="any")
                   for d in ALL_THROWS) / 216
        assert e[bet]["house_edge"] == -mean, bet


@pytest.mark.parametrize("pay", range(18, 31))
def test_pay_5_16_every_value_SB_6_6(pay):
    e = sicbo.edge({"pay_5_16": pay})
    for total in (5, 16):  # 6 of the 216 throws total 5 (1-1-3 and 1-2-2, three orders each)
        assert e["total_%d" % total]["pays"] == "%d:1" % pay
        assert e["total_%d" % total]["house_edge"] == 1 - Fraction(6 * (pay + 1), 216)
    assert sicbo.resolve((1, 2, 2), {"pay_5_16": pay})["total_5"] == pay


@pytest.mark.parametrize("pay", range(14, 19))
def test_pay_6_15_every_value_SB_6_6(pay):
    e = sicbo.edge({"pay_6_15": pay})
    for total in (6, 15):  # 10 throws total 6: 1-1-4 (3), 1-2-3 (6), 2-2-2 (1)
        assert e["total_%d" % total]["house_edge"] == 1 - Fraction(10 * (pay + 1), 216)
    assert sicbo.resolve((5, 5, 5), {"pay_6_15": pay})["total_15"] == pay


def test_flags_report_odd_even_zero_edge_and_the_option_clears_them_SB_7():
    lines = sicbo.flags()
    assert len(lines) == 2
    assert lines[0].startswith("odd ") and lines[1].startswith("even ")
    assert all("not positive" in line and "SB-7" in line for line in lines)
    assert sicbo.flags({"odd_even_lose_on_triple": True}) == []
    e = sicbo.edge({"odd_even_lose_on_triple": True})
    assert e["odd"]["house_edge"] == Fraction(6, 216)  # the 3 odd triples now lose: 105 wins of 216


@settings(max_examples=60, deadline=None)
@given(pay_5_16=st.integers(18, 30), pay_6_15=st.integers(14, 18), lose=st.booleans(),
       dice=st.tuples(*[st.integers(1, 6)] * 3))
def test_random_option_sets_and_throws_SB_6_6(pay_5_16, pay_6_15, lose, dice):
    opts = {"pay_5_16": pay_5_16, "pay_6_15": pay_6_15, "odd_even_lose_on_triple": lose}
    nets = sicbo.resolve(dice, opts)
    for bet, net in nets.items():
        assert net == expected_net(bet, dice, **opts), bet
    # the order of the dice never matters
    assert sicbo.resolve(tuple(reversed(dice)), opts) == nets


def test_loose_readings_are_flagged_by_the_paytable_check_SB_5_9_SB_5_12():
    """Read loosely, SB-5.9 and SB-5.12 would hand the player an edge: the check must say so."""
    lines = sicbo.flags({"double_single_faces": "any"})
    flagged = [line.split()[0] for line in lines]
    assert flagged == ["odd", "even"] + ["double_single_%d_%d" % (a, b) for a in range(1, 7) for b in range(1, 7)
                                         if a != b]
    e = sicbo.edge({"double_single_faces": "any"})
    assert e["double_single_3_4"]["house_edge"] == 1 - Fraction(90 * 51, 216)  # 90 pair-and-single throws
    e = sicbo.edge({"short_faces": "any"})
    assert e["double_2_5"]["house_edge"] == 1 - Fraction(30 * 9, 216)  # long's 30 throws at short's 8:1
    assert len(sicbo.flags({"short_faces": "any"}, e)) == 2 + 15
    e = sicbo.edge({"three_faces": "any"})
    assert e["three_1_1_2"]["house_edge"] == 1 - Fraction(3 * 31, 216)
    assert e["three_4_4_4"]["house_edge"] == 1 - Fraction(31, 216)


def test_parse_outcome_forms():
    assert sicbo.parse_outcome("1,2,3") == (1, 2, 3)
    assert sicbo.parse_outcome(" 6 6  1 ") == (6, 6, 1)
    assert sicbo.outcome_text((4, 5, 6)) == "4,5,6"


@pytest.mark.parametrize("text, words", [
    ("1,2,7", "1 to 6"), ("0,1,2", "1 to 6"), ("1,2", "three dice"), ("1,2,3,4", "three dice"),
    ("a,b,c", "1 to 6"), ("", "three dice"), ("1,2,-3", "1 to 6"), ("1,2,2.0", "1 to 6"),
])
def test_impossible_throws_raise_a_clear_error_SB_1_1(text, words):
    with pytest.raises(RuleError, match=words):
        sicbo.parse_outcome(text)
    with pytest.raises(RuleError):
        sicbo.resolve(text)


@pytest.mark.parametrize("dice", [5, None, (1, 2, True), (1, 2, 3.0), (1, 2)])
def test_impossible_throws_as_values_raise(dice):
    with pytest.raises(RuleError):
        sicbo.resolve(dice)


@pytest.mark.parametrize("given_opts, words", [
    ({"pay_5_16": 17}, "pay_5_16"), ({"pay_5_16": 31}, "pay_5_16"), ({"pay_6_15": 13}, "pay_6_15"),
    ({"pay_6_15": 19}, "pay_6_15"), ({"pay_5_16": "x"}, "pay_5_16"), ({"odd_even_lose_on_triple": "maybe"}, "odd_even"),
    ({"commission": "5%"}, "unknown option"), ({"three_faces": "two"}, "three_faces"),
    ({"short_faces": 2}, "short_faces"), ({"double_single_faces": ""}, "double_single_faces"),
])
def test_bad_options_raise_and_change_nothing(given_opts, words):
    before = dict(given_opts)
    with pytest.raises(RuleError, match=words):
        sicbo.edge(given_opts)
    assert given_opts == before
    assert sicbo.bets()["total_5"] == "18:1"  # defaults untouched


def test_simulate_agrees_with_exact_edges():
    sim = sicbo.simulate(4000, 7)
    exact = sicbo.edge()
    for bet in ("small", "odd", "single_1", "combo_1_2", "total_10"):
        assert abs(sim[bet]["mean_net"] + float(exact[bet]["house_edge"])) < 5 * sim[bet]["stderr"], bet
    assert sicbo.simulate(500, 3) == sicbo.simulate(500, 3)  # seeded: repeatable
    with pytest.raises(RuleError):
        sicbo.simulate(0, 1)
