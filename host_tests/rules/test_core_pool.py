"""Rules core, progressive pool: hand-computed rounds from CSP-10, F3-15, BAC-17, carry, ceiling, voids, state."""
# mp-heap: 48K
from mptest import raises
from tablectl.rules import awards, hands
from tablectl.rules.pool import MAX_CENTS, Pool

FIXED = {"flush": 5000, "full_house": 7500, "four_of_a_kind": 10000}


def csp(seed=100000, rate=2000, limit=MAX_CENTS, **kw):
    return Pool(**awards.config_for("caribbean_stud", seed, rate, limit, FIXED, **kw))


def balanced(p):
    return p.pool + p.reserve + p.paid == p.seeded + p.contributed


def test_contribution_carries_the_fraction_of_a_cent():
    p = csp(rate=2000)  # 20%: a 1-cent bet adds 0.2 cent
    assert [p.contribute(1) for _ in range(5)] == [0, 0, 0, 0, 1]
    assert p.pool == 100001 and p.carry == 0 and p.contributed == 1
    assert p.contribute(1234) == 246 and p.carry == 8000  # 246.8
    assert p.contribute(1) == 1 and p.carry == 0  # 0.8 + 0.2
    assert balanced(p)


def test_straight_flushes_before_royal_one_base_then_restart_CSP_10_4_to_10_8():
    p = csp(seed=100000, rate=0)
    p.pool = 1000000
    p.seeded = 1000000
    got = p.settle([(3, hands.ROYAL), (1, hands.STRAIGHT_FLUSH), (5, hands.STRAIGHT_FLUSH), (2, hands.FLUSH)])
    # seat 1 SF 10% of 1,000,000; seat 2 flush 5,000; seat 5 SF 10% of the same base; the royal last
    assert got == [(1, hands.STRAIGHT_FLUSH, 100000), (2, hands.FLUSH, 5000),
                   (5, hands.STRAIGHT_FLUSH, 100000), (3, hands.ROYAL, 795000)]
    assert p.pool == 100000 and p.paid == 1000000 and balanced(p)


def test_two_royals_share_the_pool_odd_cent_stays_CSP_10_5():
    p = csp(seed=100000, rate=0)
    p.pool = p.seeded = 1000001
    assert p.settle([(6, hands.ROYAL), (2, hands.ROYAL)]) == [(2, hands.ROYAL, 500000), (6, hands.ROYAL, 500000)]
    assert p.pool == 100000 + 1 and balanced(p)


def test_fixed_above_the_pool_is_paid_by_the_house_CSP_10_2_1():
    fixed = dict(FIXED, royal_flush=300000)
    p = Pool(**awards.config_for("caribbean_stud", 50000, 0, MAX_CENTS, fixed))
    assert p.settle([(1, hands.ROYAL)]) == [(1, hands.ROYAL, 300000)]
    assert p.pool == 50000 and p.seeded == 50000 + 250000 + 50000 and balanced(p)


def test_baccarat_winners_share_each_award_BAC_17_9():
    cfg = awards.config_for("baccarat_b", 100000, 0, MAX_CENTS,
                            {"five_of_a_kind": 50000, "two_threes": 30000, "four": 20000, "three": 1001})
    p = Pool(**cfg)
    three = hands.BACCARAT_CLASS_IDS["b"].index("three")
    assert p.settle([(4, three), (1, three)]) == [(1, three, 500), (4, three, 500)]
    assert p.pool == 100000 - 1000 and balanced(p)


def test_ceiling_overflow_to_reserve_funds_the_restart():
    p = Pool(**awards.config_for("caribbean_stud", 500, 10000, 600, FIXED))
    assert p.contribute(1000) == 1000
    assert (p.pool, p.reserve) == (600, 900)
    p.settle([(1, hands.ROYAL)])
    assert (p.pool, p.reserve, p.paid, p.seeded) == (500, 400, 600, 500) and balanced(p)


def test_void_round_carries_locked_bets_counted_once_CSP_11_1():
    p = csp(rate=1000)
    assert p.lock([100, 0, 200]) == 30
    p.void_round()
    raises(ValueError, p.settle, [])  # the carried bets wait for the next round
    raises(ValueError, p.lock, [100, 0, 300])  # a carried bet cannot change
    assert p.lock([100, 0, 200, 500]) == 50  # only the new seat 4 bet is counted
    raises(ValueError, p.settle, [(2, hands.FLUSH)])  # seat 2 has no bet this round
    assert p.settle([(3, hands.FLUSH)]) == [(3, hands.FLUSH, 5000)]
    assert p.lock([100]) == 10 and balanced(p)


def test_state_round_trip_and_corrupt_state_refused():
    cfg = awards.config_for("fortune3", 100000, 1500, MAX_CENTS, FIXED)
    p = Pool(**cfg)
    p.lock([333, 0, 777])
    p.void_round()
    q = Pool.from_state(cfg, p.state())
    assert q.state() == p.state() and q.carried and q.locked[2] == 777
    bad = list(p.state())
    bad[0] += 1  # the pool no longer balances its meters
    raises(ValueError, Pool.from_state, cfg, tuple(bad))
    raises(ValueError, Pool.from_state, cfg, p.state()[:-1])


def test_amounts_at_2_30_refused_and_nothing_changes():
    raises(ValueError, csp, seed=MAX_CENTS + 1)
    p = csp(rate=10000)
    raises(ValueError, p.contribute, MAX_CENTS + 1)
    raises(ValueError, p.contribute, -1)
    raises(ValueError, p.contribute, "5")
    p.contributed = MAX_CENTS - 10
    p.seeded += p.contributed
    p.pool += p.contributed - 100000
    before = p.state()
    raises(ValueError, p.contribute, 11)
    assert p.state() == before
    raises(ValueError, awards.config_for, "baccarat_c", 1, 0, MAX_CENTS, {})  # six of a kind needs pct_bp


def test_bad_hits_raise_ValueError():
    p = csp()
    for hits in ([(0, hands.FLUSH)], [(10, hands.FLUSH)], [(1, hands.NONE)], [(1, hands.FLUSH), (1, hands.FOUR)],
                 [(1,)]):
        raises(ValueError, p.settle, hits)
    assert p.paid == 0 and p.pool == 100000


def test_lowered_limit_moves_the_pool_above_it_to_the_reserve_to_the_cent():
    cfg = awards.config_for("caribbean_stud", 50000, 2000, 900000, FIXED)
    p = Pool(**cfg)
    p.contribute(3000000)  # 600,000 cents: the pool reaches 650,000
    p.reserve = 7  # as if earlier contributions had overflowed
    p.seeded += 7
    state = p.state()
    lower = dict(cfg, limit_cents=400000, seed_cents=30000)
    # without overflow a pool above its limit is not this pool's record: the first 16 characters of
    # the message are what the table's display shows of the tilt
    assert raises(ValueError, Pool.from_state, lower, state)[:16] == "pool record bad:"
    q = Pool.from_state(lower, state, True)
    assert (q.pool, q.reserve, q.limit, q.seed) == (400000, 250007, 400000, 30000) and balanced(q)
    assert q.state()[2:] == state[2:]  # carry, meters and locked bets untouched
    # a limit at or above the pool moves nothing, whichever way it went
    for limit in (650000, 650001, 5000000):
        r = Pool.from_state(dict(cfg, limit_cents=limit), state, True)
        assert (r.pool, r.reserve) == (650000, 7)
    # a reserve that would reach 2**30 cents: refused, as a contribution would be
    p.reserve = MAX_CENTS - 1000
    p.seeded = p.pool + p.reserve - p.contributed
    raises(ValueError, Pool.from_state, lower, p.state(), True)


def test_any_mix_of_rounds_and_limit_changes_keeps_the_balance():
    seed = 12345
    for trial in range(30):
        p = csp(seed=1000, rate=2500, limit=60000)
        for step in range(40):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            op = seed % 5
            if op == 0:
                limit = 1 + (seed >> 8) % 90000
                cfg = awards.config_for("caribbean_stud", min(1000, limit), 2500, limit, FIXED)
                before = (p.pool, p.reserve)
                p = Pool.from_state(cfg, p.state(), True)
                moved = max(0, before[0] - limit)
                assert (p.pool, p.reserve) == (before[0] - moved, before[1] + moved)
            elif op == 4:
                p.settle([(1 + (seed >> 4) % 7, 1 + (seed >> 9) % 5)])
            else:
                p.contribute((seed >> 3) % 50000)
            assert balanced(p) and p.pool <= p.limit, (trial, step)
