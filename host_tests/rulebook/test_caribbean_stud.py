"""rulebook.caribbean.game: outcome parsing, dealer qualification (CSP-9.1/9.3), every settlement branch
of CSP-9 including the per-round cap, the progressive (CSP-10.2), the strategy and the odds."""
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.caribbean import game as cs
from rulebook.poker import poker5
from rulebook.cards import deck, parse_cards
from rulebook.errors import RuleError
from rulebook.options import resolve_options

DEALER_AK = "Ac Kd 9h 6s 3c"  # A-K high: qualifies
DEALER_NQ = "Qc Jd 9h 6s 3c"  # queen high: does not


def opts(**given):
    return resolve_options(cs.OPTIONS, given)


def play(player, dealer, decision="raise", **given):
    return cs.resolve(cs.parse_outcome("%s %s %s" % (player, dealer, decision), opts(**given)), opts(**given))


def test_bets_and_pays_CSP_5_CSP_9_5():
    b = cs.bets(opts())
    assert set(b) == {"ante", "raise", "progressive"}
    assert b["ante"] == "1:1"
    assert b["raise"] == "1:1/2:1/3:1/4:1/5:1/7:1/20:1/50:1/100:1"
    assert cs.bets(opts(royal_pays="50"))["raise"].endswith("/50:1/50:1")


def test_outcome_round_trips():
    text = "As,Ad,7h,5c,2d,Kh,Qc,9d,4s,Ac,raise"
    outcome = cs.parse_outcome(text, opts())
    assert outcome == (tuple(parse_cards("As Ad 7h 5c 2d")), tuple(parse_cards("Kh Qc 9d 4s Ac")), "raise")
    assert cs.outcome_text(outcome) == text
    assert cs.parse_outcome("as ad 7h 5c 2d kh qc 9d 4s ac FOLD", opts())[2] == "fold"


@pytest.mark.parametrize("text, message", [
    ("As,Ad,7h,5c,2d,Kh,Qc,9d,4s,raise", "5 cards then the dealer's 5, got 9"),
    ("As,Ad,7h,5c,2d,Kh,Qc,9d,4s,Ac,2c,raise", "got 11"),
    ("As,Ad,7h,5c,2d,Kh,Qc,9d,4s,Ac", "exactly one decision"),
    ("As,Ad,7h,5c,2d,Kh,Qc,9d,4s,Ac,raise,fold", "exactly one decision"),
    ("As,Ad,7h,5c,2d,Kh,Qc,9d,4s,As,raise", "twice"),
    ("As,Ad,7h,5c,2d,Kh,Qc,9d,4s,Zz,raise", "bad card"),
])
def test_bad_outcomes_are_clear_errors_CSP_1_1_CSP_6_5(text, message):
    with pytest.raises(RuleError, match=message):
        cs.parse_outcome(text, opts())


def test_bad_options_are_clear_errors_CSP_9_5_9():
    for bad in ({"royal_pays": "49"}, {"royal_pays": "101"}, {"qualify": "pair"}, {"max_payout": "-1"},
                {"colour": "red"}):
        with pytest.raises(RuleError):
            opts(**bad)


def test_qualification_counts_over_every_dealer_hand_CSP_9_1_CSP_9_3():
    ak_or_better = ace_and_king = 0
    for hand in combinations(range(52), 5):
        ak_or_better += cs.dealer_qualifies_ids(hand, "ak_or_better")
        ace_and_king += cs.dealer_qualifies_ids(hand, "ace_and_king")
    # A-K high without pair/straight/flush: 164 rank sets {A,K,x,y,z} (not A-K-Q-J-T) x 1020 non-flush
    # suitings; the rest of the 1,302,540 high-card hands do not qualify
    assert ak_or_better == 2598960 - (1302540 - 164 * 1020)
    # literal CSP-9.1: hands holding an ace and a king, by inclusion-exclusion
    assert ace_and_king == 2598960 - 2 * 1712304 + 1086008


@pytest.mark.parametrize("hand, default, literal", [
    ("Ac Kd 9h 6s 3c", True, True),
    ("Ac Qd Jh 6s 3c", False, False),
    ("2c 2d 9h 6s 3c", True, False),  # CSP-9.3 Interpretation: a pair is "higher" than A-K
    ("Ac 2d 3h 4s 5c", True, False),  # the wheel is a straight
    ("Ac Ad Kh 6s 3c", True, True),
    ("Kc Kd Ah 6s 3c", True, True),
    ("9c Tc Jc Qc Kc", True, False),
])
def test_dealer_qualification_cases_CSP_9_1_CSP_9_3(hand, default, literal):
    assert cs.dealer_qualifies(hand) is default
    assert cs.dealer_qualifies(hand, "ace_and_king") is literal


@pytest.mark.parametrize("player, pays", [
    ("Ah Kc Qd 4h 2s", 1),  # high card above the dealer's A-K-9 (CSP-9.5.1)
    ("2s 2h 5d 7c 8c", 1),  # pair (CSP-9.5.1)
    ("2s 2h 5d 5c 8c", 2),  # two pair (CSP-9.5.2)
    ("2s 2h 2d 5c 8c", 3),  # trips (CSP-9.5.3)
    ("4s 5h 6d 7c 8c", 4),  # straight (CSP-9.5.4)
    ("2h 5h 7h Jh Qh", 5),  # flush (CSP-9.5.5)
    ("2s 2h 2d 5c 5d", 7),  # full house (CSP-9.5.6)
    ("2s 2h 2d 2c 5d", 20),  # four of a kind (CSP-9.5.7)
    ("4h 5h 6h 7h 8h", 50),  # straight flush (CSP-9.5.8)
    ("As Ks Qs Js Ts", 100),  # royal flush (CSP-9.5.9)
])
def test_player_wins_ante_1_to_1_and_raise_by_the_table_CSP_9_5(player, pays):
    net = play(player, DEALER_AK)
    assert net["ante"] == 1 and net["raise"] == pays


def test_royal_pays_option_CSP_9_5_9():
    assert play("As Ks Qs Js Ts", DEALER_AK, royal_pays="50")["raise"] == 50
    assert play("As Ks Qs Js Ts", DEALER_AK, royal_pays="75")["raise"] == 75


def test_dealer_higher_takes_ante_and_raise_CSP_9_4():
    assert play("Ah Kh 8d 6c 2s", DEALER_AK) == {"ante": -1, "raise": -1, "progressive": -1}
    assert play("Ah Kh 8d 6c 2s", "3d 3h 4c 5c 7d")["raise"] == -1


def test_equal_ranks_settled_by_suit_no_push_CSP_8_10():
    assert play("As Kh 9c 6d 3d", DEALER_AK)["ante"] == 1  # the ace of spades beats the ace of clubs
    assert play("Ad Kh 9c 6d 3d", DEALER_AK)["ante"] == -1


def test_pair_suit_option_in_settlement_CSP_8_9():
    player, dealer = "Ts Td 9h 7c 6s", "Th Tc 9s 7d 6h"
    assert play(player, dealer)["ante"] == 1
    assert play(player, dealer, pair_suit="lower")["ante"] == -1


def test_dealer_not_qualified_pays_ante_returns_raise_CSP_9_2():
    assert play("2s 3h 5d 7c 8c", DEALER_NQ) == {"ante": 1, "raise": 0, "progressive": -1}
    assert play("As Ks Qs Js Ts", DEALER_NQ)["raise"] == 0


def test_literal_qualification_option_CSP_9_1():
    player, dealer = "3s 3h 5d 7c 8c", "2c 2d 9h 6s Jc"
    assert play(player, dealer)["raise"] == 1
    assert play(player, dealer, qualify="ace_and_king")["raise"] == 0


def test_fold_loses_the_ante_CSP_6_7():
    assert play("As Ks Qs Js Ts", DEALER_AK, "fold") == {"ante": -1, "raise": 0, "progressive": -1}


def test_cap_per_round_on_quads_straight_flush_royal_CSP_6_6_CSP_9_5_7_to_9_5_9():
    cap = dict(ante="100", max_payout="3000")  # raise stake 200 cents, twice the ante: quads would win 4000
    assert play("2s 2h 2d 2c 5d", DEALER_AK, **cap)["raise"] == Fraction(3000, 200)
    assert play("4h 5h 6h 7h 8h", DEALER_AK, **cap)["raise"] == Fraction(3000, 200)
    assert play("As Ks Qs Js Ts", DEALER_AK, **cap)["raise"] == Fraction(3000, 200)
    assert play("As Ks Qs Js Ts", DEALER_AK, **cap)["ante"] == 1  # the ante is not capped
    # lower hands are not capped, even under a smaller maximum (CSP-9.5.1-9.5.6)
    assert play("2s 2h 2d 5c 5d", DEALER_AK, ante="100", max_payout="500")["raise"] == 7
    # a cap above the win changes nothing
    assert play("2s 2h 2d 2c 5d", DEALER_AK, ante="100", max_payout="4000")["raise"] == 20


def test_progressive_awards_for_this_box_CSP_10_2_1_to_10_2_5():
    # defaults: bet 100 cents; flush 5000, full house 7500, quads 10000 fixed; pool 10,000,000
    assert play("2h 5h 7h Jh Qh", DEALER_AK)["progressive"] == 49
    assert play("2s 2h 2d 5c 5d", DEALER_AK)["progressive"] == 74
    assert play("2s 2h 2d 2c 5d", DEALER_AK)["progressive"] == 99
    assert play("4h 5h 6h 7h 8h", DEALER_AK)["progressive"] == 1_000_000 // 100 - 1
    assert play("As Ks Qs Js Ts", DEALER_AK)["progressive"] == 10_000_000 // 100 - 1
    assert play("As Ks Qs Js Ts", DEALER_AK, fixed_royal_flush="20000000")["progressive"] == 200_000 - 1
    assert play("2s 2h 2d 2c 5d", DEALER_NQ)["progressive"] == 99  # whatever the dealer holds
    assert play("2s 2h 2d 2c 5d", DEALER_AK, "fold")["progressive"] == -1
    assert play("2s 2h 2d 2c 5d", DEALER_AK, "fold", fold_keeps_progressive="true")["progressive"] == 99


def test_strategy_decisions():
    assert cs.decide("2s 2h 5d 7c 8c", "Ad") == "raise"  # a pair or better
    assert cs.decide("Qs Jd 9c 5h 3d", "2c") == "fold"  # less than A-K
    assert cs.decide("As Kd 9c 5h 3d", "9h") == "raise"  # up card 2..Q matching
    assert cs.decide("As Kd 9c 5h 3d", "Ah") == "fold"
    assert cs.decide("As Kd Jc 5h 3d", "Kh") == "raise"  # A/K up and a J or Q held
    assert cs.decide("As Kd Qc 8h 6d", "4h") == "raise"  # Q held, up card below the fourth card
    assert cs.decide("As Kd Qc 8h 6d", "7h") == "raise"
    assert cs.decide("As Kd Qc 8h 6d", "9h") == "fold"
    assert cs.decide("As Kd 9c 5h 3d", "4h") == "fold"
    with pytest.raises(RuleError):
        cs.decide("As Kd 9c 5h 3d", "As")
    assert "pair or better" in cs.strategy(opts())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(deck()), min_size=10, max_size=10, unique=True))
def test_settlement_agrees_with_the_ranking_and_is_antisymmetric(cards):
    player, dealer = " ".join(map(str, cards[:5])), " ".join(map(str, cards[5:]))
    net = play(player, dealer)
    category = poker5.evaluate(cards[:5])[0]
    if not cs.dealer_qualifies(cards[5:]):
        assert net["ante"] == 1 and net["raise"] == 0
    else:
        won = poker5.csp_compare(cards[:5], cards[5:]) == 1
        assert net["ante"] == (1 if won else -1)
        assert net["raise"] == (cs.raise_pays(category, opts()) if won else -1)
        if cs.dealer_qualifies(cards[:5]):  # swap seats: the other side wins
            assert play(dealer, player)["ante"] == -net["ante"]
    assert play(player, dealer, "fold")["ante"] == -1


def test_progressive_edge_is_exact_from_the_textbook_counts():
    o = opts(pool="2000000")
    expected = 1 - (Fraction(5108 * 5000 + 3744 * 7500 + 624 * 10000 + 36 * 200_000 + 4 * 2_000_000, 2598960)
                    / 100)
    assert cs.progressive_edge(2_000_000, o) == expected
    be = cs.break_even_pool(o)
    assert cs.progressive_edge(be, o) <= 0 < cs.progressive_edge(be - 1, o)


def test_edge_figures_and_flags():
    o = opts()
    e = cs.edge(o)
    assert set(e) == {"ante", "raise", "progressive"}
    for bet in ("ante", "raise"):
        assert e[bet]["method"] == "exact" and isinstance(e[bet]["house_edge"], Fraction)
    # the hand's edge per ante is positive, the raise alone favours the player (only good hands raise)
    assert 0 < e["ante"]["house_edge"] <= e["ante"]["strategy_house_edge"] < Fraction(6, 100)
    assert e["raise"]["house_edge"] < 0 and Fraction(3, 10) < e["ante"]["raise_probability"] < Fraction(7, 10)
    assert e["progressive"]["house_edge"] == cs.progressive_edge(10_000_000, o)
    assert e["progressive"]["win_probability"] == Fraction(5108 + 3744 + 624 + 36 + 4, 2598960)
    rich = opts(pool=str(cs.break_even_pool(o)), max_payout="1000")
    lines = cs.flags(rich)
    assert any(line.startswith("progressive") for line in lines)
    assert any("max_payout" in line for line in lines)
    assert any(line.startswith("raise") for line in lines)


def test_strategy_text_states_its_exact_gap_to_the_optimum():
    from rulebook.caribbean import exact as caribbean_exact
    e = caribbean_exact.ante_raise_edge(opts())
    gap = e["strategy"]["house_edge"] - e["house_edge"]
    text = cs.strategy(opts())
    assert "%d/%d" % (gap.numerator, gap.denominator) in text
    assert "%.5f%%" % (100 * e["house_edge"]) in text and "%.5f%%" % (100 * e["strategy"]["house_edge"]) in text


def test_simulated_hand_edge_is_near_the_published_figure():
    # the published edge with pushes is 5.22% of the ante; 100,000 rounds give about +-1.4%
    sim = cs.simulate(100_000, 11, opts())
    assert 0.02 < -sim["ante"]["mean_net"] < 0.09
    assert sim["ante"]["rounds"] == 100_000 and 40_000 < sim["raise"]["rounds"] < 65_000
    assert sim == cs.simulate(100_000, 11, opts())
    with pytest.raises(RuleError):
        cs.simulate(0, 1, opts())


def test_progressive_stake_returned_option_CSP_10_2():
    assert play("2h 5h 7h Jh Qh", DEALER_AK, progressive_stake_returned="true")["progressive"] == 50
    assert play("2h 5h 7h 9d Qh", DEALER_AK, progressive_stake_returned="true")["progressive"] == -1
    o = opts(progressive_stake_returned="true")
    hits = 5108 + 3744 + 624 + 36 + 4
    assert cs.progressive_edge(0, o) == cs.progressive_edge(0, opts()) - Fraction(hits, 2598960)


def test_flags_say_why_the_literal_qualification_gives_the_player_the_edge_CSP_9_1():
    figures = {"ante": {"pays": "1:1", "house_edge": Fraction(-86, 100)}}  # the shape edge() returns
    literal = cs.flags(opts(qualify="ace_and_king"), figures)
    assert len(literal) == 1 and "ante (pays 1:1): house edge -86.0000%" in literal[0]
    assert "literal CSP-9.1" in literal[0] and "an A and a K" in literal[0]
    assert "CSP-9.1" not in cs.flags(opts(), figures)[0]  # the default reading's flag gives no such reason
