"""Issue 4's memory target on the MicroPython unix port: the whole rules core imports, and works, in a
fresh process with a 32 KB heap (no test runner in the way).

What is held: every module of tablectl.rules but hits (a hit's cards by game, which the progressive
controller loads: its tests' budgets hold it). The generated dice rows (dicetab) are not: a DiceTable
loads them only while it is built and then drops them; building a Sic Bo table on top of the whole
core needs more (host_tests/rules/test_core_import.py, `make bench`).
"""
from harness import mpy

USE_THE_CORE = """
import gc
from tablectl.rules import awards, cards, dice, fantan, hands, ids, pool
gc.collect()
wins, pushes = fantan.resolve(fantan.result_from_count(23))  # FT-7: 23 buttons leave 3
assert fantan.SPOTS[wins[0]] == 'fan_3', fantan.SPOTS[wins[0]]
assert hands.classify5([cards.parse(c) for c in ('As', 'Ks', 'Qs', 'Js', 'Ts')]) == hands.ROYAL
fixed = {'flush': 5000, 'full_house': 7500, 'four_of_a_kind': 10000}
p = pool.Pool(**awards.config_for('caribbean_stud', 100000, 1500, 10000000, fixed, None))
assert p.contribute(500) == 75 and p.pool == 100075  # 15% of 5.00 (CSP-10)
print('core ok, free', gc.mem_free())
"""


def test_the_whole_core_imports_and_works_in_a_32k_heap():
    proc = mpy.run(["-c", USE_THE_CORE], heap="32K")
    assert proc.returncode == 0 and "core ok" in proc.stdout, proc.stdout + proc.stderr


def test_the_same_check_fails_in_a_heap_too_small_for_it():
    # the check above can fail: at 20K the imports alone run out of memory
    proc = mpy.run(["-c", USE_THE_CORE], heap="20K")
    assert proc.returncode != 0 and "MemoryError" in proc.stdout + proc.stderr
