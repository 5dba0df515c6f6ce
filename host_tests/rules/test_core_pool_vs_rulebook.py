"""The firmware progressive pool against rulebook.progressive (settle, contribute): long random sequences
of contributions and hits for every game and option, plus the ceiling/reserve, void-round carry and
meter identity (CSP-10, CSP-11.1, CSP-11.4, F3-15, F3-17.3, BAC-17)."""
import pytest
from hypothesis import given, settings, strategies as st

from rulebook import progressive as ref
from tablectl.rules import awards, pool
from tablectl.rules.pool import Pool

GAMES = sorted(awards.GAMES)
assert GAMES == sorted(ref.GAMES)
MAX = 2 ** 30 - 1


@st.composite
def setups(draw, ceiling=False):
    game = draw(st.sampled_from(GAMES))
    ids, table, shared = awards.table(game)
    fixed = {}
    for cid, (kind, _) in table.items():
        if kind == "fixed" or draw(st.booleans()):
            fixed[cid] = draw(st.one_of(st.just(0), st.integers(1, 300_000), st.integers(0, 5_000_000)))
    pct = {}
    for cid, (kind, bp) in table.items():
        if kind == "percent" and (bp is None or draw(st.booleans())):
            pct[cid] = draw(st.integers(0, 10000))
    seed = draw(st.integers(0, 2_000_000))
    limit = draw(st.integers(seed, seed + 3_000_000)) if ceiling else MAX
    setup = {
        "game": game, "fixed": fixed, "pct": pct, "seed": seed, "limit": limit,
        "rate": draw(st.integers(0, 10000)),
        "fixed_from_pool": draw(st.booleans()),
        "royal_share": draw(st.sampled_from(ref.ROYAL_SHARES)),
    }
    return setup


def make_pool(s):
    cfg = awards.config_for(s["game"], s["seed"], s["rate"], s["limit"], s["fixed"], s["pct"],
                          s["fixed_from_pool"], s["royal_share"] == "each_higher")
    return cfg, Pool(**cfg)


@st.composite
def operations(draw, game):
    ids = awards.table(game)[0]
    hit = st.tuples(st.integers(1, pool.MAX_SEATS), st.integers(1, len(ids) - 1))
    op = st.one_of(
        st.tuples(st.just("bet"), st.one_of(st.integers(0, 5000), st.integers(0, 10 ** 6))),
        st.tuples(st.just("hits"), st.lists(hit, max_size=6, unique_by=lambda h: h[0])),
    )
    return draw(st.lists(op, min_size=1, max_size=60))


def check_meters(p):
    assert p.pool + p.reserve + p.paid == p.seeded + p.contributed
    assert 0 <= p.pool <= p.limit and 0 <= p.carry < 10000
    for v in p.state():
        assert 0 <= v < 2 ** 30


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_sequences_match_rulebook_settle_and_contribute_CSP_10_F3_15_BAC_17(data):
    s = data.draw(setups())
    cfg, p = make_pool(s)
    ids = awards.table(s["game"])[0]
    ref_pool, ref_carry = s["seed"], 0
    for kind, arg in data.draw(operations(s["game"])):
        if kind == "bet":
            ref_pool, ref_carry = ref.contribute(ref_pool, ref_carry, arg, s["rate"])
            p.contribute(arg)
        else:
            want, ref_pool = ref.settle(s["game"], [(seat, ids[c]) for seat, c in arg], ref_pool, s["seed"],
                                        s["fixed"], s["pct"], s["fixed_from_pool"], s["royal_share"])
            got = p.settle(arg)
            assert [(seat, ids[c], amount) for seat, c, amount in got] == want
        assert (p.pool, p.carry) == (ref_pool, ref_carry)
        check_meters(p)
        p = Pool.from_state(cfg, p.state())  # what the store saves is all there is


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_ceiling_sends_overflow_to_reserve_and_meters_balance(data):
    s = data.draw(setups(ceiling=True))
    cfg, p = make_pool(s)
    ids = awards.table(s["game"])[0]
    ref_pool, ref_carry = s["seed"], 0
    hit_yet = False
    for kind, arg in data.draw(operations(s["game"])):
        if kind == "bet":
            ref_pool, ref_carry = ref.contribute(ref_pool, ref_carry, arg, s["rate"])
            added = p.contribute(arg)
            if not hit_yet:  # until the first hit the pool is the rulebook's, capped at the limit
                assert p.pool == min(ref_pool, s["limit"])
                assert p.pool + p.reserve == ref_pool
        else:
            before = p.paid
            got = p.settle(arg)
            assert p.paid - before == sum(a for _, _, a in got)
            hit_yet = hit_yet or bool(got)
        check_meters(p)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_void_rounds_carry_locked_bets_counted_once_CSP_11_1_F3_17_3(data):
    s = data.draw(setups())
    cfg, p = make_pool(s)
    ref_pool, ref_carry = s["seed"], 0
    carried = [0] * pool.MAX_SEATS
    for _ in range(data.draw(st.integers(1, 12))):
        bets = data.draw(st.lists(st.integers(0, 2000), min_size=pool.MAX_SEATS, max_size=pool.MAX_SEATS))
        # a seat carrying a bet from a void round keeps it: the dealer enters it again or leaves it 0
        bets = [carried[i] * data.draw(st.integers(0, 1)) if carried[i] else bets[i] for i in range(len(bets))]
        p.lock(bets)
        for i, b in enumerate(bets):
            if b and not carried[i]:
                ref_pool, ref_carry = ref.contribute(ref_pool, ref_carry, b, s["rate"])
        assert (p.pool, p.carry) == (ref_pool, ref_carry)
        locked = [carried[i] or bets[i] for i in range(pool.MAX_SEATS)]
        assert p.locked == locked
        if data.draw(st.booleans()):
            p.void_round()
            carried = locked
            p = Pool.from_state(cfg, p.state())  # a power cut between rounds loses nothing
        else:
            p.settle([])
            carried = [0] * pool.MAX_SEATS
        check_meters(p)
