"""Rules core, memory: the hot paths allocate nothing, proven under micropython.heap_lock."""
# mp-heap: 46K
import gc

try:
    import micropython
except ImportError:  # CPython
    micropython = None
try:  # under pytest a skip must be pytest's; on the unix port tools/mptest.py counts its own
    from pytest import skip as _pytest_skip
    Skip = _pytest_skip.Exception
except ImportError:
    from mptest import Skip


def locked(fn):
    """Run fn() with the heap locked: any allocation raises MemoryError (MicroPython only)."""
    if micropython is None or not hasattr(micropython, "heap_lock"):
        raise Skip("micropython.heap_lock is MicroPython-only")
    gc.collect()
    micropython.heap_lock()
    try:
        return fn()
    finally:
        micropython.heap_unlock()


def test_dice_resolve_allocates_nothing_SB_3_2():
    from tablectl.rules import dice
    table = dice.DiceTable("sicbo", pay_5_16=24, odd_even_lose_on_triple=True)

    def every_throw():
        n = 0
        d1 = 1
        while d1 <= 6:
            d2 = 1
            while d2 <= 6:
                d3 = 1
                while d3 <= 6:
                    n += len(table.resolve(d1, d2, d3)) // 2  # winning spots
                    d3 += 1
                d2 += 1
            d1 += 1
        return n

    assert locked(every_throw) > 216


def test_fantan_resolve_and_win_allocate_nothing_FT_7_FT_9():
    from tablectl.rules import fantan

    def every_result():
        total = 0
        r = 1
        while r <= 4:
            wins, pushes = fantan.resolve(r)
            for i in wins:
                total += fantan.win_cents(i, 123456789)
            r += 1
        return total

    assert locked(every_result) > 0


def test_pool_contribution_allocates_nothing():
    from tablectl.rules import awards, pool
    p = pool.Pool(**awards.config_for("caribbean_stud", 100000, 1750, 10 ** 9,
                                      {"flush": 1, "full_house": 2, "four_of_a_kind": 3}))

    def many_bets():
        added = 0
        bet = 1
        while bet < 200000:
            added += p.contribute(bet)
            bet += 997
        return added

    added = locked(many_bets)
    assert added == p.contributed and p.pool == 100000 + added
