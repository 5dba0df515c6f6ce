"""Rules core, footprint: every core module imported at once, and used, within the heap on the next line."""
# mp-heap: 52K
# Issue 4's target is 32K. On the 64-bit unix port (objects and pointers twice a board's) the whole core
# held at once, the generated dice rows included, with the test runner, passes from 48K; the core alone
# keeps ~36 KB after import (`make bench` prints the figures).
from tablectl.rules import awards, cards, dice, dicetab, fantan, hands, pool

# held by this module for its whole run (a DiceTable drops dicetab from sys.modules, not from here)
CORE = (cards, dicetab, dice, fantan, hands, awards, pool)


def test_every_core_module_is_imported_at_once():
    names = [m.__name__ for m in CORE]
    assert names == ["tablectl.rules." + n for n in ("cards", "dicetab", "dice", "fantan", "hands", "awards", "pool")]
    assert len(dicetab.ORDER) == 216  # the generated dice rows are in the heap too


def test_progressive_core_runs_a_round_with_the_whole_core_loaded_F3_16_3():
    p = pool.Pool(**awards.config_for("fortune3", 100000, 1000, 10 ** 8,
                                      {"flush": 1000, "full_house": 2000, "four_of_a_kind": 3000}))
    assert p.lock([5000, 0, 2500]) == 750  # 10% of 75.00
    cls = hands.classify_3_plus_2(cards.parse_many("As Ks Qs"), cards.parse_many("Js Ts"))
    assert p.settle([(3, cls)]) == [(3, hands.ROYAL, 100750)]  # F3-16.3.1: the royal takes the pool
    assert p.pool == 100000  # and the pool restarts from its seed


def test_fantan_core_answers_with_the_whole_core_loaded_FT_3_FT_9():
    assert fantan.result_from_count(13) == 1  # FT-3.1: 13 = 3 x 4 + 1
    wins, pushes = fantan.resolve(1)
    assert fantan.index("fan_1") in wins and fantan.index("nim_2_1") in pushes  # FT-6.2.2, FT-8
    assert fantan.win_cents(fantan.index("fan_1"), 10000) == 28500  # 3:1 less 5% (FT-7, FT-9)

