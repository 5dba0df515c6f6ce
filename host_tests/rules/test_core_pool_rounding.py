"""Rules core, progressive pool: rounding to the cent, worked out by hand (awards round down, contributions
carry the fraction), so that no comparison with the rulebook is needed to catch a rounding change."""
# mp-heap: 35K
from tablectl.rules import awards, hands
from tablectl.rules.pool import MAX_CENTS, Pool

FIXED = {"flush": 5000, "full_house": 7500, "four_of_a_kind": 10000}  # the straight flush: no fixed amount


def csp(seed, rate):
    return Pool(**awards.config_for("caribbean_stud", seed, rate, MAX_CENTS, FIXED))


def test_carried_remainder_over_a_sequence_of_contributions():
    p = csp(100000, 1500)  # 15%: each bet adds bet * 1500 / 10000 cents, the fraction carried
    # carry in ten-thousandths of a cent; each step: (bet * 1500 + carry) // 10000 added, % 10000 kept
    #   2500 * 1500 =       3,750,000 + 0     -> 375,    carry 0
    #    333 * 1500 =         499,500 + 0     -> 49,     carry 9,500
    #   1001 * 1500 =       1,501,500 + 9,500 -> 151,    carry 1,000
    #      7 * 1500 =          10,500 + 1,000 -> 1,      carry 1,500
    #  99999 * 1500 =     149,998,500 + 1,500 -> 15,000, carry 0
    got = [(p.contribute(b), p.carry) for b in (2500, 333, 1001, 7, 99999)]
    assert got == [(375, 0), (49, 9500), (151, 1000), (1, 1500), (15000, 0)]
    # nothing dropped: 103,840 cents bet * 1500 = 155,760,000 = 15,576 cents * 10000 + carry 0
    assert p.contributed == 15576 and p.pool == 100000 + 15576
    # seat 1 flush 5,000 fixed; seat 2 straight flush 10% of the 110,576 left (CSP-10.2.2):
    # 110,576 * 1000 // 10000 = 11,057 (0.6 cent stays in the pool)
    got = p.settle([(2, hands.STRAIGHT_FLUSH), (1, hands.FLUSH)])
    assert got == [(1, hands.FLUSH, 5000), (2, hands.STRAIGHT_FLUSH, 11057)]
    # pool + paid = seed + contributions: 99,519 + 16,057 = 100,000 + 15,576
    assert (p.pool, p.paid, p.seeded, p.reserve) == (99519, 16057, 100000, 0)
    assert p.pool + p.paid == p.seeded + p.contributed


def test_ten_percent_rounds_down_and_the_fraction_stays_in_the_pool_CSP_10_2_2():
    p = csp(100000, 0)
    p.pool = p.seeded = 1000009
    # 1,000,009 * 1000 // 10000 = 1,000,009,000 // 10000 = 100,000 (100,000.9: down, not to the nearest)
    assert p.settle([(1, hands.STRAIGHT_FLUSH)]) == [(1, hands.STRAIGHT_FLUSH, 100000)]
    assert p.pool == 900009 and p.pool + p.paid == p.seeded
    p = csp(100000, 0)
    p.pool = p.seeded = 1000019
    # 1,000,019,000 // 10000 = 100,001 (100,001.9): the pool's last 19 cents count too
    # two straight flushes, one base (CSP-10.6): 1,000,019 - 2 * 100,001 = 800,017
    got = p.settle([(4, hands.STRAIGHT_FLUSH), (2, hands.STRAIGHT_FLUSH)])
    assert got == [(2, hands.STRAIGHT_FLUSH, 100001), (4, hands.STRAIGHT_FLUSH, 100001)]
    assert p.pool == 800017 and p.pool + p.paid == p.seeded
