"""The firmware fan-tan core against rulebook.fantan: every result, every spot, the count rule and the
commission in cents (FT-3, FT-5.3, FT-6, FT-7, FT-8, FT-9)."""
import math
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from rulebook import fantan as ref
from rulebook.errors import RuleError
from tablectl.rules import fantan

LAYOUTS = ("adjacent", "any")


def offered(kwok_pairs):
    return [s for s in fantan.SPOTS if kwok_pairs == "any" or s not in fantan.KWOK_ANY_ONLY]


@pytest.mark.parametrize("kwok_pairs", LAYOUTS)
def test_spot_ids_are_rulebooks_bets_FT_6(kwok_pairs):
    assert sorted(offered(kwok_pairs)) == sorted(ref.bets({"kwok_pairs": kwok_pairs}))


@pytest.mark.parametrize("kwok_pairs", LAYOUTS)
@pytest.mark.parametrize("result", (1, 2, 3, 4))
def test_every_spot_every_result_FT_7_FT_8_FT_9(result, kwok_pairs):
    nets = ref.resolve(result, {"kwok_pairs": kwok_pairs})
    wins, pushes = fantan.resolve(result)
    for spot in offered(kwok_pairs):
        i = fantan.index(spot)
        net = nets[spot]
        if net > 0:
            assert i in wins and i not in pushes, spot
            for stake in (0, 1, 2, 3, 19, 20, 21, 59, 60, 61, 100, 101, 999, 2500, 10 ** 6 + 7):
                assert fantan.win_cents(i, stake) == math.floor(net * stake), (spot, stake)
        elif net == 0:
            assert i in pushes and i not in wins, spot
        else:
            assert net == -1 and i not in wins and i not in pushes, spot


@given(st.integers(0, fantan.MAX_STAKE_CENTS), st.integers(0, len(fantan.SPOTS) - 1))
def test_win_in_cents_is_the_exact_net_rounded_down_FT_9(stake, i):
    spot = fantan.SPOTS[i]
    winning_result = next(r for r in (1, 2, 3, 4) if i in fantan.resolve(r)[0])
    net = ref.resolve(winning_result, {"kwok_pairs": "any"})[spot]
    cents = fantan.win_cents(i, stake)
    assert cents == math.floor(net * stake)
    assert cents < 2 ** 30


@given(st.integers(0, 10 ** 6), st.integers(0, 50))
def test_result_from_count_matches_rulebook_FT_3_FT_5_3(count, broken):
    try:
        expected = ref.result_from_count(count, broken)
    except RuleError:
        with pytest.raises(ValueError):
            fantan.result_from_count(count, broken)
    else:
        assert fantan.result_from_count(count, broken) == expected


def test_stake_limit_keeps_money_below_2_30():
    top = fantan.index("fan_1")
    assert fantan.win_cents(top, fantan.MAX_STAKE_CENTS) < 2 ** 30
    assert Fraction(3) * (fantan.MAX_STAKE_CENTS + 1) < 2 ** 30  # the gross win too
    with pytest.raises(ValueError):
        fantan.win_cents(top, fantan.MAX_STAKE_CENTS + 1)
