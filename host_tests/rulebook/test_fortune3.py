"""Fortune 3 Card Poker in the reference engine: settlement of every branch, side-bet rules, dealing,
void rounds, the exact tables against independent counts and the published 3.37% anchor, simulation."""
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook import fortune3
from rulebook.poker import poker3
from rulebook.cards import Shoe, deck, parse_cards
from rulebook.errors import RuleError, ShoeExhausted


def net(text, **opts):
    return fortune3.resolve(text, opts)


# --- ante / play (F3-12, F3-13) -------------------------------------------------------------------

def test_fold_loses_the_ante_only_F3_12_2():
    # player K-9-4 folds against anything: -1 per ante, whatever the dealer holds
    assert net("Kh,9c,4d,2s,3s,7h,fold")["ante"] == -1
    assert net("Kh,9c,4d,As,Ac,Ad,fold")["ante"] == -1


def test_fold_gets_no_ante_bonus_F3_12_2_F3_13_4():
    assert net("9h,9c,9d,2s,3s,7h,fold")["ante"] == -1  # trips folded: no 4:1 bonus


def test_dealer_not_qualified_pays_ante_returns_play_F3_13_1():
    # dealer J-high: ante 1:1, play returned, even though the dealer's J-9-7 beats the player's 8-6-4? no:
    assert net("8h,6c,4d,Js,9s,7h,play")["ante"] == 1
    assert net("Ah,Kc,9d,Js,9s,7h,play")["ante"] == 1


def test_dealer_queen_high_qualifies_F3_13_2():
    assert net("Ah,Kc,9d,Qs,3c,2h,play")["ante"] == 2  # player higher: ante and play 1:1
    assert net("Jh,Tc,8d,Qs,3c,2h,play")["ante"] == -2  # dealer higher: both lost (F3-13.3)


def test_dealer_pair_qualifies_under_hand_reading_F3_13_1():
    # Interpretation (default): any pair is above Q-high, so the dealer 2-2-5 plays
    assert net("Ah,Kc,9d,2s,2c,5h,play")["ante"] == -2
    assert net("Ah,Kc,9d,2s,2c,5h,play", qualify="high_card")["ante"] == 1  # literal card reading


@pytest.mark.parametrize("dealer, qualified_by_hand, qualified_by_card", [
    ("Qs,3c,2h", True, True), ("Js,Tc,8h", False, False), ("4s,3c,2h", True, False),
    ("As,2c,3h", True, True), ("Js,8s,6s", True, False), ("5s,5c,Jh", True, False), ("Ks,2c,4h", True, True),
])
def test_dealer_qualification_both_readings_F3_13_1(dealer, qualified_by_hand, qualified_by_card):
    key = poker3.evaluate(dealer)
    assert fortune3.dealer_qualifies(key, {"qualify": "hand"}) is qualified_by_hand
    assert fortune3.dealer_qualifies(key, {"qualify": "high_card"}) is qualified_by_card


def test_equal_hands_push_or_dealer_wins_by_option_F3_7_1_F3_13_3():
    text = "Kh,9c,4d,Ks,9d,4c,play"
    assert net(text)["ante"] == 0
    assert net(text, tie="dealer")["ante"] == -2


@pytest.mark.parametrize("player, bonus", [("7h,8h,9h", 5), ("9h,9c,9d", 4), ("7h,8c,9h", 1),
                                           ("2h,7h,9h", 0), ("9h,9c,2d", 0)])
def test_ante_bonus_paid_win_lose_or_unqualified_F3_13_4(player, bonus):
    assert net(player + ",Js,Tc,5d,play")["ante"] == 1 + bonus  # dealer not qualified
    assert net(player + ",As,Ks,Qs,play")["ante"] == -2 + bonus  # dealer A-K-Q straight flush beats all


def test_player_beats_qualified_dealer_with_bonus_F3_13_3_F3_13_4():
    assert net("Ah,Kh,Qh,As,Ac,Ad,play")["ante"] == 2 + 5  # SF over trips


# --- Pair Plus (F3-13.5, F3-16.1) ----------------------------------------------------------------

@pytest.mark.parametrize("player, expected", [
    ("2h,3h,4h", 40), ("Ah,2h,3h", 40), ("5s,5h,5c", 25), ("Qs,Kh,Ac", 5), ("2h,9h,Kh", 4),
    ("7s,7h,Ac", 1), ("As,Kh,Jc", -1),
])
def test_pair_plus_pay_table_F3_13_5_F3_16_1(player, expected):
    for rest in ("2c,5c,8d,fold", "Qd,Qc,Td,play"):
        if set(parse_cards(player)) & set(parse_cards(rest.rsplit(",", 1)[0])):
            continue
        assert net(player + "," + rest)["pair_plus"] == expected  # dealer and decision do not matter


# --- Six Card Bonus (F3-13.6, F3-14, F3-16.2) ----------------------------------------------------

@pytest.mark.parametrize("player, dealer, expected", [
    ("Ah,Kh,Qh", "Jh,Th,2c", 500),  # royal flush across both hands
    ("9s,8s,2d", "7s,6s,5s", 100),  # straight flush
    ("9s,9h,2d", "9c,9d,5s", 50),  # four of a kind
    ("9s,9h,2d", "9c,2s,5s", 20),  # full house
    ("2h,7h,9c", "Jh,Kh,Qh", 15),  # flush: five hearts of six
    ("3c,4d,Kh", "5s,6h,7c", 10),  # straight 3-7
    ("Ac,2d,Kh", "3s,4h,5c", 10),  # 5-4-3-2-A is a five-card sequence (F3-6.3)
    ("Qc,Qd,2h", "Qs,7h,9c", 7),  # three of a kind
    ("Qc,Qd,2h", "2s,7h,9c", -1),  # two pair does not pay (F3-7.2)
    ("Qc,Kd,2h", "Js,Th,8c", -1),  # no five-card straight from K-Q-J-T-8
])
def test_six_card_bonus_classes_F3_16_2(player, dealer, expected):
    assert net(player + "," + dealer + ",fold")["six_card_bonus"] == expected
    assert net(player + "," + dealer + ",play")["six_card_bonus"] == expected  # F3-12.4


# --- Progressive (F3-13.7, F3-15, F3-16.3) -------------------------------------------------------

PROG = dict(progressive_bet=500, pool=2_000_000, fixed_flush=25_000,
            fixed_full_house=50_000, fixed_four_of_a_kind=100_000,
            fixed_straight_flush=150_000, fixed_royal_flush=0)


@pytest.mark.parametrize("player, community, award_cents", [
    ("Ah,Kh,Qh", "Jh,Th", 2_000_000),  # royal: the whole pool (F3-16.3.1)
    ("9h,8h,7h", "6h,5h", 200_000),  # straight flush: max(150,000 fixed, 10% of 2,000,000) (F3-16.3.2)
    ("9h,9s,9c", "9d,5h", 100_000),  # four of a kind: fixed (F3-16.3.3)
    ("9h,9s,5c", "9d,5h", 50_000),  # full house: fixed (F3-16.3.4)
    ("2h,9h,Jh", "Kh,5h", 25_000),  # flush: fixed (F3-16.3.5)
])
def test_progressive_awards_F3_16_3_1_to_16_3_5(player, community, award_cents):
    text = "%s,2c,3d,Qs,%s,fold" % (player, community)
    assert net(text, **PROG)["progressive"] == Fraction(award_cents, 500) - 1  # the stake feeds the pool
    assert net(text, progressive_stake_returned=True, **PROG)["progressive"] == Fraction(award_cents, 500)


def test_progressive_straight_flush_fixed_above_ten_percent_F3_16_3_2():
    opts = dict(PROG, pool=1_000_000)  # 10% = 100,000 < 150,000 fixed
    assert net("9h,8h,7h,2c,3d,Qs,6h,5h,play", **opts)["progressive"] == Fraction(150_000, 500) - 1


@pytest.mark.parametrize("player, community", [("9h,8c,7h", "6h,5h"), ("9h,9s,9c", "Kd,5h"),
                                               ("9h,9s,Kc", "Kd,5h")])
def test_progressive_loses_below_a_flush_F3_7_3(player, community):
    assert net("%s,2c,3d,Qs,%s,play" % (player, community), **PROG)["progressive"] == -1


def test_progressive_ignores_the_dealer_and_needs_community_cards_F3_15_1():
    # the dealer's cards would make a royal with the player's; only the community cards count
    assert net("Ah,Kh,Qh,Jh,Th,2c,3d,4s,play", **PROG)["progressive"] == -1
    assert "progressive" not in net("Ah,Kh,Qh,Jh,Th,2c,play")  # F3-15.2: no community cards dealt


def test_three_card_shuffler_burns_one_before_the_community_cards_F3_11_4():
    # burn Jh: it must not count; community Th,9h gives a flush, not a royal
    text = "Ah,Kh,Qh,2c,3d,4s,Jh,Th,2h,play"
    assert net(text, dealing="shuffler3", **PROG)["progressive"] == Fraction(25_000, 500) - 1
    with pytest.raises(RuleError, match="6 or 8 cards"):
        net(text)
    with pytest.raises(RuleError, match="6 or 9 cards"):
        net("Ah,Kh,Qh,2c,3d,4s,Th,2h,play", dealing="shuffler3")


# --- stakes and side-bet rules (F3-3, F3-4, F3-12.2) ---------------------------------------------

def test_settle_box_in_money_play_equals_ante_F3_12_2():
    stakes = {"ante": 10, "pair_plus": 5, "six_card_bonus": 2}
    won = fortune3.settle_box(stakes, "Ah,Kh,Qh,Js,Tc,5d,play")
    assert (won["ante"], won["play"], won["ante_bonus"], won["pair_plus"]) == (10, 0, 50, 200)
    lost = fortune3.settle_box(stakes, "Kh,9c,4d,As,Ks,Qs,play")  # six cards: a pair of kings only
    parts = ("ante", "play", "ante_bonus", "pair_plus", "six_card_bonus")
    assert tuple(lost[p] for p in parts) == (-10, -10, 0, -5, -2)
    folded = fortune3.settle_box(stakes, "Kh,9c,4d,As,Ac,Ad,fold")
    assert (folded["ante"], folded["play"]) == (-10, 0)


def test_settle_box_progressive_in_cents_F3_16_3():
    # defaults: progressive bet 100 cents, flush fixed 5,000 cents, the stake collected (feeds the pool)
    out = fortune3.settle_box({"ante": 100, "progressive": 100}, "2h,9h,Jh,As,Ad,Ac,Kh,5h,fold")
    assert (out["ante"], out["progressive"]) == (-100, 5000 - 100)  # F3-12.4: the fold does not matter


def test_pair_plus_alone_is_a_base_bet_F3_3_1():
    out = fortune3.settle_box({"pair_plus": 5, "six_card_bonus": 1}, "7s,7h,Ac,2c,3c,9d,fold")
    assert (out["ante"], out["pair_plus"], out["six_card_bonus"]) == (0, 5, -1)


@pytest.mark.parametrize("stakes", [{"six_card_bonus": 5}, {"progressive": 5},
                                    {"six_card_bonus": 1, "progressive": 1}])
def test_additional_bet_without_base_bet_refused_F3_3_2_F3_4_2_F3_4_3(stakes):
    with pytest.raises(RuleError, match="base bet"):
        fortune3.settle_box(stakes, "7s,7h,Ac,2c,3c,9d,5h,6h,fold")


@pytest.mark.parametrize("stakes, words", [
    ({}, "no bet"), ({"ante": -1}, "non-negative"), ({"ante": 1.5}, "non-negative"), ({"lucky": 1}, "unknown"),
    ({"ante": 1, "progressive": 1}, "community"),
])
def test_bad_stakes_refused(stakes, words):
    with pytest.raises(RuleError, match=words):
        fortune3.settle_box(stakes, "7s,7h,Ac,2c,3c,9d,play")


# --- bad outcomes ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ("As,Kd,Qh,2c,3d,play", "6 or 8 cards"), ("As,Kd,Qh,2c,3d,9s,4h,play", "6 or 8 cards"),
    ("As,Kd,Qh,2c,3d,9s", "decision"), ("As,Kd,Qh,2c,3d,9s,play,fold", "decision"),
    ("As,Kd,Qh,2c,3d,As,play", "twice"), ("As,Kd,Qh,2c,3d,9s,4h,As,play", "twice"),
    ("As,Kd,Qh,2c,3d,1s,play", "bad card"),
])
def test_bad_outcomes_raise_rule_error_F3_2_1(text, words):
    with pytest.raises(RuleError, match=words):
        fortune3.resolve(text)


def test_bad_option_refused():
    with pytest.raises(RuleError, match="qualify"):
        fortune3.resolve("As,Kd,Qh,2c,3d,9s,play", {"qualify": "maybe"})
    with pytest.raises(RuleError, match="unknown option"):
        fortune3.edge({"decks": 2})
    with pytest.raises(RuleError, match="tie"):
        fortune3.resolve("As,Kd,Qh,2c,3d,9s,play", {"tie": ["push"]})


def test_outcome_text_round_trips():
    for text, opts in (("As,Kd,Qh,2c,3d,9s,play", {}), ("As,Kd,Qh,2c,3d,9s,4h,5h,fold", {}),
                       ("As,Kd,Qh,2c,3d,9s,Jh,4h,5h,play", {"dealing": "shuffler3"})):
        assert fortune3.outcome_text(fortune3.parse_outcome(text, opts)) == text


# --- properties over random rounds ----------------------------------------------------------------

rounds = st.lists(st.sampled_from(deck()), min_size=8, max_size=8, unique=True)


def _text(cards, decision):
    return ",".join(map(str, cards)) + "," + decision


@settings(max_examples=150, deadline=None)
@given(rounds, st.sampled_from(["play", "fold"]))
def test_side_bets_ignore_the_decision_and_the_dealer_F3_12_3_F3_12_4_F3_13_5_F3_13_6(cards, decision):
    a = net(_text(cards, decision))
    b = net(_text(cards, "fold" if decision == "play" else "play"))
    sides = ("pair_plus", "six_card_bonus", "progressive")
    assert [a[s] for s in sides] == [b[s] for s in sides]
    swapped = net(_text(cards[3:6] + cards[:3] + cards[6:], decision))  # same six cards, hands swapped
    assert swapped["six_card_bonus"] == a["six_card_bonus"]  # F3-14: the best five of all six
    assert a["ante"] in {Fraction(n) for n in (-2, -1, 0, 1, 2, 3, 4, 5, 6, 7)}


# --- dealing and irregularities (F3-11, F3-17) ---------------------------------------------------

SEQ = [str(c) for c in deck()[:12]]  # 2s..Ks: positions are easy to read


def test_manual_dealing_one_card_at_a_time_F3_9_1_F3_11_1_F3_11_3():
    dealt = fortune3.deal(Shoe(cards=SEQ), 2, progressive=True, opts={"dealing": "manual"})
    c = parse_cards(SEQ)
    assert dealt["boxes"] == [[c[0], c[2], c[4]], [c[1], c[3], c[5]]]
    assert dealt["dealer"] == c[6:9] and dealt["community"] == c[9:11] and dealt["burn"] is None


def test_shuffler_dealing_three_per_box_and_burn_F3_9_1_F3_11_2_F3_11_4():
    c = parse_cards(SEQ)
    dealt = fortune3.deal(Shoe(cards=SEQ), 2, progressive=True, opts={"dealing": "shuffler"})
    assert dealt["boxes"] == [c[0:3], c[3:6]] and dealt["dealer"] == c[6:9] and dealt["community"] == c[9:11]
    dealt = fortune3.deal(Shoe(cards=SEQ), 2, progressive=True, opts={"dealing": "shuffler3"})
    assert dealt["burn"] == c[9] and dealt["community"] == c[10:12]
    assert fortune3.deal(Shoe(cards=SEQ), 2)["community"] == []  # F3-15.2


def test_deal_refuses_bad_box_count_and_short_shoe_F3_5_2():
    for boxes in (0, 8):  # six to eight boxes, the dealer's one of them: at most seven players
        with pytest.raises(RuleError, match="boxes"):
            fortune3.deal(Shoe(cards=SEQ), boxes)
    with pytest.raises(ShoeExhausted):
        fortune3.deal(Shoe(cards=SEQ), 4)


@pytest.mark.parametrize("kind, exposed, void, carried, dead", [
    ("dealing_breach", 1, True, True, False),  # F3-17.1.1, F3-17.3
    ("dealer_card_exposed", 1, True, False, False),  # F3-17.1.2
    ("player_cards_exposed", 2, True, False, False),  # F3-17.1.3
    ("player_cards_exposed", 1, False, False, False),  # F3-17.4.1
    ("shuffler_fault", 1, True, True, False),  # F3-17.2, F3-17.3
    ("card_to_empty_box", 1, False, False, True),  # F3-17.4.2, F3-17.5
])
def test_irregularities_F3_17(kind, exposed, void, carried, dead):
    ruling = fortune3.irregularity(kind, exposed)
    assert (ruling.void, ruling.progressive_carried, ruling.dead_cards) == (void, carried, dead)
    assert ruling.bets_returnable == void


def test_unknown_irregularity_refused():
    with pytest.raises(RuleError, match="unknown irregularity"):
        fortune3.irregularity("spilled drink")
    with pytest.raises(RuleError, match="exposed"):
        fortune3.irregularity("player_cards_exposed", 0)


# --- exact analysis -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def edges():
    return fortune3.edge()


def test_ante_play_anchor_3_37_percent_with_5_4_1_bonus(edges):
    # published: Three Card Poker ante/play 3.37% (3.3730%) of the ante, play rate 67.42%, optimal play Q-6-4
    assert abs(float(edges["ante"]["house_edge"]) - 0.03373) < 0.00001
    assert abs(float(edges["ante"]["play_probability"]) - 0.6742) < 0.0001
    assert abs(float(edges["ante"]["element_of_risk"]) - 0.0201) < 0.0001  # published 2.01%
    assert edges["ante"]["strategy"] == "play Q-6-4 or better, fold the rest"
    assert sum(edges["ante"]["distribution"].values()) == 1


def brute_force_play_value(player):
    """E[net of playing] by direct enumeration of the 18,424 dealer hands (default options)."""
    player = parse_cards(player)
    rest = [c for c in deck() if c not in player]
    pk = poker3.evaluate(player)
    bonus = {poker3.STRAIGHT_FLUSH: 5, poker3.THREE_OF_A_KIND: 4, poker3.STRAIGHT: 1}.get(pk[0], 0)
    total = 0
    for dealer in combinations(rest, 3):
        dk = poker3.evaluate(dealer)
        if dk[0] == poker3.HIGH_CARD and dk[1][0] < 12:
            total += 1
        else:
            total += 2 * ((pk > dk) - (pk < dk))
    return Fraction(total, comb(49, 3)) + bonus


@pytest.mark.parametrize("player, plays", [("Qh,6c,4d", True), ("Qh,6c,3d", False), ("Qh,6h,4h", True),
                                           ("2h,2c,3d", True), ("Ac,2c,3c", True), ("Jh,Td,8s", False)])
def test_optimal_decision_by_brute_force_Q_6_4(player, plays):
    value = brute_force_play_value(player)
    assert (value > -1) is plays
    assert fortune3.play_value(player) == value
    assert fortune3.should_play(player) is plays


def test_tie_to_dealer_costs_the_player(edges):
    assert fortune3.edge({"tie": "dealer"})["ante"]["house_edge"] > edges["ante"]["house_edge"]


def test_literal_qualification_reading_gives_the_player_the_edge_and_is_flagged():
    opts = {"qualify": "high_card"}
    e = fortune3.edge(opts)
    assert e["ante"]["house_edge"] < 0
    assert any(line.startswith("ante") and "F3-13.1" in line for line in fortune3.flags(opts, e))
    assert not any(line.startswith("ante") for line in fortune3.flags())


def test_fixed_class_without_amount_is_flagged_F3_16_3():
    lines = fortune3.flags({"fixed_flush": 0})
    assert any("flush" in line and "is 0" in line for line in lines)


def test_pair_plus_edge_from_textbook_counts_F3_16_1(edges):
    counts = {40: 48, 25: 52, 5: 720, 4: 1096, 1: 3744, -1: 16440}
    expected = -Fraction(sum(pay * n for pay, n in counts.items()), 22100)
    assert edges["pair_plus"]["house_edge"] == expected  # 1492/22100 = 6.75%
    assert edges["pair_plus"]["win_probability"] == Fraction(22100 - 16440, 22100)


def six_card_textbook():
    """Best five of six cards, counted in closed form (independently of the engine)."""
    royal = 4 * 47  # any sixth card
    straight_flush = 4 * 9 * 46  # tops 5..K; the sixth card is not the one making a higher one
    quads = 13 * comb(48, 2)
    full_house = comb(13, 2) * 4 * 4 + 13 * 12 * 11 * 4 * 6 * 4  # 3+3, 3+2+1
    flush_any = 4 * comb(13, 6) + 4 * comb(13, 5) * 39
    flush = flush_any - royal - straight_flush
    runs = [set(range(lo, lo + 5)) for lo in range(2, 11)] + [{14, 2, 3, 4, 5}]
    six_rank_sets = sum(1 for s in combinations(range(2, 15), 6) if any(r <= set(s) for r in runs))
    five_distinct = 4 ** 6 - (4 + 6 * 4 * 3)  # suits of six distinct ranks without five of one suit
    straight = six_rank_sets * five_distinct + len(runs) * 5 * (6 * 4 ** 4 - 4 * 3)
    trips = 13 * comb(12, 3) * 4 * 4 ** 3
    return {"royal_flush": royal, "straight_flush": straight_flush, "four_of_a_kind": quads,
            "full_house": full_house, "flush": flush, "straight": straight, "three_of_a_kind": trips}


def test_six_card_counts_and_edge_from_closed_forms_F3_16_2(edges):
    counts = fortune3.best_hand_counts(6)
    assert sum(counts.values()) == comb(52, 6) == 20358520
    expected = six_card_textbook()
    assert {k: counts[k] for k in expected} == expected
    pays = {"royal_flush": 500, "straight_flush": 100, "four_of_a_kind": 50, "full_house": 20,
            "flush": 15, "straight": 10, "three_of_a_kind": 7}
    losers = comb(52, 6) - sum(expected.values())
    ev = Fraction(sum(pays[k] * n for k, n in expected.items()) - losers, comb(52, 6))
    assert edges["six_card_bonus"]["house_edge"] == -ev


def test_progressive_classes_from_textbook_five_card_counts_F3_7_3(edges):
    textbook = {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3744, "flush": 5108}
    probability = edges["progressive"]["class_probability"]
    assert probability == {k: Fraction(n, comb(52, 5)) for k, n in textbook.items()}
    opts = fortune3.resolve_options(fortune3.OPTIONS, {})
    stake = opts["progressive_bet"]
    award = {"royal_flush": max(opts["fixed_royal_flush"], opts["pool"]),
             "straight_flush": max(opts["fixed_straight_flush"], opts["pool"] // 10),
             "four_of_a_kind": opts["fixed_four_of_a_kind"],
             "full_house": opts["fixed_full_house"], "flush": opts["fixed_flush"]}
    # the stake is always collected (default), so every class nets its award less one stake
    ev = Fraction(sum(n * award[k] for k, n in textbook.items()), stake * comb(52, 5)) - 1
    assert edges["progressive"]["house_edge"] == -ev


def test_every_bet_listed_with_pays(edges):
    assert set(fortune3.bets()) == set(edges) == {"ante", "pair_plus", "six_card_bonus", "progressive"}
    assert fortune3.bets()["pair_plus"] == "1:1/4:1/5:1/25:1/40:1"
    assert fortune3.bets()["six_card_bonus"] == "7:1/10:1/15:1/20:1/50:1/100:1/500:1"


def test_simulation_agrees_with_exact(edges):
    sim = fortune3.simulate(12000, 20251030)
    for bet in ("ante", "pair_plus", "six_card_bonus"):
        mean, err = sim[bet]["mean_net"], sim[bet]["stderr"]
        assert abs(mean + float(edges[bet]["house_edge"])) < 4 * err, bet
    assert fortune3.simulate(50, 3) == fortune3.simulate(50, 3)  # seeded: replayable
