"""Rules core, footprint: the progressive core (cards, hands, pool, awards) imports and runs in a 32K heap."""
# mp-heap: 32K
from tablectl.rules import awards, cards, hands, pool


def test_progressive_core_runs_a_round_in_a_32k_heap():
    """With the unix port's 64-bit objects (a board's are half the size), the progressive controller's
    part of the core, a pool and a classified hand fit the heap a small board gives the firmware."""
    p = pool.Pool(**awards.config_for("fortune3", 100000, 1000, 10 ** 8,
                                      {"flush": 1000, "full_house": 2000, "four_of_a_kind": 3000}))
    assert p.lock([5000, 0, 2500]) == 750
    cls = hands.classify_3_plus_2(cards.parse_many("As Ks Qs"), cards.parse_many("Js Ts"))
    assert p.settle([(3, cls)]) == [(3, hands.ROYAL, 100750)]
    assert p.pool == 100000
