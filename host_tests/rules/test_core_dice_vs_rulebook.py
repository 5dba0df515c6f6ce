"""The firmware dice table against rulebook.sicbo / rulebook.fish_prawn_crab: every throw x every option set
(SB-5, SB-6, SB-7, FPC-5, FPC-6, FPC-7)."""
import itertools
from fractions import Fraction

import pytest

from rulebook import fish_prawn_crab, sicbo
from tablectl.rules.dice import DiceTable

THROWS = list(itertools.product(range(1, 7), repeat=3))
# Every value of every option, each with both triple rules: pay_5_16 moves only totals 5/16 and pay_6_15
# only 6/15, so pairing them off (13 pairs, cycling 6/15) covers each value without the 130-set product.
SICBO_OPTION_SETS = [
    {"pay_5_16": p5, "pay_6_15": 14 + k % 5, "odd_even_lose_on_triple": oe}
    for k, p5 in enumerate(range(18, 31)) for oe in (False, True)
]
FPC_OPTION_SETS = [{"color2_at_least": v} for v in (False, True)]


def firmware_nets(table, dice):
    """Net per unit for every spot as the firmware pays it: +pays for a listed spot, -1 otherwise."""
    w = table.resolve(*dice)  # bytes: spot, pays, spot, pays, ...
    won = {table.spots[w[k]]: w[k + 1] for k in range(0, len(w), 2)}
    return {spot: Fraction(won.get(spot, -1)) for spot in table.spots}


def check_all_throws(module, table, opts):
    assert set(table.spots) == set(module.bets(opts)), "layout spot ids differ from rulebook's bet ids"
    for dice in THROWS:
        assert firmware_nets(table, dice) == module.resolve(dice, opts), (opts, dice)


@pytest.mark.parametrize("opts", SICBO_OPTION_SETS, ids=lambda o: "5_16=%(pay_5_16)d,6_15=%(pay_6_15)d,oe=%(odd_even_lose_on_triple)s" % o)
def test_sicbo_every_throw_every_option_set_SB_5_SB_6_SB_7(opts):
    check_all_throws(sicbo, DiceTable("sicbo", **opts), opts)


@pytest.mark.parametrize("opts", FPC_OPTION_SETS, ids=lambda o: "color2_at_least=%s" % o["color2_at_least"])
def test_fish_prawn_crab_every_throw_every_option_set_FPC_5_FPC_6_FPC_7(opts):
    check_all_throws(fish_prawn_crab, DiceTable("fish_prawn_crab", **opts), opts)


def test_dice_order_never_matters_SB_5():
    """The firmware table is indexed by ordered dice: all six orders of a throw give the same spots."""
    for game in ("sicbo", "fish_prawn_crab"):
        table = DiceTable(game)
        for dice in THROWS:
            assert len({table.resolve(*p) for p in itertools.permutations(dice)}) == 1
