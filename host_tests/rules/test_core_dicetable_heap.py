"""Rules core, footprint: a Sic Bo and a Fish-Prawn-Crab DiceTable build in a 32K heap, each within its budget."""
# mp-heap: 32K
import gc

from tablectl.rules.dice import DiceTable

try:  # under pytest a skip must be pytest's; on the unix port tools/mptest.py counts its own
    from pytest import skip as _pytest_skip
    Skip = _pytest_skip.Exception
except ImportError:
    from mptest import Skip

# Heap a table keeps on the 64-bit unix port (a board's objects are half the size): its rows as bytes
# (spot, pays pairs) and its spot ids as one string. Tuples of (spot, pays) tuples and a tuple of id
# strings took 18-19 KB for sic bo; `make bench` prints the figure (about 5.4 KB).
SICBO_BUDGET = 7 * 1024
FPC_BUDGET = 7 * 1024


def kept_by(build):
    if not hasattr(gc, "mem_alloc"):
        raise Skip("gc.mem_alloc is MicroPython-only")
    gc.collect()
    before = gc.mem_alloc()
    table = build()
    gc.collect()
    return table, gc.mem_alloc() - before


def test_sicbo_table_fits_its_budget_SB_5():
    table, used = kept_by(lambda: DiceTable("sicbo", pay_5_16=30, pay_6_15=18, odd_even_lose_on_triple=True))
    assert used <= SICBO_BUDGET, used
    assert len(table.spots) == 117 and len(table.resolve(6, 6, 6)) > 0


def test_fish_prawn_crab_table_fits_its_budget_FPC_5():
    table, used = kept_by(lambda: DiceTable("fish_prawn_crab"))
    assert used <= FPC_BUDGET, used
    assert len(table.spots) == 39 and len(table.resolve(1, 1, 1)) > 0
