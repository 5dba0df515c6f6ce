"""Rules core, dice: Sic Bo and Fish-Prawn-Crab layouts and results against hand-written expectations."""
# mp-heap: 46K
from mptest import raises
from tablectl.rules.dice import DiceTable

SICBO = DiceTable("sicbo")  # one default table for the module; others are built and dropped per test


def winners(table, d1, d2, d3):
    w = table.resolve(d1, d2, d3)  # bytes: spot, pays, spot, pays, ...
    return dict((table.spots[w[k]], w[k + 1]) for k in range(0, len(w), 2))


def throws():
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            for d3 in range(1, 7):
                yield d1, d2, d3


def test_sicbo_layout_has_every_bet_once_SB_5():
    # small big odd even, 6 singles, 6 triples, any triple, 14 totals, 30 double+single, 20 threes,
    # 15 combos, 6 doubles, 15 four-number bets
    assert len(SICBO.spots) == 4 + 6 + 6 + 1 + 14 + 30 + 20 + 15 + 6 + 15
    for i in range(len(SICBO.spots)):  # every id once: index() finds each at its own place, none earlier
        assert SICBO.index(SICBO.spots[i]) == i
    raises(ValueError, SICBO.index, "total_3")


def test_small_big_lose_on_a_triple_odd_even_do_not_SB_5_SB_7():
    for d in throws():
        w = winners(SICBO, *d)
        total = d[0] + d[1] + d[2]
        triple = d[0] == d[1] == d[2]
        assert ("small" in w) == (4 <= total <= 10 and not triple), d
        assert ("big" in w) == (11 <= total <= 17 and not triple), d
        assert ("odd" in w) == (total % 2 == 1), d  # SB-7 names only small and big
        assert ("even" in w) == (total % 2 == 0), d
        assert ("any_triple" in w) == triple


def test_single_pays_by_dice_showing_it_SB_6_3():
    for d in throws():
        w = winners(SICBO, *d)
        for n in range(1, 7):
            shows = (d[0] == n) + (d[1] == n) + (d[2] == n)
            assert w.get("single_%d" % n, 0) == shows, (d, n)


def test_literal_throws_SB_6():
    assert winners(SICBO, 2, 1, 1) == {
        "small": 1, "even": 1, "single_1": 2, "single_2": 1, "total_4": 50, "double_single_1_2": 50,
        "combo_1_2": 5, "double_1": 8}
    assert winners(SICBO, 6, 2, 4) == {
        "big": 1, "even": 1, "single_2": 1, "single_4": 1, "single_6": 1, "total_12": 6,
        "three_2_4_6": 30, "combo_2_4": 5, "combo_2_6": 5, "combo_4_6": 5,
        "four_1_2_4_6": 7, "four_2_3_4_6": 7, "four_2_4_5_6": 7}
    assert winners(SICBO, 5, 5, 5) == {
        "odd": 1, "single_5": 3, "triple_5": 150, "any_triple": 24, "double_5": 8, "total_15": 14}
    assert winners(SICBO, 1, 1, 1) == {"odd": 1, "single_1": 3, "triple_1": 150, "any_triple": 24, "double_1": 8}


def test_pay_options_and_layout_triple_rule_SB_6_6_SB_7():
    t = DiceTable("sicbo", pay_5_16=30, pay_6_15=18, odd_even_lose_on_triple=True)
    assert winners(t, 1, 1, 3)["total_5"] == 30
    assert winners(t, 6, 6, 4)["total_16"] == 30
    assert winners(t, 1, 2, 3)["total_6"] == 18
    assert "even" not in winners(t, 2, 2, 2) and "odd" not in winners(t, 3, 3, 3)
    assert winners(t, 2, 2, 3)["odd"] == 1
    assert winners(SICBO, 1, 1, 3)["total_5"] == 18 and winners(SICBO, 1, 2, 3)["total_6"] == 14


def test_fish_prawn_crab_literal_throws_FPC_5_FPC_6():
    f = DiceTable("fish_prawn_crab")
    assert len(f.spots) == 2 + 6 + 9 + 1 + 6 + 1 + 14
    # fish red, two roosters red: three red dice
    assert winners(f, 1, 6, 6) == {"big": 1, "single_fish": 1, "single_rooster": 2, "color3_red": 20,
                                   "any_color3": 7, "total_13": 8}
    # prawn green, gourd blue, coin blue
    assert winners(f, 2, 3, 4) == {"small": 1, "single_prawn": 1, "single_gourd": 1, "single_coin": 1,
                                   "color1_green": 1, "color2_blue": 3, "total_9": 6}
    assert winners(f, 5, 5, 5) == {"single_crab": 3, "triple_crab": 150, "any_triple": 24,
                                   "color3_green": 20, "any_color3": 7, "total_15": 14}
    f = None  # one fish-prawn-crab table at a time, as a board holds one
    g = DiceTable("fish_prawn_crab", color2_at_least=True)
    assert winners(g, 1, 6, 6)["color2_red"] == 3 and winners(g, 2, 3, 4)["color2_blue"] == 3


def test_bad_dice_and_options_raise_ValueError():
    for d in ((0, 1, 1), (1, 7, 1), (1, 1, -1), (1.0, 2, 3), ("1", 2, 3), (None, 1, 1)):  # SB-1.1: faces 1-6
        raises(ValueError, SICBO.resolve, *d)
    raises(ValueError, DiceTable, "craps")
    raises(ValueError, DiceTable, "sicbo", pay_5_16=31)
    raises(ValueError, DiceTable, "sicbo", pay_6_15=13)
    raises(ValueError, DiceTable, "sicbo", color2_at_least=True)
    raises(ValueError, DiceTable, "fish_prawn_crab", pay_5_16=20)
    raises(ValueError, DiceTable, "fish_prawn_crab", odd_even_lose_on_triple=True)


def test_pays_of_one_spot_and_shared_rows():
    assert SICBO.pays(SICBO.index("total_4"), 1, 2, 1) == 50
    assert SICBO.pays(SICBO.index("single_3"), 3, 3, 1) == 2
    assert SICBO.pays(SICBO.index("big"), 1, 2, 1) == 0
    # the same unordered throw is one precomputed bytes, whatever the order of the dice
    assert SICBO.resolve(1, 2, 3) is SICBO.resolve(3, 1, 2)


def test_table_spots_are_the_layout_ids_in_the_generated_order_SB_5():
    assert (SICBO.spots[0], SICBO.spots[1], SICBO.spots[4], SICBO.spots[116]) == (
        "small", "big", "single_1", "four_3_4_5_6")
