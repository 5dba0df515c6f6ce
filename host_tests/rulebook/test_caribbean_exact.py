"""rulebook.caribbean.exact: the exact ante/raise edge (CSP-7.1, CSP-8, CSP-9) against the figures of the
card-level engine it replaced, direct enumeration of the dealer's 163,185 completions, the textbook
counts, the simulation and the published figure."""
import random
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from rulebook.caribbean import exact as ce
from rulebook.caribbean import game as cs
from rulebook.poker import poker5
from rulebook.cards import parse_cards
from rulebook.errors import RuleError
from rulebook.options import resolve_options


def opts(**given):
    return resolve_options(cs.OPTIONS, given)


@pytest.fixture(scope="module", autouse=True)
def free_the_tables():
    """The count tables take ~150 MB: let the rest of the suite have it back."""
    yield
    for value in vars(ce).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()


def ids(text):
    return poker5.distinct_ids(parse_cards(text))


def brute_counts(player, up, o):
    """(N_nq, N_low): dealing every completion of the dealer's hand and settling it with round_result_ids."""
    rest = [c for c in range(52) if c not in player and c != up]
    p_cls = poker5.class_of_ids(*player)
    n_nq = n_low = 0
    for four in combinations(rest, 4):
        result, _ = cs.round_result_ids(player, list(four) + [up], True, o, p_cls)
        n_nq += result == cs.NOT_QUALIFIED
        n_low += result == cs.WIN
    return n_nq, n_low


def brute_ev_raise(player, up, o):
    """EV per ante of raising (ante +1/-1, raise +pays/-1/0 as CSP-9 says)."""
    n_nq, n_low = brute_counts(player, up, o)
    pay = cs.raise_pays(poker5.CLASS_CATEGORY[poker5.class_of_ids(*player)], o)
    c = comb(46, 4)
    return Fraction(n_nq + (1 + 2 * pay) * n_low - 3 * (c - n_nq - n_low), c)


# The figures of the card-level engine this one replaced (inclusion-exclusion over every (hand, up card)
# with dense and sorted subset tables; 16 s and 1.36 GB): (options, optimal figures, strategy() figures),
# each as house_edge, raise_probability, win_probability, raise_house_edge, raise_win_probability.
PREVIOUS_ENGINE = [
    ({},
     ("3337606931/63888559350", "817869/1566040", "14551994126/37752330525",
      "-97916426602/578343795315", "5304641607/17525569555"),
     ("12397363471/237300363300", "4817/9212", "51265322435/132888203448",
      "-48781322988/289532890075", "175068851311/579065780150")),
    ({"pair_suit": "lower"},
     ("3337606931/63888559350", "817869/1566040", "14551994126/37752330525",
      "-97916426602/578343795315", "5304641607/17525569555"),
     ("12397363471/237300363300", "4817/9212", "51265322435/132888203448",
      "-48781322988/289532890075", "175068851311/579065780150")),
    ({"royal_pays": "50"},
     ("7243120413/138425211925", "817869/1566040", "14551994126/37752330525",
      "-293609615056/1735031385945", "5304641607/17525569555"),
     ("28973736349/553700847700", "4817/9212", "51265322435/132888203448",
      "-146274136589/868598670225", "175068851311/579065780150")),
    ({"max_payout": "500"},
     ("144830639959/2491653814650", "817869/1566040", "14551994126/37752330525",
      "-851919900118/5205094157835", "5304641607/17525569555"),
     ("289672572191/4983307629300", "4817/9212", "51265322435/132888203448",
      "-424367937242/2605796010675", "175068851311/579065780150")),
    ({"qualify": "ace_and_king"},
     ("-33109891273/38333135610", "1", "93670069225/99666152586", "882371419/110740169540", "1994162795/49833076293"),
     ("-123447270418/1245826907325", "4817/9212", "2543727513347/4983307629300",
      "-5903661883/78963515475", "196208164772/2605796010675")),
    ({"qualify": "ace_and_king", "pair_suit": "lower", "max_payout": "1000", "ante": "100"},
     ("-859990572443/996661525860", "1", "93670069225/99666152586",
      "797585057/94920145320", "1994162795/49833076293"),
     ("-3422769779/34848305100", "4817/9212", "2543727513347/4983307629300",
      "-42812075667/579065780150", "196208164772/2605796010675")),
]
FIGURES = ("house_edge", "raise_probability", "win_probability", "raise_house_edge", "raise_win_probability")


@pytest.mark.parametrize("given, best, rule", PREVIOUS_ENGINE)
def test_exact_figures_are_the_previous_engines_to_the_last_digit_CSP_7_1_CSP_9(given, best, rule):
    e = ce.ante_raise_edge(opts(**given))
    assert tuple(str(e[k]) for k in FIGURES) == best
    assert tuple(str(e["strategy"][k]) for k in FIGURES) == rule
    assert all(type(e[k]) is Fraction for k in FIGURES)


# (player, up card, options), all high card: below A-K (u of the player's ranks, of a suit the player
# lacks: every dealer flush possible), A-K high with same-rank dealer hands that tie on ranks (up card of
# the player's ranks, aces of either side of the player's ace suit, the up card an ace), the literal
# qualification
CASES = [
    ("Qs Jd 9c 5h 3d", "2c", {}),
    ("Qs Jd 9c 5h 3d", "9h", {}),
    ("Qc Jc 9c 5c 3d", "2c", {}),
    ("As Qh 9c 7d 3s", "Kd", {}),
    ("As Kh 9c 7d 3s", "9d", {}),
    ("As Kh 9c 7d 3s", "Ah", {}),
    ("Ac Kh 9c 7d 3s", "Ad", {}),
    ("Ad Kd 9d 7d 3s", "Qd", {}),
    ("Ah Kh Qc Jd 9c", "2s", {}),
    ("As Kd 5c 4h 2d", "Kc", {"qualify": "ace_and_king"}),
    ("Qs Jd 9c 5h 3d", "Ad", {"qualify": "ace_and_king"}),
]


@pytest.mark.parametrize("player, up, given", CASES)
def test_high_card_counts_match_dealing_every_completion_CSP_7_1_CSP_8_10_CSP_9(player, up, given):
    o = opts(**given)
    p, u = ids(player), ids(up)[0]
    assert ce.counts(p, u, o) == brute_counts(p, u, o)
    assert ce.ev_raise(p, u, o) == brute_ev_raise(p, u, o)


def test_high_card_keys_count_every_hand_and_up_card_once():
    q, ur, m, su, a, count = ce._high_card_keys()
    assert int(count.sum()) == poker5.category_counts()[poker5.HIGH_CARD] * 47
    assert int(count.min()) > 0
    # a random high-card hand and up card land on a key, and its key's count is what dealing says
    rng = random.Random(3)
    hands = [h for h in (rng.sample(range(52), 6) for _ in range(400))
             if poker5.CLASS_CATEGORY[poker5.class_of_ids(*h[:5])] == poker5.HIGH_CARD]
    for h in hands[:40]:
        key = [int(x[0]) for x in ce._key_of(h[:5], h[5])]
        ak = (key[0] & ce.AK) == ce.AK
        hit = (q == key[0]) & (ur == key[1]) & (m == key[2])
        if ak:
            hit &= (su == key[3]) & (a == key[4])
        assert int(hit.sum()) == 1


@pytest.mark.parametrize("player, up", [("Ks Kh 4d 3c 2c", "5d"), ("2s 2h Ad Kc 3c", "4d"),
                                        ("2s 2h Ad Kc 3c", "Kd"), ("Qc Qd 9c 5h 3d", "Qh")])
def test_pair_raise_bound_is_below_the_exact_value_and_proves_the_raise_CSP_9_5_1(player, up):
    """The proof that a pair always raises: its bound on 4 N_nq + (4 + 2 pay) N_low, with the lower dealer
    pairs where needed, never exceeds the exact value and is above the fold's 2 x C(46, 4)."""
    o = opts()
    p, u = ids(player), ids(up)[0]
    n_nq, n_low = brute_counts(p, u, o)
    exact = 4 * n_nq + 6 * n_low
    classes, p_ranks = ce._pair_classes()
    row = int(np.flatnonzero(classes == poker5.class_of_ids(*p))[0])
    ur = u >> 2
    bound = int(ce._pair_bounds(1)[row, ur])
    with_pairs = bound + 4 * int(ce._lower_pairs(np.array([row]), ur)[0])
    assert bound <= with_pairs <= exact
    assert with_pairs > 2 * comb(46, 4)


def test_an_unproven_raise_is_an_error_not_a_figure():
    # a pair paying nothing on the raise: the bounds no longer prove that every pair raises
    with pytest.raises(RuleError, match="cannot prove"):
        ce._made_hands_raise(0)


def test_disjoint_hand_pairs_by_group_add_up():
    k = ce._disjoint_pairs()
    group, per_card = ce._groups()
    sizes = np.bincount(group, minlength=20)
    assert (k == k.T).all()
    assert (k.sum(axis=1) == sizes * comb(47, 5)).all()
    # two royals are disjoint unless of one suit; AAAAK and KKKKA (quads holding A and K) never are
    royal, quads_ak = 2 * poker5.ROYAL_FLUSH + 1, 2 * poker5.QUADS + 1
    assert k[royal, royal] == 4 * 3 and sizes[royal] == 4
    assert k[quads_ak, quads_ak] == 0 and sizes[quads_ak] == 8
    assert (per_card.sum(axis=1) == 5 * sizes).all()


def test_dealer_rank_families_give_the_textbook_qualification_counts_CSP_9_1_CSP_9_3():
    """The dealer high cards counted by rank set: those that never qualify (no A and K) and the A-K high
    ones, each rank set dealt 4^5 - 4 ways (not a flush); the same counts test_caribbean_stud derives."""
    low, ak = ce._families()
    assert int(ak.sum()) == 164 and int(low.sum()) + int(ak.sum()) == 1277
    assert int(low.sum()) * 1020 == 2598960 - 1463700  # hands that do not qualify: 1,135,260
    assert int(ak.sum()) * 1020 == 1302540 - 1135260


def test_hand_table_agrees_with_poker5_and_the_textbook_counts_CSP_8():
    hands = ce._hands()
    assert len(hands) == 2598960
    category = ce._categories(hands)
    assert np.bincount(category, minlength=10).tolist() == poker5.category_counts()
    rng = random.Random(13)
    for h in rng.sample(range(len(hands)), 3000):
        hand = hands[h].tolist()
        assert category[h] == poker5.CLASS_CATEGORY[poker5.class_of_ids(*hand)]
        # rows ascending, at their combinatorial-number-system index (the subset tables rely on it)
        assert hand == sorted(set(hand)) and sum(comb(c, i + 1) for i, c in enumerate(hand)) == h


def test_counts_reject_bad_cards_and_made_hands():
    for player, up in (([0, 1, 2, 3], 4), ([0, 1, 2, 3, 4], 4), ([0, 1, 2, 3, 52], 5), ([0, 5, 9, 14, 30], 5)):
        with pytest.raises(RuleError):
            ce.ev_raise(player, up, opts())
    with pytest.raises(RuleError, match="pairs or better"):
        ce.counts(ids("Ks Kh 4d 3c 2c"), ids("5d")[0], opts())


def test_exact_edge_optimal_and_strategy_CSP_7_1():
    o = opts()
    e = ce.ante_raise_edge(o)
    rule = e["strategy"]
    # the optimal decision is at least as good as any fixed rule, and strategy() is near it
    assert e["house_edge"] <= rule["house_edge"] < e["house_edge"] + Fraction(1, 10000)
    # the published optimal figure (wizardofodds.com, with pushes): 5.224% per ante, raising 52.2%;
    # the CSP-8 suit tie-breaks move it very little
    assert abs(e["house_edge"] - Fraction(5224, 100000)) < Fraction(5, 100000)
    assert abs(e["raise_probability"] - Fraction(522, 1000)) < Fraction(1, 1000)
    # the simulation plays strategy(): its 95% interval holds the exact figure
    sim = cs.simulate(100_000, 61, o)["ante"]
    assert abs(-sim["mean_net"] - float(rule["house_edge"])) < 1.96 * sim["stderr"]


def test_royal_pays_moves_the_edge_by_the_royal_wins_alone_CSP_9_5_9():
    base = ce.ante_raise_edge(opts())
    low_royal = ce.ante_raise_edge(opts(royal_pays="50"))
    # a royal always raises; it beats every qualified dealer hand from the other 47 cards but the
    # royals of higher suits (CSP-8.1: spades, hearts, clubs, diamonds), and u is any of the dealer's 5
    royal = set(ids("As Ks Qs Js Ts"))
    rest = [c for c in range(52) if c not in royal]
    qualified = sum(cs.dealer_qualifies_ids(d) for d in combinations(rest, 5))
    beaten = 4 * qualified - (0 + 1 + 2 + 3)
    shift = Fraction(5 * 2 * (100 - 50) * beaten, comb(46, 4) * comb(52, 5) * 47)
    assert low_royal["house_edge"] - base["house_edge"] == shift


def test_literal_qualification_turns_the_edge_CSP_9_1():
    base = ce.ante_raise_edge(opts())
    literal = ce.ante_raise_edge(opts(qualify="ace_and_king"))
    # the literal CSP-9.1 dealer (an A and a K) qualifies about 1 time in 10: the player raises more
    assert literal["raise_probability"] > base["raise_probability"]
    assert literal["house_edge"] < base["house_edge"]


def test_pair_suit_changes_no_figure_CSP_8_8_CSP_8_9():
    """Which of two disjoint equal-class hands wins changes, but both orders are counted."""
    assert ce.ante_raise_edge(opts(pair_suit="lower")) == ce.ante_raise_edge(opts())
