"""Rules core, footprint: every core module imported at once, and used, in a 32K heap (issue 4)."""
# mp-heap: 32K
import sys

from tablectl.rules import awards, cards, dice, dicetab, fantan, hands, pool

CORE = ("cards", "dicetab", "dice", "fantan", "hands", "awards", "pool")


def test_every_core_module_is_imported_in_a_32k_heap():
    """With the unix port's 64-bit objects (a board's are half the size) the whole core, held at once
    by this module, fits the heap a small board gives the firmware."""
    for name in CORE:
        assert "tablectl.rules." + name in sys.modules, name
    assert len(dicetab.ORDER) == 216  # the generated dice rows are in the heap too, not dropped


def test_progressive_core_runs_a_round_in_a_32k_heap_CSP_10_2():
    p = pool.Pool(**awards.config_for("fortune3", 100000, 1000, 10 ** 8,
                                      {"flush": 1000, "full_house": 2000, "four_of_a_kind": 3000}))
    assert p.lock([5000, 0, 2500]) == 750
    cls = hands.classify_3_plus_2(cards.parse_many("As Ks Qs"), cards.parse_many("Js Ts"))
    assert p.settle([(3, cls)]) == [(3, hands.ROYAL, 100750)]  # F3-16.3.1: the royal takes the pool
    assert p.pool == 100000


def test_fantan_core_answers_in_a_32k_heap_FT_3_FT_9():
    assert fantan.result_from_count(13) == 1  # FT-3.1: 13 = 3 x 4 + 1
    wins, pushes = fantan.resolve(1)
    assert fantan.index("fan_1") in wins and fantan.index("nim_2_1") in pushes  # FT-6.2.2, FT-8
    assert fantan.win_cents(fantan.index("fan_1"), 10000) == 28500  # 3:1 less 5% (FT-7, FT-9)
