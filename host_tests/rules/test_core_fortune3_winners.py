"""Fortune 3's order and amounts for several winners of one round, literal cases worked by hand, the same in
the firmware's pool and in the rulebook (F3-15.3 to F3-15.6, F3-16.3). One 52-card deck: two royals
cannot occur in one round (the controller's card checks refuse the second), so no case has two."""
import pytest

from rulebook import progressive
from tablectl.rules import awards, hands, pool as core_pool

SEED = 500000  # 5,000.00
FIXED = {"flush": 5000, "full_house": 7500, "four_of_a_kind": 10000, "straight_flush": 50000,
         "royal_flush": 100000}
CODE = {"flush": hands.FLUSH, "full_house": hands.FULL_HOUSE, "four_of_a_kind": hands.FOUR,
        "straight_flush": hands.STRAIGHT_FLUSH, "royal_flush": hands.ROYAL}

# (pool before, hits [(seat, class)], payouts in order [(seat, class, cents)], pool after)
CASES = [
    # F3-15.3 from the dealer's left; F3-15.5 the straight flushes before the royal; F3-15.4 each straight
    # flush max(fixed, 10%) of the pool when the first is paid: 10% of 19,950.00 = 1,995.00; the royal
    # max(fixed, the pool left) = 15,960.00, the pool fully paid out, then the minimum again (F3-15.6)
    (2000000, [(2, "royal_flush"), (6, "straight_flush"), (1, "flush"), (5, "straight_flush")],
     [(1, "flush", 5000), (5, "straight_flush", 199500), (6, "straight_flush", 199500),
      (2, "royal_flush", 1596000)], SEED),
    # F3-15.4: 10% of 3,000.00 is below the fixed 500.00: each straight flush the fixed amount
    (300000, [(3, "straight_flush"), (4, "straight_flush")],
     [(3, "straight_flush", 50000), (4, "straight_flush", 50000)], 200000),
    # F3-15.6: the pool falls by each payment, fixed amounts included (F3-16.3.3-16.3.5)
    (100000, [(7, "full_house"), (1, "four_of_a_kind"), (4, "flush")],
     [(1, "four_of_a_kind", 10000), (4, "flush", 5000), (7, "full_house", 7500)], 77500),
    # a royal alone on the right of a straight flush keeps waiting for it (F3-15.5); the rest rounds down
    (1234567, [(1, "royal_flush"), (7, "straight_flush")],
     [(7, "straight_flush", 123456), (1, "royal_flush", 1111111)], SEED),
    # fixed amounts that empty the pool: it restarts from the minimum (F3-15.6), the house pays the rest
    (12000, [(2, "four_of_a_kind"), (3, "flush")], [(2, "four_of_a_kind", 10000), (3, "flush", 5000)], SEED),
]


@pytest.mark.parametrize("before, hits, paid, after", CASES)
def test_fortune3_several_winners_F3_15_3_to_15_6(before, hits, paid, after):
    payouts, pool_after = progressive.settle("fortune3", hits, before, SEED, FIXED)
    assert (payouts, pool_after) == (paid, after)  # the rulebook
    p = core_pool.Pool(**awards.config_for("fortune3", SEED, 0, 10 ** 8, FIXED))
    p.pool = before
    p.seeded = before  # the meters balance: what the pool holds came from the house
    got = p.settle([(seat, CODE[cls]) for seat, cls in hits])
    assert [(s, hands.CLASS_IDS[c], cents) for s, c, cents in got] == paid  # the firmware's core
    assert p.pool == after and p.pool + p.reserve + p.paid == p.seeded + p.contributed
