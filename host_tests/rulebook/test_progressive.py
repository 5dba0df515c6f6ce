"""rulebook.progressive: award order, sharing, 10% awards, restart from the seed, cents, bad input
(CSP-10, F3-15, BAC-17), and the accounting identity over random rounds."""
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.errors import RuleError
from rulebook.progressive import GAMES, contribute, settle, settle_detail

SEED = 50_000
CSP_FIXED = {"royal_flush": 0, "straight_flush": 0, "four_of_a_kind": 10_000, "full_house": 7_500, "flush": 5_000}


def csp(hits, pool, **kw):
    return settle("caribbean_stud", hits, pool, SEED, kw.pop("fixed", CSP_FIXED), **kw)


def test_lone_royal_takes_the_whole_pool_and_it_restarts_from_the_seed_CSP_10_2_1_CSP_10_8():
    assert csp([(3, "royal_flush")], 1_234_567) == ([(3, "royal_flush", 1_234_567)], SEED)


def test_royal_takes_the_fixed_amount_when_higher_CSP_10_2_1():
    fixed = dict(CSP_FIXED, royal_flush=2_000_000)
    out = settle_detail("caribbean_stud", [(1, "royal_flush")], 1_500_000, SEED, fixed)
    assert out["payouts"] == [(1, "royal_flush", 2_000_000)]
    assert out["house_funded"] == 500_000 and out["pool"] == SEED and out["reseeds"] == 1


def test_two_royals_share_the_pool_remainder_cent_stays_CSP_10_5():
    out = settle_detail("caribbean_stud", [(5, "royal_flush"), (2, "royal_flush")], 1_000_001, SEED, CSP_FIXED)
    assert out["payouts"] == [(2, "royal_flush", 500_000), (5, "royal_flush", 500_000)]
    assert out["pool"] == SEED + 1 and out["reseeds"] == 1 and out["house_funded"] == 0


def test_two_royals_share_the_higher_of_pool_and_fixed_CSP_10_5():
    fixed = dict(CSP_FIXED, royal_flush=3_000_000)
    assert csp([(1, "royal_flush"), (2, "royal_flush")], 1_000_000, fixed=fixed)[0] == [
        (1, "royal_flush", 1_500_000), (2, "royal_flush", 1_500_000)]
    # the other reading: each gets the higher of the fixed amount and its share of the pool
    assert csp([(1, "royal_flush"), (2, "royal_flush")], 1_000_000, fixed=fixed, royal_share="each_higher")[0] == [
        (1, "royal_flush", 3_000_000), (2, "royal_flush", 3_000_000)]


def test_straight_flush_takes_ten_percent_rounded_down_CSP_10_2_2():
    assert csp([(4, "straight_flush")], 1_000_009) == ([(4, "straight_flush", 100_000)], 900_009)


def test_straight_flush_takes_the_fixed_amount_when_higher_CSP_10_2_2():
    fixed = dict(CSP_FIXED, straight_flush=250_000)
    assert csp([(4, "straight_flush")], 1_000_000, fixed=fixed) == ([(4, "straight_flush", 250_000)], 750_000)


def test_several_straight_flushes_each_take_ten_percent_CSP_10_6():
    assert csp([(6, "straight_flush"), (1, "straight_flush")], 2_000_000) == (
        [(1, "straight_flush", 200_000), (6, "straight_flush", 200_000)], 1_600_000)


def test_straight_flush_paid_before_a_royal_CSP_10_7():
    payouts, pool = csp([(1, "royal_flush"), (3, "straight_flush")], 1_000_000)
    assert payouts == [(3, "straight_flush", 100_000), (1, "royal_flush", 900_000)]
    assert pool == SEED


def test_order_from_the_dealers_left_CSP_10_4():
    payouts, pool = csp([(6, "flush"), (2, "full_house"), (4, "four_of_a_kind")], 1_000_000)
    assert payouts == [(2, "full_house", 7_500), (4, "four_of_a_kind", 10_000), (6, "flush", 5_000)]
    assert pool == 1_000_000 - 22_500  # the pool falls by what is paid (CSP-10.8)


def test_royal_keeps_its_place_except_before_straight_flushes_CSP_10_4_CSP_10_7():
    payouts, pool = csp([(1, "royal_flush"), (2, "flush"), (3, "straight_flush"), (4, "full_house")], 1_000_000)
    assert payouts == [(2, "flush", 5_000), (3, "straight_flush", 99_500),
                       (1, "royal_flush", 1_000_000 - 5_000 - 99_500), (4, "full_house", 7_500)]
    assert pool == SEED - 7_500  # the full house is paid from the restarted pool


def test_fixed_awards_outside_the_pool_when_chosen():
    out = settle_detail("caribbean_stud", [(1, "flush"), (2, "full_house")], 1_000_000, SEED, CSP_FIXED,
                        fixed_from_pool=False)
    assert out["pool"] == 1_000_000 and out["house_funded"] == 12_500


def test_award_above_the_pool_empties_it_and_it_restarts_CSP_10_8():
    out = settle_detail("caribbean_stud", [(1, "four_of_a_kind")], 3_000, SEED, CSP_FIXED)
    assert out == {"payouts": [(1, "four_of_a_kind", 10_000)], "pool": SEED, "reseeds": 1, "house_funded": 7_000}


def test_pool_paid_out_exactly_restarts_CSP_10_8():
    assert csp([(1, "flush")], 5_000) == ([(1, "flush", 5_000)], SEED)


def test_fortune3_follows_the_same_rules_F3_15_3_to_F3_15_6():
    payouts, pool = settle("fortune3", [(2, "royal_flush"), (1, "straight_flush"), (3, "straight_flush")],
                           1_000_000, SEED, CSP_FIXED)
    assert payouts == [(1, "straight_flush", 100_000), (3, "straight_flush", 100_000), (2, "royal_flush", 800_000)]
    assert pool == SEED
    # several royals in one round: shared as in Caribbean Stud (Interpretation)
    assert settle("fortune3", [(2, "royal_flush"), (4, "royal_flush")], 900_000, SEED, CSP_FIXED)[0] == [
        (2, "royal_flush", 450_000), (4, "royal_flush", 450_000)]


BAC_A_FIXED = {"four_of_a_kind": 800_000, "two_pairs": 300_000, "three_of_a_kind": 100_000, "one_pair": 1_000,
               "paradise_straight": 50_000}


def test_baccarat_a_royal_whole_pool_shared_BAC_17_6():
    out = settle_detail("baccarat_a", [(1, "royal"), (4, "royal"), (7, "royal")], 1_000_000, SEED, BAC_A_FIXED)
    assert out["payouts"] == [(1, "royal", 333_333), (4, "royal", 333_333), (7, "royal", 333_333)]
    assert out["pool"] == SEED + 1


def test_baccarat_a_paradise_straight_higher_of_fixed_and_ten_percent_shared_BAC_17_7():
    assert settle("baccarat_a", [(2, "paradise_straight"), (5, "paradise_straight")], 1_000_000, SEED,
                  BAC_A_FIXED) == ([(2, "paradise_straight", 50_000), (5, "paradise_straight", 50_000)], 900_000)
    assert settle("baccarat_a", [(2, "paradise_straight")], 300_000, SEED, BAC_A_FIXED) == (
        [(2, "paradise_straight", 50_000)], 250_000)


def test_baccarat_a_fixed_amounts_shared_BAC_17_8():
    assert settle("baccarat_a", [(1, "one_pair"), (2, "one_pair"), (3, "one_pair")], 1_000_000, SEED,
                  BAC_A_FIXED) == ([(1, "one_pair", 333), (2, "one_pair", 333), (3, "one_pair", 333)], 999_001)


def test_baccarat_b_six_of_a_kind_whole_pool_others_fixed_BAC_17_6_BAC_17_9():
    fixed = {"five_of_a_kind": 500_000, "two_threes": 200_000, "four": 20_000, "three": 500}
    assert settle("baccarat_b", [(3, "six_of_a_kind")], 700_000, SEED, fixed) == ([(3, "six_of_a_kind", 700_000)], SEED)
    assert settle("baccarat_b", [(3, "four"), (1, "four")], 700_000, SEED, fixed) == (
        [(1, "four", 10_000), (3, "four", 10_000)], 680_000)


def test_baccarat_c_classes_BAC_17_10_to_17_12():
    fixed = {"six_of_a_kind": 100_000, "two_threes": 200_000, "four": 20_000, "three": 500}
    assert settle("baccarat_c", [(1, "six_same_colour")], 700_000, SEED, fixed)[0] == [(1, "six_same_colour", 700_000)]
    assert settle("baccarat_c", [(1, "six_of_a_kind")], 4_000_000, SEED, fixed, pct_bp={"six_of_a_kind": 500}) == (
        [(1, "six_of_a_kind", 200_000)], 3_800_000)
    with pytest.raises(RuleError, match="pct_bp"):  # BAC-17.11 does not state the percentage
        settle("baccarat_c", [(1, "six_of_a_kind")], 4_000_000, SEED, fixed)
    # five of a kind has no award in Art. 17 (BAC-17.12)
    assert settle("baccarat_c", [(1, "five_of_a_kind")], 4_000_000, SEED, fixed) == (
        [(1, "five_of_a_kind", 0)], 4_000_000)


def test_no_hits_change_nothing():
    assert csp([], 123_456) == ([], 123_456)


@pytest.mark.parametrize("kwargs, message", [
    (dict(game="poker"), "unknown progressive game"),
    (dict(hits=[(1, "pair")]), "not a caribbean_stud progressive class"),
    (dict(hits=[(1, "flush"), (1, "full_house")]), "two hits"),
    (dict(hits=[(0, "flush")]), "seat"),
    (dict(hits=[(True, "flush")]), "seat"),
    (dict(hits=[("1", "flush")]), "seat"),
    (dict(hits=[(1,)]), "a hit is"),
    (dict(pool=-1), "pool_cents"),
    (dict(pool=1.5), "pool_cents"),
    (dict(seed=-5), "seed_cents"),
    (dict(fixed={"flush": -1}), "fixed amount"),
    (dict(fixed={"pair": 5}), "not a caribbean_stud class"),
    (dict(fixed={}), "no fixed amount"),
    (dict(pct_bp={"straight_flush": 10_001}), "basis points"),
    (dict(pct_bp={"flush": 100}), "not a percentage award"),
    (dict(royal_share="all"), "royal_share"),
])
def test_bad_input_is_a_clear_error(kwargs, message):
    args = dict(game="caribbean_stud", hits=[(1, "flush")], pool=1_000, seed=SEED, fixed=CSP_FIXED)
    args.update(kwargs)
    extra = {k: args.pop(k) for k in ("pct_bp", "royal_share") if k in args}
    with pytest.raises(RuleError, match=message):
        settle(args["game"], args["hits"], args["pool"], args["seed"], args["fixed"], **extra)


def hits_for(game):
    classes = sorted(GAMES[game]["classes"])
    return st.lists(st.tuples(st.integers(1, 9), st.sampled_from(classes)), max_size=7, unique_by=lambda h: h[0])


rounds = st.sampled_from(sorted(GAMES)).flatmap(lambda game: st.tuples(
    st.just(game), hits_for(game), st.integers(0, 10 ** 9), st.integers(0, 10 ** 7),
    st.fixed_dictionaries({c: st.integers(0, 10 ** 7) for c in GAMES[game]["classes"]}),
    st.booleans(), st.sampled_from(["split_higher", "each_higher"])))


@settings(max_examples=400, deadline=None)
@given(rounds)
def test_accounting_identity_and_order_properties(round_):
    game, hits, pool, seed, fixed, from_pool, share = round_
    pct = {c: 1000 for c, (kind, _) in GAMES[game]["classes"].items() if kind == "percent"}
    out = settle_detail(game, hits, pool, seed, fixed, pct, from_pool, share)
    paid = sum(amount for _, _, amount in out["payouts"])
    # every cent is accounted for: paid + new pool = old pool + restarts + what the house added
    assert paid + out["pool"] == pool + out["reseeds"] * seed + out["house_funded"]
    assert out["pool"] >= 0 and out["house_funded"] >= 0 and all(a >= 0 for _, _, a in out["payouts"])
    assert sorted((s, c) for s, c, _ in out["payouts"]) == sorted(hits)  # each hit paid once
    if GAMES[game]["shared"]:  # one award per class, paid at its first winner's seat
        firsts = [s for i, (s, c, _) in enumerate(out["payouts"]) if c not in [x[1] for x in out["payouts"][:i]]]
        assert firsts == sorted(firsts)
        for cls in {c for _, c, _ in out["payouts"]}:
            within = [s for s, c, _ in out["payouts"] if c == cls]
            assert within == sorted(within)
    else:
        seats = [s for s, c, _ in out["payouts"] if c != "royal_flush"]
        assert seats == sorted(seats)  # from the dealer's left (CSP-10.4, F3-15.3)
    classes = [c for _, c, _ in out["payouts"]]
    if "royal_flush" in classes and "straight_flush" in classes:  # CSP-10.7, F3-15.5
        assert classes.index("royal_flush") > max(i for i, c in enumerate(classes) if c == "straight_flush")
    if game in ("caribbean_stud", "fortune3"):
        sf = [a for _, c, a in out["payouts"] if c == "straight_flush"]
        assert len(set(sf)) <= 1 and all(a >= fixed["straight_flush"] for a in sf)  # CSP-10.6
    else:  # every winner of one award shares it equally (BAC-17)
        for cls in set(classes):
            assert len({a for _, c, a in out["payouts"] if c == cls}) == 1


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10 ** 6), st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 10000)), max_size=30))
def test_contributions_carry_every_fraction_of_a_cent(seed, bets):
    pool, carry = seed, 0
    for bet, rate in bets:
        pool, carry = contribute(pool, carry, bet, rate)
    assert pool + Fraction(carry, 10000) == seed + sum(Fraction(b * r, 10000) for b, r in bets)


def test_contribute_rejects_bad_input():
    for args in ((-1, 0, 100, 100), (0, 10000, 100, 100), (0, 0, -1, 100), (0, 0, 100, 10001), (0, 0, 1.0, 1)):
        with pytest.raises(RuleError):
            contribute(*args)
