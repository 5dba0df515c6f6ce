"""Fish-Prawn-Crab reference engine (59/2004) against expectations written here from the regulation."""
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings, strategies as st

from rulebook import RuleError, fish_prawn_crab as fpc

ALL_THROWS = list(product(range(1, 7), repeat=3))
# FPC-1.1, copied from the regulation's table: picture, colour, points
FACE_TABLE = [("fish", "red", 1), ("prawn", "green", 2), ("gourd", "blue", 3),
              ("coin", "blue", 4), ("crab", "green", 5), ("rooster", "red", 6)]
POINTS = {name: points for name, _, points in FACE_TABLE}
COLOUR_OF = {points: colour for _, colour, points in FACE_TABLE}
TOTAL_PAYS = {4: 50, 5: 18, 6: 14, 7: 12, 8: 8, 9: 6, 10: 6, 11: 6, 12: 6, 13: 8, 14: 12, 15: 14, 16: 18, 17: 50}


def expected_ids():
    names = [name for name, _, _ in FACE_TABLE]
    ids = ["small", "big"] + ["single_" + n for n in names]
    for k in (1, 2, 3):
        ids += ["color%d_%s" % (k, c) for c in ("red", "green", "blue")]
    ids += ["any_color3"] + ["triple_" + n for n in names] + ["any_triple"]
    return ids + ["total_%d" % t for t in range(4, 18)]


def expected_net(bet, dice, color2_at_least=False):
    """FPC-5.1-5.10, FPC-6.1-6.10 and FPC-7 for one bet and throw, formulated on the list of colours shown."""
    colours = [COLOUR_OF[d] for d in dice]
    points = sum(dice)
    triple = len(set(dice)) == 1
    kind, _, arg = bet.partition("_")
    if bet == "small":
        win, pays = 4 <= points <= 10 and not triple, 1  # FPC-5.1, FPC-7
    elif bet == "big":
        win, pays = 11 <= points <= 17 and not triple, 1  # FPC-5.2, FPC-7
    elif kind == "single":
        n = list(dice).count(POINTS[arg])  # FPC-6.3
        return Fraction(n) if n else Fraction(-1)
    elif kind == "color1":
        win, pays = colours.count(arg) == 1, 1  # FPC-5.4 main clause
    elif kind == "color2":
        n = colours.count(arg)
        win, pays = n == 2 or (color2_at_least and n == 3), 3  # FPC-5.5
    elif kind == "color3":
        win, pays = colours.count(arg) == 3, 20  # FPC-5.6
    elif bet == "any_color3":
        win, pays = colours[0] == colours[1] == colours[2], 7  # FPC-5.7
    elif kind == "triple":
        win, pays = list(dice) == [POINTS[arg]] * 3, 150  # FPC-5.8
    elif bet == "any_triple":
        win, pays = triple, 24  # FPC-5.9
    elif kind == "total":
        win, pays = points == int(arg), TOTAL_PAYS[int(arg)]  # FPC-6.10
    else:
        raise AssertionError(bet)
    return Fraction(pays) if win else Fraction(-1)


def test_every_bet_id_with_its_pays_FPC_6_1_to_6_10():
    pays = fpc.bets()
    assert list(pays) == expected_ids()
    written = {"small": "1:1", "single_crab": "1:1/2:1/3:1", "color1_blue": "1:1", "color2_red": "3:1",
               "color3_green": "20:1", "any_color3": "7:1", "triple_coin": "150:1", "any_triple": "24:1",
               "total_4": "50:1", "total_16": "18:1", "total_6": "14:1", "total_14": "12:1", "total_8": "8:1",
               "total_11": "6:1"}
    assert {bet: pays[bet] for bet in written} == written


@pytest.mark.parametrize("at_least", [False, True])
def test_all_216_throws_every_bet_FPC_5_1_to_FPC_6_10_FPC_7(at_least):
    for dice in ALL_THROWS:
        nets = fpc.resolve(dice, {"color2_at_least": at_least})
        assert list(nets) == expected_ids()
        for bet, net in nets.items():
            assert net == expected_net(bet, dice, at_least), (bet, dice)


def test_color1_is_exactly_one_die_FPC_5_4():
    assert fpc.resolve("fish,prawn,gourd")["color1_red"] == 1  # one red
    assert fpc.resolve("fish,rooster,gourd")["color1_red"] == -1  # two red
    assert fpc.resolve("fish,rooster,fish")["color1_red"] == -1  # three red
    assert fpc.resolve("gourd,prawn,coin")["color1_red"] == -1  # none


def test_color2_exactly_two_by_default_and_at_least_two_as_option_FPC_5_5():
    assert fpc.resolve("crab,prawn,fish")["color2_green"] == 3
    assert fpc.resolve("crab,prawn,crab")["color2_green"] == -1
    assert fpc.resolve("crab,prawn,crab", {"color2_at_least": True})["color2_green"] == 3


def test_published_house_edges_FPC_6_3_to_6_10():
    e = fpc.edge()
    assert e["single_fish"]["house_edge"] == Fraction(17, 216)  # 7.87%, as Sic Bo's single number
    assert e["small"]["house_edge"] == Fraction(1, 36)
    for c in ("red", "green", "blue"):
        # each colour is on 2 of 6 faces: P(one die) = 1/3
        assert e["color1_%s" % c]["house_edge"] == 1 - 2 * 3 * Fraction(1, 3) * Fraction(2, 3) ** 2
        assert e["color2_%s" % c]["house_edge"] == 1 - 4 * 3 * Fraction(1, 3) ** 2 * Fraction(2, 3)
        assert e["color3_%s" % c]["house_edge"] == 1 - 21 * Fraction(1, 27)
    assert e["any_color3"]["house_edge"] == 1 - 8 * Fraction(3, 27)
    assert e["total_5"]["house_edge"] == 1 - Fraction(6 * 19, 216)  # FPC fixes 18:1, no range
    assert fpc.flags() == [fpc.COLOR1_NOTE]  # no bet without a house edge; the FPC-5.4 anomaly only
    assert "FPC-5.4" in fpc.COLOR1_NOTE


def test_at_least_two_reading_makes_color2_a_player_edge_and_flags_it_FPC_5_5():
    opts = {"color2_at_least": True}
    e = fpc.edge(opts)
    assert e["color2_blue"]["house_edge"] == Fraction(-1, 27)  # 7/27 wins at 3:1 = 28/27
    lines = fpc.flags(opts)
    assert [line.split()[0] for line in lines] == ["color2_red", "color2_green", "color2_blue", "color1_red/green/blue:"]


def test_triple_loses_small_and_big_FPC_7():
    for n in range(1, 7):
        nets = fpc.resolve((n, n, n))
        assert nets["small"] == nets["big"] == -1 and nets["any_triple"] == 24 and nets["any_color3"] == 7


def test_faces_by_name_points_or_chinese_FPC_1_1():
    assert fpc.parse_outcome("fish,prawn,crab") == (1, 2, 5)
    assert fpc.parse_outcome("魚,葫蘆,雞") == (1, 3, 6)
    assert fpc.parse_outcome("Rooster 4 coin") == (6, 4, 4)
    assert fpc.outcome_text((1, 2, 5)) == "1,2,5"


@pytest.mark.parametrize("text", ["fish,prawn,lobster", "1,2,7", "fish,prawn", "0,1,1"])
def test_impossible_throws_raise(text):
    with pytest.raises(RuleError, match="die|dice"):
        fpc.parse_outcome(text)


def test_bad_option_raises():
    with pytest.raises(RuleError, match="color2_at_least"):
        fpc.edge({"color2_at_least": "sometimes"})
    with pytest.raises(RuleError, match="unknown option"):
        fpc.bets({"pay_5_16": 20})  # a Sic Bo option: FPC-6.10 fixes the totals


@settings(max_examples=40, deadline=None)
@given(dice=st.lists(st.sampled_from([name for name, _, _ in FACE_TABLE]), min_size=3, max_size=3))
def test_named_and_numbered_throws_settle_alike(dice):
    by_name = fpc.resolve(",".join(dice))
    assert by_name == fpc.resolve(tuple(POINTS[d] for d in dice))
