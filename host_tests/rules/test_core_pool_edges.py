"""Rules core, progressive pool at its edges (what make mutate's survivors showed untested): a lock or a round
that would pass 2**30 cents is refused before it changes anything, even by the carried fraction's one cent, and
one that reaches the ceiling exactly is taken; a saved state at each bound of its figures; shared royals when the
fixed amount is above the pool's share (CSP-10.5); one-cent awards (CSP-10.8); amounts that are no cents refused."""
# mp-heap: 64K
from mptest import raises
from tablectl.rules import MAX_SEATS, awards, hands
from tablectl.rules.pool import MAX_CENTS, Pool

FIXED = {"flush": 5000, "full_house": 7500, "four_of_a_kind": 10000}


def cfg(rate=2000, limit=MAX_CENTS, seed=1000, **kw):
    return awards.config_for("caribbean_stud", seed, rate, limit, kw.pop("fixed", FIXED), **kw)


def at(config, pool=1000, reserve=0, carry=0, contributed=0, paid=0, carried=0):
    """A pool from a saved state with these figures, the house's seed making it balance."""
    seeded = pool + reserve + paid - contributed
    return Pool.from_state(config, (pool, reserve, carry, contributed, paid, seeded, carried, 1) + (0,) * MAX_SEATS)


def refused_unchanged(p, call, *args):
    before = p.state()
    raises(ValueError, call, *args)
    assert p.state() == before, (before, p.state())


def test_a_lock_the_carried_cent_would_take_past_the_ceiling_is_refused_before_any_seat_counts():
    """Two bets of 3 at 20% with 0.9999 cent carried add 2 cents: 1 of the bets' 20%, 1 of the carry."""
    c = cfg()
    p = at(c, carry=9999, contributed=MAX_CENTS - 1, paid=MAX_CENTS - 1)
    refused_unchanged(p, p.lock, [3, 3])
    p = at(c, carry=9999, contributed=MAX_CENTS - 2, paid=MAX_CENTS - 2)  # exactly to the ceiling: taken
    assert p.lock([3, 3]) == 2 and p.contributed == MAX_CENTS and p.locked[:2] == [3, 3]


def test_a_lock_whose_overflow_would_take_the_reserve_past_the_ceiling_is_refused_before_any_seat_counts():
    c = cfg(limit=1000)
    p = at(c, pool=1000, reserve=MAX_CENTS - 1, carry=9999, contributed=1000)  # the pool at its limit
    refused_unchanged(p, p.lock, [3, 3])
    p = at(c, pool=1000, reserve=MAX_CENTS - 2, carry=9999, contributed=1000)
    assert p.lock([3, 3]) == 2 and p.reserve == MAX_CENTS


def test_a_contribution_the_reserve_cannot_take_is_refused_and_one_to_the_ceiling_is_taken():
    c = cfg(rate=10000, limit=1000)
    p = at(c, pool=990, reserve=MAX_CENTS - 10, contributed=2000)  # room 10 in the pool, 10 in the reserve
    refused_unchanged(p, p.contribute, 21)
    assert p.contribute(20) == 20 and (p.pool, p.reserve) == (1000, MAX_CENTS)


def test_a_round_whose_house_money_would_pass_the_ceiling_is_refused_and_one_to_it_is_paid():
    """A flush's 5,000 from a pool of 100: the house pays 4,900 and the 1,000 the pool restarts from (seeded)."""
    c = cfg()
    for room, ok in ((5899, False), (5900, True)):
        p = at(c, pool=100, paid=MAX_CENTS - room - 100)  # seeded: MAX_CENTS - room
        assert p.seeded == MAX_CENTS - room
        if ok:
            assert p.settle([(1, hands.FLUSH)]) == [(1, hands.FLUSH, 5000)] and p.seeded == MAX_CENTS
        else:
            refused_unchanged(p, p.settle, [(1, hands.FLUSH)])


def test_a_saved_state_at_each_bound_of_its_figures():
    c = cfg(limit=5000)
    assert at(c, pool=5000).pool == 5000                      # a pool at its limit is one
    raises(ValueError, at, c, pool=5001)                       # above it is not (without overflow)
    assert at(c, carry=9999).carry == 9999                     # less than one cent carried
    raises(ValueError, at, c, carry=10000)                     # a whole cent is never carried
    assert at(c, carried=1).carried
    raises(ValueError, at, c, carried=2)
    raises(ValueError, at, c, reserve=-1, contributed=-1)      # no figure below 0


def test_amounts_that_are_not_cents_are_refused_by_lock_and_the_pool_itself():
    p = Pool(**cfg())
    for bets in ([-1], [True], [0, -2500], [2500, 1.5]):
        refused_unchanged(p, p.lock, bets)
    for bad in (-1, True, MAX_CENTS + 1):
        raises(ValueError, Pool, **cfg(seed=bad))


def test_shared_royals_when_the_fixed_amount_is_above_each_ones_share_CSP_10_5():
    """Two royals, pool 100,000, the royal's fixed 80,000: shared, they split max(fixed, pool) = 50,000 each;
    royal_share_each gives each max(fixed, pool / 2) = 80,000 (the house pays what the pool lacks)."""
    royal = dict(FIXED, royal_flush=80000)
    for each, share in ((False, 50000), (True, 80000)):
        p = at(cfg(fixed=royal, royal_share_each=each), pool=100000, contributed=99000)
        paid = p.settle([(2, hands.ROYAL), (5, hands.ROYAL)])
        assert paid == [(2, hands.ROYAL, share), (5, hands.ROYAL, share)], (each, paid)


def test_an_award_table_that_is_empty_or_has_a_percentage_above_100_is_refused():
    good = cfg()
    raises(ValueError, Pool, **dict(good, awards={}))
    raises(ValueError, Pool, **dict(good, awards=[("fixed", 100, 0)]))
    table = dict(good["awards"])
    table[hands.STRAIGHT_FLUSH] = ("percent", 0, 10001)
    raises(ValueError, Pool, **dict(good, awards=table))
    table[hands.STRAIGHT_FLUSH] = ("percent", 0, 10000)  # the whole pool is the most
    assert Pool(**dict(good, awards=table)).awards == table


def test_a_carried_seat_locked_with_another_bet_is_refused_naming_the_seat_CSP_11_1():
    p = Pool(**cfg())
    p.lock([0, 0, 2500])
    p.void_round()
    assert raises(ValueError, p.lock, [0, 0, 5000]) == "seat 3 carries 2500 from the void round"


def test_a_hit_needs_a_locked_bet_on_its_seat_even_when_the_bets_are_one_cent():
    p = Pool(**cfg())
    p.lock([1, 0])
    refused_unchanged(p, p.settle, [(2, hands.FLUSH)])
    assert p.settle([(1, hands.FLUSH)]) == [(1, hands.FLUSH, 5000)]


def test_a_straight_flush_whose_percentage_equals_its_fixed_amount_is_paid_from_the_pool_CSP_10_2_2():
    """fixed_from_pool=False: the house pays fixed amounts; max(fixed, 10%) is the pool's when 10% is at least
    the fixed amount, the tie included."""
    c = cfg(fixed=dict(FIXED, straight_flush=10000), fixed_from_pool=False)
    p = at(c, pool=100000, contributed=99000)
    assert p.settle([(1, hands.STRAIGHT_FLUSH)]) == [(1, hands.STRAIGHT_FLUSH, 10000)]
    assert (p.pool, p.seeded) == (90000, 1000)  # from the pool, the house's money untouched


def test_a_one_cent_award_that_empties_the_pool_restarts_it_from_the_seed_CSP_10_8():
    p = at(cfg(fixed=dict(FIXED, flush=1)), pool=1, paid=999)
    assert p.settle([(4, hands.FLUSH)]) == [(4, hands.FLUSH, 1)]
    assert (p.pool, p.seeded, p.paid) == (1000, 2000, 1000)


def test_bets_up_to_the_ceiling_are_taken_and_a_round_of_bets_past_it_is_refused():
    p = Pool(**cfg(rate=0))
    assert p.contribute(MAX_CENTS) == 0  # a bet of 2**30 - 1 cents is one (rate 0: nothing to the pool)
    refused_unchanged(p, p.contribute, MAX_CENTS + 1)
    refused_unchanged(p, p.lock, [MAX_CENTS, 1])  # the round's bets together past the ceiling
    assert p.lock([MAX_CENTS, 0]) == 0 and p.locked[0] == MAX_CENTS


def test_a_malformed_award_or_state_is_refused_with_its_one_line():
    good = cfg()
    why = raises(ValueError, Pool, **dict(good, awards={hands.FLUSH: ("bonus", 100, 0)}))
    assert why.startswith("award of class %r: (kind in " % hands.FLUSH), why
    p = Pool(**good)
    assert raises(ValueError, Pool.from_state, good, p.state()[:-1]) == "pool record bad: not 17 ints"


def test_a_pool_made_without_its_options_pays_each_box_its_own_award_from_the_pool():
    """Pool(seed, rate, limit, awards): per box (not shared), fixed amounts from the pool, royals sharing one."""
    table = cfg()["awards"]
    p = Pool(100000, 2000, MAX_CENTS, table)
    assert (p.shared, p.fixed_from_pool, p.royal_share_each) == (False, True, False)
    assert p.settle([(1, hands.FLUSH), (2, hands.FLUSH)]) == [(1, hands.FLUSH, 5000), (2, hands.FLUSH, 5000)]
    assert p.pool == 90000


def test_a_contribution_rate_above_100_percent_is_refused():
    raises(ValueError, Pool, **cfg(rate=10001))
    p = Pool(**cfg(rate=10000))
    assert p.contribute(2500) == 2500  # all of it, at most


def test_a_round_that_brings_paid_to_the_ceiling_is_paid_and_one_past_it_refused():
    c = cfg()
    p = at(c, pool=100000, paid=MAX_CENTS - 5000, contributed=100000)
    assert p.settle([(1, hands.FLUSH)]) == [(1, hands.FLUSH, 5000)] and p.paid == MAX_CENTS
    p = at(c, pool=100000, paid=MAX_CENTS - 4999, contributed=100000)
    refused_unchanged(p, p.settle, [(1, hands.FLUSH)])


def test_an_award_that_is_not_a_triple_is_refused_with_its_one_line():
    for bad in (5, None, ("fixed", 100)):
        why = raises(ValueError, Pool, **dict(cfg(), awards={hands.FLUSH: bad}))
        assert why.startswith("award of class"), (bad, why)


def test_a_lowered_limit_may_fill_the_reserve_to_the_ceiling_and_no_further():
    low = cfg(limit=1000)
    state = at(cfg(), pool=6000, reserve=MAX_CENTS - 5000, contributed=1000).state()
    q = Pool.from_state(low, state, True)
    assert (q.pool, q.reserve) == (1000, MAX_CENTS)
    state = at(cfg(), pool=6000, reserve=MAX_CENTS - 4999, contributed=1001).state()
    raises(ValueError, Pool.from_state, low, state, True)


def test_a_round_with_the_reserve_at_the_ceiling_is_paid():
    p = at(cfg(), pool=100000, reserve=MAX_CENTS, contributed=100000)
    assert p.settle([(3, hands.FLUSH)]) == [(3, hands.FLUSH, 5000)] and p.reserve == MAX_CENTS


def test_an_award_that_leaves_one_cent_does_not_restart_the_pool_CSP_10_8():
    p = at(cfg(), pool=5001, contributed=4001)
    assert p.settle([(1, hands.FLUSH)]) == [(1, hands.FLUSH, 5000)] and p.pool == 1


def test_ten_percent_of_a_pool_is_rounded_down_to_the_cent_CSP_10_2_2():
    for pool, award in ((109999, 10999), (100000, 10000), (9999, 999)):
        p = at(cfg(), pool=pool, contributed=pool)
        assert p.settle([(1, hands.STRAIGHT_FLUSH)]) == [(1, hands.STRAIGHT_FLUSH, award)], pool


def test_a_restart_that_takes_the_pool_over_its_limit_moves_exactly_the_excess_to_the_reserve_CSP_10_8():
    """Royals sharing a full pool leave its remainder (under a cent a winner) in it; the pool restarts from its
    seed on top of that, the reserve funding the seed first, and the cents the restart puts above the limit go
    to the reserve: pool + reserve + paid is still the house's seeds and the contributions, to the cent.
    Every seed from MAX_SEATS cents under the limit to the limit, every number of winners, a reserve of none,
    some, short of, exactly and more than the seed."""
    limit = 1000
    for seed in range(limit - MAX_SEATS, limit + 1):
        c = cfg(rate=10000, limit=limit, seed=seed)
        for winners in range(1, MAX_SEATS + 1):
            for reserve in (0, 1, seed - 1, seed, seed + 1):
                p = Pool(**c)
                assert p.contribute(limit - seed + reserve) == limit - seed + reserve
                assert (p.pool, p.reserve) == (limit, reserve)
                share, left = limit // winners, limit % winners
                seats = list(range(1, winners + 1))
                assert p.settle([(s, hands.ROYAL) for s in seats]) == [(s, hands.ROYAL, share) for s in seats]
                from_reserve = min(reserve, seed)
                over = max(0, left + seed - limit)
                case = (seed, winners, reserve)
                assert (p.pool, p.reserve) == (left + seed - over, reserve - from_reserve + over), case
                assert (p.paid, p.seeded) == (share * winners, seed + seed - from_reserve), case
                assert p.pool + p.reserve + p.paid == p.seeded + p.contributed, case
