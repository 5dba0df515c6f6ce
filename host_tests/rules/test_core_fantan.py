"""Rules core, fan-tan: count rule, winning and pushing spots, commission in cents (FT-3, FT-5.3, FT-6..FT-9)."""
# mp-heap: 28K
from mptest import raises
from tablectl.rules import fantan


def test_result_from_count_FT_3_FT_5_3():
    assert [fantan.result_from_count(n) for n in range(1, 10)] == [1, 2, 3, 4, 1, 2, 3, 4, 1]
    assert fantan.result_from_count(10, 1) == 1  # nine whole buttons (FT-5.3)
    assert fantan.result_from_count(100) == 4  # none left is four (FT-3.2)
    for count, broken in ((0, 0), (3, 3), (-1, 0), (5, -1), (5, 6)):
        raises(ValueError, fantan.result_from_count, count, broken)


def test_result_three_wins_and_pushes_FT_6_1_to_6_2_4_FT_8():
    wins, pushes = fantan.resolve(3)
    assert set(fantan.SPOTS[i] for i in wins) == {
        "fan_3", "nim_3_1", "nim_3_2", "nim_3_4", "kwok_2_3", "kwok_3_4", "kwok_1_3",
        "nga_1_3_2", "nga_1_3_4", "nga_2_3_1", "nga_2_3_4", "nga_3_4_1", "nga_3_4_2",
        "sam_hong_1_2_3", "sam_hong_1_3_4", "sam_hong_2_3_4"}
    assert set(fantan.SPOTS[i] for i in pushes) == {
        "nim_1_3", "nim_2_3", "nim_4_3", "nga_1_2_3", "nga_1_4_3", "nga_2_4_3"}


def test_every_spot_wins_pushes_or_loses_once_per_result():
    for r in (1, 2, 3, 4):
        wins, pushes = fantan.resolve(r)
        assert not set(wins) & set(pushes)
    # a fan wins once in four, a kwok twice, a sam hong three times; a nim and a nga push once
    counts = [0] * len(fantan.SPOTS)
    for r in (1, 2, 3, 4):
        for i in fantan.resolve(r)[0]:
            counts[i] += 1
    for i in range(len(fantan.SPOTS)):
        kind = fantan.SPOTS[i].split("_")[0]
        assert counts[i] == {"fan": 1, "nim": 1, "kwok": 2, "nga": 2, "sam": 3}[kind], fantan.SPOTS[i]


def test_win_cents_after_five_percent_rounded_down_FT_7_FT_9():
    cases = (("fan_2", 100, 285), ("nim_1_2", 100, 190), ("kwok_1_2", 100, 95), ("nga_1_2_3", 100, 47),
             ("sam_hong_1_2_3", 100, 31), ("sam_hong_1_2_3", 300, 95), ("nga_1_2_3", 40, 19),
             ("fan_1", 1, 2), ("fan_1", 0, 0), ("kwok_1_4", 2000, 1900))
    for spot, stake, cents in cases:
        assert fantan.win_cents(fantan.index(spot), stake) == cents, (spot, stake)


def test_bad_input_raises_ValueError():
    raises(ValueError, fantan.resolve, 0)
    raises(ValueError, fantan.resolve, 5)
    raises(ValueError, fantan.win_cents, len(fantan.SPOTS), 100)
    raises(ValueError, fantan.win_cents, 0, -1)
    raises(ValueError, fantan.win_cents, 0, fantan.MAX_STAKE_CENTS + 1)
    raises(ValueError, fantan.index, "fan_5")


def test_non_numbers_raise_ValueError_not_TypeError():
    raises(ValueError, fantan.resolve, "3")
    raises(ValueError, fantan.win_cents, 0, "100")
    raises(ValueError, fantan.win_cents, "0", 1)
    raises(ValueError, fantan.result_from_count, "7")
