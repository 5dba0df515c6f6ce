"""Fan-Tan reference engine (58/2004) against expectations written here from the regulation."""
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings, strategies as st

from rulebook import RuleError, analysis, fantan

FIVE_PERCENT = Fraction(5, 100)  # FT-9


def expected_ids(any_kwok=False):
    ids = ["fan_%d" % n for n in (1, 2, 3, 4)]
    ids += ["nim_%d_%d" % wp for wp in permutations((1, 2, 3, 4), 2)]
    kwok = ["1_2", "1_4", "2_3", "3_4"] if not any_kwok else ["1_2", "1_3", "1_4", "2_3", "2_4", "3_4"]
    ids += ["kwok_" + k for k in kwok]
    ids += ["nga_%d_%d_%d" % (a, b, p) for a in (1, 2, 3, 4) for b in (1, 2, 3, 4) for p in (1, 2, 3, 4)
            if a < b and p not in (a, b)]
    return ids + ["sam_hong_1_2_3", "sam_hong_1_2_4", "sam_hong_1_3_4", "sam_hong_2_3_4"]


def expected_net(bet, result, commission=FIVE_PERCENT):
    """FT-6.1-6.2.4, FT-7, FT-8 and FT-9 from the id: winners get the FT-7 pay less FT-9's share of it, pushers 0."""
    name = "sam_hong" if bet.startswith("sam_hong_") else bet.split("_")[0]
    numbers = [int(p) for p in bet.split("_") if p.isdigit()]
    if name == "fan":
        pay, winners, pushes = Fraction(3), numbers, []  # FT-7.1.1 一賠三
    elif name == "nim":
        pay, winners, pushes = Fraction(2), numbers[:1], numbers[1:]  # FT-7.1.2 一賠二
    elif name == "kwok":
        pay, winners, pushes = Fraction(1), numbers, []  # FT-7.2 一賠一
    elif name == "nga":
        pay, winners, pushes = Fraction(1, 2), numbers[:2], numbers[2:]  # FT-7.1.3 二賠一
    elif name == "sam_hong":
        pay, winners, pushes = Fraction(1, 3), numbers, []  # FT-7.1.4 三賠一
    else:
        raise AssertionError(bet)
    if result in winners:
        return pay - pay * commission
    return Fraction(0) if result in pushes else Fraction(-1)


def test_every_bet_id_with_its_pays_FT_7_1_1_to_7_2():
    pays = fantan.bets()
    assert list(pays) == expected_ids()
    assert (pays["fan_2"], pays["nim_4_1"], pays["kwok_1_4"], pays["nga_2_4_1"], pays["sam_hong_1_3_4"]) == \
        ("3:1", "2:1", "1:1", "1:2", "1:3")


@pytest.mark.parametrize("result", [1, 2, 3, 4])
def test_all_four_results_every_bet_FT_6_1_to_7_2_FT_8_FT_9(result):
    nets = fantan.resolve(result)
    assert list(nets) == expected_ids()
    for bet, net in nets.items():
        assert net == expected_net(bet, result), (bet, result)


def test_fan_win_keeps_95_percent_of_the_pay_FT_9():
    assert fantan.resolve(2)["fan_2"] == Fraction(57, 20)  # 3 less 5% of 3
    assert fantan.resolve(2)["nga_1_2_3"] == Fraction(19, 40)  # 1/2 less 5%
    assert fantan.resolve(3)["nga_1_2_3"] == 0  # FT-8: the tie returns the stake, no commission
    assert fantan.resolve(4)["nga_1_2_3"] == -1


def test_published_house_edges_with_five_percent_FT_9():
    e = fantan.edge()
    assert e["fan_1"]["house_edge"] == Fraction(375, 10000)  # 3.75%
    assert e["nim_1_2"]["house_edge"] == Fraction(25, 1000)  # 2.5%
    assert e["kwok_2_3"]["house_edge"] == Fraction(25, 1000)  # 2.5%
    assert e["nga_1_2_3"]["house_edge"] == Fraction(125, 10000)  # 1.25%
    assert e["sam_hong_1_2_3"]["house_edge"] == Fraction(125, 10000)  # 1.25%
    assert e["nim_1_2"]["win_probability"] == Fraction(1, 4) and e["nga_1_2_3"]["win_probability"] == Fraction(1, 2)
    assert fantan.flags() == []


@settings(max_examples=50, deadline=None)
@given(commission=st.fractions(min_value=0, max_value=1, max_denominator=1000))
def test_edge_is_commission_times_expected_pay_for_any_commission_FT_9(commission):
    e = fantan.edge({"commission": commission})
    # equally likely results: without commission every bet is fair, so the edge is exactly the
    # commission on the expected pay: P(win) x pay x commission
    assert e["fan_3"]["house_edge"] == Fraction(1, 4) * 3 * commission
    assert e["nim_3_1"]["house_edge"] == Fraction(1, 4) * 2 * commission
    assert e["kwok_3_4"]["house_edge"] == Fraction(1, 2) * 1 * commission
    assert e["nga_1_4_2"]["house_edge"] == Fraction(1, 2) * Fraction(1, 2) * commission
    assert e["sam_hong_2_3_4"]["house_edge"] == Fraction(3, 4) * Fraction(1, 3) * commission
    flagged = fantan.flags({"commission": commission}, e)
    assert len(flagged) == (len(e) if commission == 0 else 0)


def test_a_loaded_heap_through_the_shared_analysis_FT_3_1():
    """The engine assumes equally likely results; the shared analysis takes any weights, e.g. a heap
    whose result r comes up with weight r (1+2+3+4 = 10)."""
    figures = analysis.edges([(r, r) for r in (1, 2, 3, 4)], fantan.resolve, fantan.bets())
    keep = Fraction(19, 20)
    assert figures["fan_4"]["house_edge"] == -(Fraction(4, 10) * 3 * keep - Fraction(6, 10))
    assert figures["nim_1_4"]["house_edge"] == -(Fraction(1, 10) * 2 * keep - Fraction(5, 10))
    assert figures["nga_3_4_1"]["distribution"] == {-1: Fraction(2, 10), 0: Fraction(1, 10), keep / 2: Fraction(7, 10)}
    assert figures["nga_3_4_1"]["win_probability"] == Fraction(7, 10)


def test_commission_option_forms_and_range_FT_9():
    assert fantan.resolve(1, {"commission": "10%"})["fan_1"] == Fraction(27, 10)
    assert fantan.resolve(1, {"commission": "0.05"})["fan_1"] == Fraction(57, 20)
    assert fantan.resolve(1, {"commission": "0"})["fan_1"] == 3
    for bad in ("-1%", "101%", "x", "1/0"):
        with pytest.raises(RuleError, match="commission"):
            fantan.resolve(1, {"commission": bad})


def test_kwok_pairs_option_FT_6_1():
    assert list(fantan.bets({"kwok_pairs": "any"})) == expected_ids(any_kwok=True)
    assert fantan.resolve(3, {"kwok_pairs": "any"})["kwok_1_3"] == Fraction(19, 20)
    with pytest.raises(RuleError, match="kwok_pairs"):
        fantan.bets({"kwok_pairs": "diagonal"})


def removal_four_at_a_time(buttons):
    """FT-3.1 as the dealer does it: take four away while more than four remain; what is left is the
    result (four left at the end is the 'zero' of FT-3.2, announced as 4)."""
    while buttons > 4:
        buttons -= 4
    return buttons


@settings(max_examples=200, deadline=None)
@given(count=st.integers(1, 100000), data=st.data())
def test_result_from_count_with_broken_buttons_FT_3_1_FT_5_3(count, data):
    broken = data.draw(st.integers(0, count - 1))
    expected = removal_four_at_a_time(count - broken)
    assert fantan.result_from_count(count, broken) == expected
    assert fantan.parse_outcome("count=%d,broken=%d" % (count, broken)) == expected
    if broken == 0:
        assert fantan.parse_outcome("count=%d" % count) == removal_four_at_a_time(count)


def test_small_counts_FT_3_2():
    assert [fantan.result_from_count(n) for n in range(1, 10)] == [1, 2, 3, 4, 1, 2, 3, 4, 1]
    assert fantan.result_from_count(8, broken=1) == 3  # the broken button is void (FT-5.3)


@pytest.mark.parametrize("count, broken", [(0, 0), (3, 3), (2, 5), (-1, 0), (5, -1), (True, 0), (4.0, 0), ("8", 0)])
def test_bad_counts_raise(count, broken):
    with pytest.raises(RuleError):
        fantan.result_from_count(count, broken)


@pytest.mark.parametrize("text", ["0", "5", "-1", "x", "count=0", "count=x", "broken=1", "count=4,broken=4",
                                  "count=5,count=6", "colour=3", "1.0", ""])
def test_impossible_outcomes_raise(text):
    with pytest.raises(RuleError):
        fantan.parse_outcome(text)
    with pytest.raises(RuleError):
        fantan.resolve(text)


@pytest.mark.parametrize("value", [True, 0, 5, 2.0, None, (1,)])
def test_impossible_results_as_values_raise(value):
    with pytest.raises(RuleError):
        fantan.resolve(value)


def test_outcome_text_and_zero_message():
    assert fantan.outcome_text(fantan.parse_outcome("count=12")) == "4"
    with pytest.raises(RuleError, match="1 to 4"):
        fantan.parse_outcome("0")


def test_simulate_agrees_with_exact_edges():
    sim = fantan.simulate(4000, 11)
    exact = fantan.edge()
    for bet in ("fan_1", "nim_2_3", "nga_1_2_3"):
        assert abs(sim[bet]["mean_net"] + float(exact[bet]["house_edge"])) < 5 * sim[bet]["stderr"], bet
