"""Blackjack settlement by replayed card sequences: every decision path, the no-hole-card refunds,
surrender, insurance and even money, the five-card payout, the bonus, the dealer's drawing rule.

Each outcome is "cards in dealing order|decisions" (player 1st, dealer up, player 2nd, then cards as
called for, then the dealer's second card and hits). Expected nets are worked out by hand from the
articles cited in each test name.
"""
from fractions import Fraction as F

import pytest

from rulebook.blackjack import game as bj
from rulebook.errors import RuleError


def net(outcome, **opts):
    return bj.resolve(outcome, bj.options(opts))


def main(outcome, **opts):
    return net(outcome, **opts)["main"]


# ---- basic results ---------------------------------------------------------------------------
def test_higher_total_wins_even_money_BJ_8_BJ_9():
    # player T+Q = 20, dealer 9+K = 19: pictures count 10
    nets = net("Ts,9h,Qd,Kc|stand")
    assert nets["main"] == 1
    assert nets["insurance"] == 0          # no insurance offered against a 9 (BJ-12.1)
    assert nets["any_pair"] == -1          # T and Q are not a pair (BJ-13.1.1)
    assert nets["over13"] == 1 and nets["under13"] == -1
    assert nets["sevens"] == -1


def test_lower_total_loses_and_equal_totals_tie_BJ_9_BJ_11_2():
    assert main("Ts,9h,8d,Kc|stand") == -1     # 18 v 19
    assert main("Ts,9h,9d,Kc|stand") == 0      # 19 v 19


def test_busted_player_loses_even_if_dealer_busts_BJ_7_2():
    # player T+5 = 15 hits K: 25; dealer 6+T = 16 hits 9: 25
    assert main("Ts,6h,5d,Kc,Tc,9d|hit") == -1


def test_blackjack_pays_3_to_2_and_beats_dealer_multicard_21_BJ_10_2_BJ_10_5():
    # player A+K; dealer 5+6 = 11 hits T = 21
    assert main("As,5h,Kd,6c,Tc|") == F(3, 2)


def test_dealer_blackjack_beats_player_multicard_21_BJ_10_6():
    # player 5+6 hits T = 21; dealer A+K
    nets = net("5s,Ah,6d,Tc,Kc|hit")
    assert nets["main"] == -1
    assert nets["insurance"] == 2          # BJ-12.2


def test_two_blackjacks_tie_BJ_11_1():
    assert main("As,Ah,Kd,Qc|") == 0


def test_multicard_21_pays_even_money_and_ties_dealer_21_BJ_10_4():
    assert main("5s,9h,6d,Tc,8c|hit") == 1     # 21 v 17
    assert main("5s,9h,6d,Tc,2c,Tc|hit") == 0  # 21 v 9+2+T = 21


def test_dealer_hits_soft_17_BJ_6_1():
    # dealer A+6 (soft 17) must hit: 3 -> 20 beats the player's 18
    assert main("Ts,Ah,8d,6c,3c|stand") == -1
    # dealer_hits_soft17 off: the dealer stands on A+6 and 18 wins
    assert main("Ts,Ah,8d,6c|stand", dealer_hits_soft17=False) == 1


def test_soft17_scope_six_ace_only_hits_a_two_card_ace_six_BJ_6_6():
    # dealer A,2,4 is a soft 17 of three cards: stands under six_ace, hits under all
    assert main("Ts,Ah,8d,2c,4c|stand", soft17_scope="six_ace") == 1
    assert main("Ts,Ah,8d,2c,4c,2d|stand") == -1      # A,2,4,2 = 19
    assert main("Ts,Ah,8d,6c,2d|stand", soft17_scope="six_ace") == -1   # A+6 still hits: 19


def test_dealer_stands_on_hard_17_BJ_6_1():
    assert main("Ts,Th,8d,7c|stand") == 1


def test_box_dealing_gives_the_dealer_a_face_down_card_first_BJ_5_2_1_2():
    # box: dealer 9 + 8 (hole) = 17, player 5+6 hits T = 21 -> +1
    assert main("5s,9h,6d,8c,Tc|hit", dealing="box", decks=1) == 1
    # shoe: the same cards give the player 5+6+8 = 19 and the dealer 9+T = 19
    assert main("5s,9h,6d,8c,Tc|hit,stand", decks=1) == 0


def test_box_dealing_needs_one_deck_BJ_1_3():
    with pytest.raises(RuleError, match="one deck"):
        net("Ts,9h,Qd,Kc|stand", dealing="box", decks=6)


# ---- doubling --------------------------------------------------------------------------------
def test_double_gets_one_card_and_doubles_the_win_BJ_17_2():
    # 5+6 = 11 doubles, T -> 21; dealer 6+K = 16 hits Q -> bust
    assert main("5s,6h,6d,Tc,Kc,Qd|double") == 2


def test_double_cannot_hit_after_its_card_BJ_6_4_2():
    with pytest.raises(RuleError, match="no player hand"):
        net("5s,6h,4d,2c|double,hit")


def test_double_against_dealer_blackjack_loses_original_stake_only_BJ_17_3():
    # 5+6 doubles, 9 -> 20; dealer A+K: only the original unit is lost
    nets = net("5s,Ah,6d,9c,Kc|double")
    assert nets["main"] == -1
    assert nets["insurance"] == 2


def test_busted_double_against_dealer_blackjack_loses_original_only_BJ_17_3():
    # 6+6 doubles, K -> 22; dealer T+A. Interpretation: the cap covers busted hands too.
    assert main("6s,Th,6d,Kc,Ac|double") == -1


def test_double_on_eleven_only_table_BJ_17_1_3():
    with pytest.raises(RuleError, match="11"):
        net("4s,6h,6d,Tc,Kc,2d|double", double="eleven")
    assert main("5s,6h,6d,Tc,Kc,Qd|double", double="eleven") == 2


def test_double_under_17_1_3_loses_both_stakes_to_dealer_blackjack_BJ_17_3_BJ_10_7():
    assert main("5s,Ah,6d,9c,Kc|double", double="eleven") == -2
    assert main("5s,Ah,6d,9c,Kc|double", double="eleven", dealer_bj_refunds_double=True) == -1


def test_no_double_on_blackjack_or_three_cards_BJ_6_4_1_BJ_17_1():
    with pytest.raises(RuleError):
        net("2s,9h,3d,4c|hit,double")
    with pytest.raises(RuleError):          # a Blackjack needs no decision; the round is over
        net("As,9h,Kd,Tc|double")


# ---- splitting -------------------------------------------------------------------------------
def test_split_plays_two_hands_of_the_original_stake_BJ_16_2():
    # 8,8 v 6: hand 1 8+3 = 11 doubles T = 21; hand 2 8+9 = 17; dealer 6+T = 16 hits 4 = 20
    assert main("8s,6h,8d,3c,Tc,9c,Tc,4d|split,double,stand") == 2 - 1
    # dealer 6+T hits 8 = 24: both win, the doubled one twice
    assert main("8s,6h,8d,3c,Tc,9c,Tc,8d|split,double,stand") == 2 + 1


def test_split_non_aces_draw_any_number_of_cards_until_21_BJ_16_4():
    # 8,8 v 6: hand 1 8+2 hits 2 and 5 = 17, stands; hand 2 8+4 hits K = 22, busted, and takes no more;
    # dealer 6+T hits 9 = 25: hand 1 wins, hand 2 has lost already (BJ-7.2)
    assert main("8s,6h,8d,2c,2d,5c,4h,Kd,Tc,9s|split,hit,hit,stand,hit") == 1 - 1
    with pytest.raises(RuleError):
        net("8s,6h,8d,2c,2d,5c,4h,Kd,Tc,9s|split,hit,hit,stand,hit,hit")


def test_split_against_dealer_blackjack_loses_original_stake_only_BJ_16_6():
    # 8,8 v T: hand 1 8+3 = 11 doubles T = 21, hand 2 8+9 = 17; dealer T+A
    assert main("8s,Th,8d,3c,Tc,9c,Ac|split,double,stand") == -1
    # the same hands against a dealer 17 (T+7): +2 and a push
    assert main("8s,Th,8d,3c,Tc,9c,7c|split,double,stand") == 2


def test_split_box_with_a_bust_against_dealer_blackjack_loses_original_only_BJ_16_6():
    # hand 1 8+5 hits K: bust; hand 2 8+9; dealer T+A (Interpretation: the cap covers the box)
    assert main("8s,Th,8d,5c,Kc,9c,Ac|split,hit,stand") == -1


def test_21_after_split_is_not_blackjack_and_split_aces_get_one_card_BJ_10_6_BJ_16_3():
    # A,A v 9: hand 1 A+K = 21 (paid 1:1), hand 2 A+5 = soft 16 (no more cards); dealer 9+T = 19
    assert main("As,9h,Ad,Kc,5c,Th|split") == 1 - 1


def test_split_aces_cannot_hit_BJ_6_4_3():
    # hand 1 draws another ace: it may be re-split or stood, never hit
    with pytest.raises(RuleError, match="one card"):
        net("As,9h,Ad,Ac|split,hit")


def test_aces_resplit_up_to_the_table_limit_BJ_16_3():
    # A,A split; hand 1 draws A: re-split; hands A+K = 21, A+5 = 16, A+Q = 21; dealer 9+T = 19
    assert main("As,9h,Ad,Ac,Kc,5c,Qd,Th|split,split") == 1 - 1 + 1
    # four aces hands is the default limit (BJ-16.1 "four or more")
    four = "As,9h,Ad,Ac,Ah,Kc,5c,Qd,4c,Th|split,split,split"
    assert main(four) == 1 - 1 + 1 - 1     # A+K, A+5, A+Q, A+4 v 19
    # the fourth hand's A,A cannot be split again, so it stands at once and no hand is left to split
    with pytest.raises(RuleError, match="cannot split"):
        net("As,9h,Ad,Ac,Ah,As,Kc,5c,Qd,Th|split,split,split,split")
    # five hands: A+K, A+5, A+Q, A+4, A+T v 9+8 = 17
    assert main("As,9h,Ad,Ac,Ah,As,Kc,5c,Qd,4c,Th,8c|split,split,split,split", max_split_hands=5) == 1 - 1 + 1 - 1 + 1


def test_other_pairs_resplit_once_BJ_16_5():
    # 8,8 v 6: split, hand 1 draws 8: re-split once; a further 8 cannot be split again
    with pytest.raises(RuleError, match="re-split only 1"):
        net("8s,6h,8d,8c,8h|split,split,split")
    # with two re-splits allowed: four hands 8+8 (no fifth hand), 8+T, 8+T, 8+T v 6+T+9 = bust
    assert main("8s,6h,8d,8c,8h,8d,Tc,Td,Th,Ts,9c|split,split,split,stand,stand,stand,stand",
                resplit_non_aces=2) == 4


def test_declined_resplit_cannot_be_taken_later_BJ_16_5():
    # hand 1 8+8 is hit instead of re-split; hand 2 then draws 8 and may not re-split
    with pytest.raises(RuleError, match="declined"):
        net("8s,6h,8d,8c,2c,8h|split,hit,stand,split")


def test_split_needs_same_rank_BJ_16_1_BJ_13_1_1():
    with pytest.raises(RuleError, match="same rank"):
        net("Js,6h,Qd|split")


# ---- surrender -------------------------------------------------------------------------------
def test_surrender_loses_half_BJ_18_1():
    assert main("Ts,Th,6d,7c|surrender") == F(-1, 2)


def test_surrender_is_final_even_against_dealer_blackjack_BJ_18_2():
    assert main("Ts,Th,6d,Ac|surrender") == F(-1, 2)


def test_no_surrender_against_an_ace_BJ_18_1():
    with pytest.raises(RuleError, match="ace"):
        net("Ts,Ah,6d,7c|surrender")


def test_no_surrender_after_a_hit_or_split_BJ_18_2():
    with pytest.raises(RuleError, match="first decision"):
        net("2s,Th,3d,4c|hit,surrender")
    with pytest.raises(RuleError, match="first decision"):
        net("8s,Th,8d,3c|split,surrender")


def test_house_may_drop_surrender_BJ_21_2():
    with pytest.raises(RuleError, match="does not offer"):
        net("Ts,Th,6d,7c|surrender", surrender=False)


# ---- insurance and even money ----------------------------------------------------------------
def test_insurance_pays_2_to_1_on_dealer_blackjack_BJ_12_2():
    nets = net("Ts,Ah,9d,Kc|insure,stand")
    assert nets["insurance"] == 2 and nets["main"] == -1


def test_insurance_lost_without_dealer_blackjack_BJ_12_3():
    nets = net("Ts,Ah,9d,7c|insure=1/2,stand")
    assert nets["insurance"] == -1 and nets["main"] == 1    # 19 v A+7 = 18 (soft 18 stands)


def test_insurance_from_half_to_all_of_the_stake_BJ_12_1():
    for bad in ("1/3", "2"):
        with pytest.raises(RuleError, match="half to all"):
            net("Ts,Ah,9d,7c|insure=%s,stand" % bad)


def test_insurance_only_against_ace_and_before_play_BJ_12_1():
    with pytest.raises(RuleError, match="ace"):
        net("Ts,9h,9d,7c|insure,stand")
    with pytest.raises(RuleError, match="before the players play"):
        net("2s,Ah,3d,4c,Kc|hit,insure,stand")


def test_even_money_on_blackjack_against_ace_or_ten_BJ_10_3():
    assert main("As,Th,Kd,Ac|even") == 1      # dealer Blackjack: the even money stands
    assert main("As,Ah,Kd,5c,2c|even") == 1   # dealer A+5+2 = 18
    assert main("As,Th,Kd,7c|") == F(3, 2)    # declined: 3:2 against T+7


def test_no_even_money_against_other_cards_or_without_blackjack_BJ_10_3():
    with pytest.raises(RuleError, match="ace, ten or picture"):
        net("As,9h,Kd,7c|even")
    with pytest.raises(RuleError, match="holding a Blackjack"):
        net("Ts,Ah,9d,7c|even,stand")


# ---- five cards ------------------------------------------------------------------------------
def test_five_cards_paid_half_at_once_BJ_19_1():
    # 2,3,2,3,4 = 14 in five cards v T; dealer T+T = 20 would have won
    assert main("2s,Th,3d,2c,3c,4h,Tc|hit,hit,hit,five") == F(1, 2)


def test_five_cards_on_21_may_still_be_claimed_or_stood_BJ_19_1():
    assert main("2s,9h,3d,4c,5c,7h,8c|hit,hit,hit,five") == F(1, 2)
    assert main("2s,9h,3d,4c,5c,7h,8c|hit,hit,hit,stand") == 1     # 21 v 9+8


def test_no_five_card_payout_against_an_ace_or_before_five_cards_BJ_19_2():
    with pytest.raises(RuleError, match="ace"):
        net("2s,Ah,3d,2c,3c,4h|hit,hit,hit,five")
    with pytest.raises(RuleError, match="exactly five"):
        net("2s,Th,3d,2c,3c|hit,hit,five")


# ---- bonus -----------------------------------------------------------------------------------
def test_suited_678_pays_3_to_1_at_once_even_against_ace_BJ_15():
    # 6s+7s hits 8s; the dealer then makes A+K, which does not matter
    assert main("6s,Ah,7s,8s,Kc|hit") == 3
    assert main("6s,Ah,7s,8s,Kc|hit", bonus=False) == -1      # BJ-21.2: house dropped the bonus


def test_unsuited_678_is_an_ordinary_21_BJ_15():
    assert main("6s,9h,7s,8d,8c|hit") == 1     # 21 v 9+8


def test_three_sevens_any_suits_pay_bonus_BJ_15():
    nets = net("7s,9h,7d,7c,8c|hit")
    assert nets["main"] == 3
    assert nets["any_pair"] == 11
    assert nets["sevens"] == 50          # not split: the pair of unsuited 7s only (BJ-13.2.2)


def test_bonus_on_a_doubled_hand_pays_on_the_doubled_stake_BJ_15():
    assert main("6h,5c,7h,8h,Tc,Kd|double") == 6


# ---- side bets -------------------------------------------------------------------------------
def test_any_pair_same_rank_only_BJ_13_1_1_BJ_14_1():
    assert net("Js,9h,Jd,Tc|stand")["any_pair"] == 11
    assert net("Js,9h,Qd,Tc|stand")["any_pair"] == -1


def test_sevens_suits_and_split_third_card_BJ_13_2_BJ_14_2():
    # 7h,7h split, the next card to the box 7h: three suited 7s
    assert net("7h,Tc,7h,7h,Tc,5c,3d,Ts|split,hit,stand")["sevens"] == 5000
    # 7h,7h then 7c: three 7s, not all of one suit
    mixed = "7h,Tc,7h,7c,Tc,5c,3d,Ts|split,hit,stand"
    assert net(mixed)["sevens"] == 500
    # all_different reading: two of one suit, so the suited pair's 150 is the highest combination
    assert net(mixed, sevens_three_mixed="all_different")["sevens"] == 150
    assert net("7h,Tc,7d,7c,Tc,5c,3d,Ts|split,hit,stand", sevens_three_mixed="all_different")["sevens"] == 500
    # not split: the third card does not count
    assert net("7h,Tc,7h,7h,7c|hit")["sevens"] == 150


def test_over_under_13_with_ace_as_1_or_11_BJ_13_3_BJ_14_3():
    nets = net("As,9h,2d,Tc|stand")       # A+2 = 3 (ace 1): under
    assert (nets["over13"], nets["under13"]) == (-1, 1)
    nets = net("As,9h,2d,Tc|stand", over13_ace=11)   # 13: both lose
    assert (nets["over13"], nets["under13"]) == (-1, -1)
    nets = net("6s,9h,7d,Tc|stand")          # 13 exactly: both lose
    assert (nets["over13"], nets["under13"]) == (-1, -1)


# ---- outcome text ----------------------------------------------------------------------------
def test_outcome_round_trips_and_aliases_parse():
    text = "8s,Th,8d,3c,Tc,9c,Ac|split,double,stand"
    outcome = bj.parse_outcome("8s Th 8d 3c Tc 9c Ac | p,d,s")
    assert bj.outcome_text(outcome) == text
    assert bj.resolve(outcome) == bj.resolve(text)


@pytest.mark.parametrize("text, message", [
    ("Ts,9h,Qd|stand", "too few cards"),
    ("Ts,9h,Qd,Kc,2c|stand", "left over"),
    ("Ts,9h,2d,Kc|", "decisions end"),
    ("Ts,9h,Qd,Kc|stand,hit", "no player hand"),
    ("Ts,9h,Qd,Kc|fold", "unknown decision"),
    ("Ts,9h,Xd,Kc|stand", "bad card"),
    ("Ts,Ts,Qd,Kc|stand", "appears 2 times"),
])
def test_impossible_outcomes_are_rejected_with_the_reason(text, message):
    with pytest.raises(RuleError, match=message):
        bj.resolve(text, bj.options({"decks": 1}))


def test_bets_lists_every_bet_with_pays():
    assert bj.bets() == {"main": "1:1/3:2", "insurance": "2:1", "any_pair": "11:1",
                         "sevens": "50:1/150:1/500:1/5000:1", "over13": "1:1", "under13": "1:1"}


def test_module_docstring_examples_resolve():
    # 9+2 doubles K = 21 v 6+8+5 = 19; 8,8 v T: 8+3 doubles T = 21, 8+T = 18 v T+9 = 19
    assert main("9s,6d,2h,Kc,8d,5c|double") == 2
    assert main("8s,Td,8h,3c,Tc,Th,9s|split,double,stand") == 2 - 1
    assert "9s,6d,2h,Kc,8d,5c|double" in bj.__doc__
