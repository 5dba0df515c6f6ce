"""Rules core, footprint: every core module imported at once, and used, within the heap on the next line."""
# mp-heap: 48K
# Issue 4's target is 32K; not reached on the 64-bit unix port (objects and pointers twice a board's):
# the whole core held at once, the generated dice rows and a Sic Bo table included, with this runner and
# module, passes from 42-43K (52K before the core's diet, which needed it without a dice table). Held:
# ~25 KB of core, dicetab ~4.7 KB, the table ~4.3 KB, the runner ~4 KB; the rest is holes the .mpy
# loader leaves (hundreds of 16-byte blocks). `make bench` prints the per-module figures.
from tablectl.rules import awards, cards, dice, dicetab, fantan, hands, pool

# held by this module for its whole run (a DiceTable drops dicetab from sys.modules, not from here)
CORE = (cards, dicetab, dice, fantan, hands, awards, pool)


def test_every_core_module_is_imported_at_once():
    names = [m.__name__ for m in CORE]
    assert names == ["tablectl.rules." + n for n in ("cards", "dicetab", "dice", "fantan", "hands", "awards", "pool")]
    assert len(dicetab.ORDER) == 216  # the generated dice rows are in the heap too


def test_sicbo_core_builds_a_table_and_resolves_a_throw_with_the_whole_core_loaded_SB_5_SB_6():
    table = dice.DiceTable("sicbo", pay_5_16=24)
    w = table.resolve(4, 1, 1)  # total 6: small, even, 1 twice, 4 once, double 1, 1-4 pairs
    got = {}
    for k in range(0, len(w), 2):
        got[table.spots[w[k]]] = w[k + 1]
    assert got == {"small": 1, "even": 1, "single_1": 2, "single_4": 1, "total_6": 14, "double_1": 8,
                   "combo_1_4": 5, "double_single_1_4": 50}  # SB-6.2-6.13
    assert table.pays(table.index("total_5"), 3, 1, 1) == 24  # the table's option (SB-6.6: 18..30)


def test_progressive_core_runs_a_round_with_the_whole_core_loaded_F3_16_3():
    p = pool.Pool(**awards.config_for("fortune3", 100000, 1000, 10 ** 8,
                                      {"flush": 1000, "full_house": 2000, "four_of_a_kind": 3000}))
    assert p.lock([5000, 0, 2500]) == 750  # 10% of 75.00
    cls = hands.classify_3_plus_2([cards.parse(c) for c in ("As", "Ks", "Qs")], [cards.parse("Js"), cards.parse("Ts")])
    assert p.settle([(3, cls)]) == [(3, hands.ROYAL, 100750)]  # F3-16.3.1: the royal takes the pool
    assert p.pool == 100000  # and the pool restarts from its seed


def test_fantan_core_answers_with_the_whole_core_loaded_FT_3_FT_9():
    assert fantan.result_from_count(13) == 1  # FT-3.1: 13 = 3 x 4 + 1
    wins, pushes = fantan.resolve(1)
    assert fantan.index("fan_1") in wins and fantan.index("nim_2_1") in pushes  # FT-6.2.2, FT-8
    assert fantan.win_cents(fantan.index("fan_1"), 10000) == 28500  # 3:1 less 5% (FT-7, FT-9)

