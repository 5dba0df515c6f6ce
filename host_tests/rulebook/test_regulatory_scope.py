"""The articles a lab expects in scope (issue 28): baccarat's jackpot bet as an additional, seated bet
(BAC-13.3), blackjack's exposed cards, uncorrectable misdeals and wrong dealer draws (BJ-5.1.1, 5.1.2,
6.1), roulette's void spin (RL-2.2, 2.3), balanced dice (FPC-1.2) and the three doubling cases of
BJ-17.1 as three settings."""
from fractions import Fraction as F
from itertools import product

import pytest

from rulebook import fish_prawn_crab as fpc, fortune3, progressive, roulette, sicbo
from rulebook.baccarat import game as baccarat
from rulebook.blackjack import game as bj
from rulebook.caribbean import game as caribbean_stud
from rulebook.baccarat.awards import award_and_pool
from rulebook.blackjack.basic_strategy import Strategy
from rulebook.errors import RuleError
from rulebook.options import resolve_options

COUP = "9s,2h,Kd,3c"  # player 9, banker 5: player wins


# --- BAC-13.3 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("basic", baccarat.BASIC_BETS)
@pytest.mark.parametrize("jackpot", baccarat.JACKPOT_BETS)
def test_jackpot_bet_beside_a_player_banker_or_tie_bet_is_settled_BAC_13_3(basic, jackpot):
    nets = baccarat.resolve_box(COUP, {basic: 100, jackpot: 10})
    expect = baccarat.resolve(COUP)
    assert nets == {basic: expect[basic] * 100, jackpot: expect[jackpot] * 10}


@pytest.mark.parametrize("others", [{}, {"player_pair": 5}, {"banker_pair": 5, "dragon7": 5, "lucky6": 5},
                                    {"progressive_b": 10}])
@pytest.mark.parametrize("jackpot", baccarat.JACKPOT_BETS)
def test_jackpot_bet_alone_or_with_side_bets_only_is_refused_BAC_13_3(jackpot, others):
    # 屬載於第一款（一）項至（三）項的附加投注: additional to player, banker or tie, not to a side bet
    with pytest.raises(RuleError, match="additional to a player, banker or tie bet"):
        baccarat.resolve_box(COUP, dict(others, **{jackpot: 10}))


@pytest.mark.parametrize("jackpot", baccarat.JACKPOT_BETS)
def test_only_a_seated_player_bets_the_jackpot_BAC_13_3(jackpot):
    # 唯座位上的博彩者方可下注於累進大獎; a standing player keeps every other bet
    with pytest.raises(RuleError, match="only a seated player"):
        baccarat.resolve_box(COUP, {"banker": 100, jackpot: 10}, seated=False)
    assert baccarat.resolve_box(COUP, {"banker": 100}, seated=False) == {"banker": -100}


@pytest.mark.parametrize("stakes", [{"player": -1}, {"player": 1.5}, {"player": True}, {"pass_line": 5}])
def test_bad_baccarat_stakes_refused_BAC_13_1(stakes):
    with pytest.raises(RuleError):
        baccarat.resolve_box(COUP, stakes)


def test_void_coup_returns_the_jackpot_bet_with_the_rest_BAC_10_BAC_13_3():
    assert baccarat.resolve_box("void", {"tie": 50, "progressive_a": 10}) == {"tie": 0, "progressive_a": 0}


# --- the baccarat pool, read from CSP-10.8 (55/2004 is silent) ---------------------------------------

def _jackpot_opts(**kw):
    opts = {"jackpot_pool_cents": 50_000, "a_four_of_a_kind_cents": 20_000, "jackpot_seed_cents": 10_000}
    return resolve_options(baccarat.OPTIONS, dict(opts, **kw))


def test_fixed_award_paid_out_of_the_pool_by_default_BAC_17_8():
    assert award_and_pool("a", "four_of_a_kind", _jackpot_opts()) == (20_000, 30_000)


def test_fixed_award_paid_by_the_house_leaves_the_pool_BAC_17_8():
    assert award_and_pool("a", "four_of_a_kind", _jackpot_opts(jackpot_fixed_from_pool=False)) == (20_000, 50_000)


def test_pool_award_restarts_from_the_seed_BAC_17_6():
    assert award_and_pool("a", "royal", _jackpot_opts()) == (50_000, 10_000)


def test_fixed_award_emptying_the_pool_restarts_it_from_the_seed_BAC_17_8():
    award, pool = award_and_pool("a", "four_of_a_kind", _jackpot_opts(jackpot_pool_cents=20_000))
    assert (award, pool) == (20_000, 10_000)


# --- BJ-5.1.1, BJ-5.1.2, BJ-6.1 ----------------------------------------------------------------------

def effect(ruling):
    return (ruling.void, ruling.bets_returnable, ruling.progressive_carried, ruling.dead_cards)


DEAD_CARD = (False, False, False, True)
STANDS = (False, False, False, False)


def test_exposed_card_is_void_BJ_5_1_1():
    # 陽開的紙牌視為作廢
    for first in (False, True):
        ruling = bj.irregularity("exposed_card", first=first)
        assert effect(ruling) == DEAD_CARD and ruling.article == "BJ-5.1.1"
    assert bj.irregularity("exposed_card") == bj.irregularity("exposed_card", first=False)


def test_first_exposed_card_may_be_kept_by_option_BJ_5_1_1():
    # 但牌局開始時首張紙牌陽開時，則可選擇視之為有效: only the round's first card
    opts = bj.options({"first_exposed_card": "valid"})
    assert effect(bj.irregularity("exposed_card", opts, first=True)) == STANDS
    assert effect(bj.irregularity("exposed_card", opts, first=False)) == DEAD_CARD


def test_correctable_dealing_error_keeps_the_round_BJ_5_1_2():
    ruling = bj.irregularity("dealing_error")
    assert effect(ruling) == STANDS and ruling.article == "BJ-5.1.2"


def test_uncorrectable_dealing_error_cancels_every_card_of_the_round_BJ_5_1_2():
    # 倘無法改正，則將該局已派發的紙牌全部銷去
    ruling = bj.irregularity("dealing_error", correctable=False)
    assert effect(ruling) == (True, True, False, True) and "every card" in ruling.note


def test_void_blackjack_round_settles_nothing_BJ_5_1_2():
    nets = bj.resolve("void")
    assert set(nets) == set(bj.BETS) and all(v == 0 for v in nets.values())


def test_wrong_dealer_draw_is_void_and_removed_BJ_6_1():
    # 倘莊家不當地博牌，則該張紙牌作廢並被取出
    for opts in (None, {"wrong_draw_unexposed": "valid"}):
        ruling = bj.irregularity("wrong_draw", opts, exposed=True)
        assert effect(ruling) == DEAD_CARD and ruling.article == "BJ-6.1"
    assert effect(bj.irregularity("wrong_draw", exposed=False)) == DEAD_CARD


def test_unexposed_wrong_draw_may_be_kept_BJ_6_1():
    # 但紙牌並未陽開則可視為有效
    ruling = bj.irregularity("wrong_draw", {"wrong_draw_unexposed": "valid"}, exposed=False)
    assert effect(ruling) == STANDS and "next card" in ruling.note


def test_dealer_drawing_past_hard_17_is_refused_BJ_6_1():
    # the engine itself never takes the wrong draw: a dealer card past a standing 17 is refused
    assert bj.resolve("Ts,7d,8h,Kc|stand")["main"] == 1
    with pytest.raises(RuleError):
        bj.resolve("Ts,7d,8h,Kc,2c|stand")


@pytest.mark.parametrize("call", [
    lambda: bj.irregularity("shuffle_fault"),
    lambda: bj.irregularity("exposed_card", first="yes"),
    lambda: bj.irregularity("dealing_error", correctable=0),
    lambda: bj.irregularity("wrong_draw", exposed=None),
    lambda: bj.irregularity("exposed_card", {"first_exposed_card": "maybe"}),
])
def test_bad_blackjack_irregularity_refused_BJ_5_1_1_BJ_5_1_2_BJ_6_1(call):
    with pytest.raises(RuleError):
        call()


# --- BJ-17.1: three doubling cases, three settings ----------------------------------------------------

SPLIT_DOUBLE = "8s,Td,8h,3c,Tc,Th,9s|split,double,stand"  # 8-8 split, 8+3 doubled, 8+T stands, dealer 19


def test_double_after_split_under_any_BJ_17_1_2():
    assert bj.resolve(SPLIT_DOUBLE, bj.options({"double": "any"}))["main"] == 2 - 1


def test_first_two_doubles_the_first_two_cards_not_after_a_split_BJ_17_1_1():
    opts = bj.options({"double": "first_two"})
    assert bj.resolve("5s,Td,6h,Tc,9s|double", opts)["main"] == 2
    assert bj.resolve("5s,Td,4h,8c,9s|double", opts)["main"] == -2  # any total, not only 11
    with pytest.raises(RuleError, match="not after a split"):
        bj.resolve(SPLIT_DOUBLE, opts)


def test_eleven_doubles_only_an_eleven_BJ_17_1_3():
    opts = bj.options({"double": "eleven"})
    assert bj.resolve(SPLIT_DOUBLE, opts)["main"] == 1  # the split hand's 11 may double
    with pytest.raises(RuleError, match="total 11"):
        bj.resolve("5s,Td,4h,Tc,9s|double", opts)


def test_first_two_double_refunded_against_a_dealer_blackjack_BJ_17_3():
    # dealing=box: the dealer's Blackjack is dealt before the players act
    for rule, main in (("first_two", -1), ("any", -1), ("eleven", -2)):
        opts = bj.options({"double": rule, "dealing": "box", "decks": 1})
        assert bj.resolve("5s,Ad,6h,Kc,9s|double", opts)["main"] == main


def test_first_two_strategy_never_doubles_a_split_hand_BJ_17_1_1():
    values = {rule: Strategy(bj.options({"double": rule})).expectation() for rule in ("any", "first_two")}
    assert values["any"] > values["first_two"]
    book = Strategy(bj.options({"double": "first_two"}))
    assert "double" in book.by_up[6].unsplit_actions(6, False, 2)
    assert "double" not in book.by_up[6].split_actions(6, False, 2)
    assert "double" in Strategy(bj.options({"double": "any"})).by_up[6].split_actions(6, False, 2)


# --- RL-2.2, RL-2.3 -----------------------------------------------------------------------------------

def test_void_spin_settles_no_bet_RL_2_2():
    # 莊荷須停止該局並高聲宣佈該局無效
    nets = roulette.resolve("void")
    assert set(nets) == set(roulette.LAYOUT) and all(v == 0 for v in nets.values())
    assert roulette.resolve(" VOID ") == nets


@pytest.mark.parametrize("previous", [0, 17, 36, "5"])
def test_ball_thrown_again_from_the_previous_winning_number_RL_2_3(previous):
    # 莊荷將珠子放回在上局中獎號碼的間隔內之後重新擲珠
    ruling = roulette.void_spin(previous)
    assert (ruling.void, ruling.bets_returnable) == (True, False)
    assert ruling.article == "RL-2.2, RL-2.3" and "pocket %d" % int(previous) in ruling.note


@pytest.mark.parametrize("previous", [-1, 37, "void", None, 1.0, True])
def test_void_spin_needs_a_previous_pocket_RL_2_3(previous):
    with pytest.raises(RuleError):
        roulette.void_spin(previous)


# --- FPC-1.2 (as SB-1.1) ------------------------------------------------------------------------------

def test_balanced_dice_every_throw_equally_likely_FPC_1_2():
    # 三顆骰子重量相等並完全平衡: the odds count each of the 216 ordered throws once
    edges = fpc.edge()
    for bet in ("single_fish", "color2_red", "total_10", "any_color3"):
        wins = [dice for dice in product(range(1, 7), repeat=3) if fpc.resolve(sicbo.dice_text(dice))[bet] > 0]
        assert edges[bet]["win_probability"] == F(len(wins), 216)


# --- F3-16.3's lead-in, CSP-2.1's eight boxes -----------------------------------------------------

F3_CLASSES = (None,) + fortune3.PROGRESSIVE_CLASSES


@pytest.mark.parametrize("classes", list(product(F3_CLASSES, repeat=3)))
def test_every_player_holding_a_progressive_hand_is_paid_F3_16_3(classes):
    # 所有持有符合累進大獎要件的紙牌組合的博彩者，均可獲得: each such box is paid, none left out
    opts = resolve_options(fortune3.OPTIONS, {"fixed_royal_flush": 1, "fixed_straight_flush": 1})
    fixed = {name: opts["fixed_" + name] for name in fortune3.PROGRESSIVE_CLASSES}
    hits = [(seat, cls) for seat, cls in enumerate(classes, 1) if cls]
    payouts, _ = progressive.settle("fortune3", hits, 1_000_000, 0, fixed)
    assert sorted((seat, cls) for seat, cls, _ in payouts) == hits
    assert all(amount > 0 for _, _, amount in payouts)


def test_seven_player_boxes_and_the_dealers_CSP_2_1():
    # 每張檯證設有八門，當中包括莊荷的在內: boxes 1 to 7 are the players'
    opts = resolve_options(caribbean_stud.OPTIONS, {})
    assert caribbean_stud.BOXES == 8 and caribbean_stud.MAX_ROUND_CARDS == 40
    hits = [(box, caribbean_stud.FLUSH) for box in range(1, 8)]
    out = caribbean_stud.progressive_round(hits, opts)
    assert [(seat, amount) for seat, _, amount in out["payouts"]] == [(b, opts["fixed_flush"]) for b in range(1, 8)]
    for box in (0, 8, 9, -1, True, "3"):
        with pytest.raises(RuleError, match="8 boxes"):
            caribbean_stud.progressive_round([(box, caribbean_stud.FLUSH)], opts)
    with pytest.raises(RuleError, match="one hand"):
        caribbean_stud.progressive_round([(2, caribbean_stud.FLUSH), (2, caribbean_stud.QUADS)], opts)


def test_raise_cap_read_per_box_is_flagged_CSP_9_5_7_to_9_5_9():
    capped = caribbean_stud.flags(resolve_options(caribbean_stud.OPTIONS, {"max_payout": 1_000_000}), edges={})
    assert any("per box" in line and "每局最高額" in line for line in capped)
    assert not any("per box" in line for line in caribbean_stud.flags(resolve_options(caribbean_stud.OPTIONS, {}), edges={}))
