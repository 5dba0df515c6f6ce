"""Rules core, footprint: the modules of each controller import, and build their tables, within a board's heap."""
# mp-heap: 32K
import gc


def used():
    gc.collect()
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0


def test_fantan_and_progressive_cores_fit_a_32k_heap_together():
    """Everything but the dice tables: the fan-tan core, and the progressive core with a pool."""
    from tablectl.rules import awards, cards, fantan, hands, pool
    p = pool.Pool(**awards.config_for("fortune3", 100000, 1000, 10 ** 8,
                                      {"flush": 1, "full_house": 2, "four_of_a_kind": 3}))
    p.contribute(5000)
    assert fantan.resolve(4)[0] and hands.classify5(cards.parse_many("As Ks Qs Js Ts")) == hands.ROYAL
    assert p.pool == 100500
