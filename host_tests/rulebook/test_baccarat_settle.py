"""Baccarat settlement of every bet (BAC-11, 12, 13, 17, 18), worked by hand from crafted coups."""
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from rulebook.baccarat import game as baccarat
from rulebook.errors import RuleError

L = F(-1)
MAIN = ("player", "banker", "tie", "player_pair", "banker_pair", "dragon7", "lucky6")


def nets(cards, **opts):
    return baccarat.resolve(cards, opts)


def main(cards, **opts):
    result = nets(cards, **opts)
    return tuple(result[b] for b in MAIN)


def test_every_bet_is_offered_BAC_13_1():
    assert set(baccarat.bets()) == {"player", "banker", "tie", "player_pair", "banker_pair", "dragon7",
                                    "lucky6", "progressive_a", "progressive_b", "progressive_c"}
    assert set(baccarat.resolve("9s,Kd,Th,2c")) == set(baccarat.bets())


def test_pays_text_BAC_17_1_to_17_5():
    pays = baccarat.bets()
    assert (pays["player"], pays["banker"], pays["tie"]) == ("1:1", "19:20", "8:1")
    assert (pays["player_pair"], pays["banker_pair"], pays["dragon7"], pays["lucky6"]) == \
        ("11:1", "11:1", "40:1", "12:1/20:1")
    assert baccarat.bets({"banker_mode": "super6"})["banker"] == "1:1/1:2"
    assert baccarat.bets({"banker_mode": "ez"})["banker"] == "1:1"


def test_player_natural_wins_BAC_11_and_17_1():
    # P 9+T = 9, B K+2 = 2: player natural, nobody draws
    assert main("9s,Kd,Th,2c") == (1, L, L, L, L, L, L)


@pytest.mark.parametrize("mode, banker_net", [("commission", F(19, 20)), ("super6", F(1)), ("ez", F(1))])
def test_banker_natural_wins_BAC_17_1_and_18_1_to_18_3(mode, banker_net):
    # P 2+3 = 5 must not draw against the banker's natural 9 (BAC-9.2)
    assert main("2s,9d,3h,Kc", banker_mode=mode) == (L, banker_net, L, L, L, L, L)


@pytest.mark.parametrize("mode, banker_net", [("commission", F(19, 20)), ("super6", F(1, 2)), ("ez", F(1))])
def test_banker_two_card_six_BAC_18_2_lucky6_12_BAC_17_5(mode, banker_net):
    # P 2+3 = 5 draws a K (stays 5); B 3+3 = 6 stands on a player 10 (BAC-9.4.4); 3h,3d is a banker pair
    assert main("2s,3h,3c,3d,Kc", banker_mode=mode) == (L, banker_net, L, L, F(11), L, F(12))


@pytest.mark.parametrize("mode, banker_net", [("commission", F(19, 20)), ("super6", F(1, 2)), ("ez", F(1))])
def test_banker_three_card_six_lucky6_20_BAC_13_1_4_3(mode, banker_net):
    # P 2+K = 2 draws 2 -> 4; B 3+K = 3 draws on a 2 (BAC-9.3.2) a 3 -> 6
    assert main("2s,3h,Kc,Kd,2d,3c", banker_mode=mode) == (L, banker_net, L, L, L, L, F(20))


@pytest.mark.parametrize("mode, banker_net", [("commission", F(19, 20)), ("super6", F(1)), ("ez", F(0))])
def test_banker_three_card_seven_dragon7_BAC_13_1_4_2_and_17_4_and_ez_push_BAC_18_3(mode, banker_net):
    # P 2+K = 2 draws 3 -> 5; B 3+K = 3 draws on a 3 a 4 -> 7 with three cards
    assert main("2s,3h,Kc,Kd,3d,4c", banker_mode=mode) == (L, banker_net, L, L, L, F(40), L)


def test_banker_two_card_seven_is_no_dragon_and_no_ez_push_BAC_18_3():
    # P 6+K = 6 stands, B 7+K = 7 stands: banker wins 7 v 6 with two cards
    assert main("6s,7h,Kc,Kd", banker_mode="ez") == (L, 1, L, L, L, L, L)
    assert main("6s,7h,Kc,Kd") == (L, F(19, 20), L, L, L, L, L)


@pytest.mark.parametrize("mode", ["commission", "super6", "ez"])
def test_tie_pushes_player_and_banker_pays_8_BAC_12_and_17_2(mode):
    assert main("4s,4h,3c,3d", banker_mode=mode) == (0, 0, 8, L, L, L, L)
    # a tie on 6 is no banker win: lucky6 loses, super6 does not apply
    assert main("6s,6h,Kc,Kd", banker_mode=mode) == (0, 0, 8, L, L, L, L)


def test_three_card_seven_tie_is_no_dragon7_BAC_13_1_4_2():
    # P 2+K = 2 draws 5 -> 7; B 3+K = 3 draws on a 5 a 4 -> 7: tie
    assert main("2s,3h,Kc,Kd,5d,4c", banker_mode="ez") == (0, 0, 8, L, L, L, L)


def test_pairs_same_rank_any_suit_BAC_13_1_4_1():
    assert nets("Js,9d,Jh,Kc")["player_pair"] == 11  # J,J pair
    assert nets("Js,9d,Qh,Kc")["player_pair"] == L  # J,Q no pair
    assert nets("Js,9d,Js,9d")["banker_pair"] == 11  # identical cards from different decks
    # the third card does not make a pair: P 2,K + 2 is not a pair of the first two cards
    assert nets("2s,3h,Kc,Kd,2d,3c")["player_pair"] == L
    assert nets("2s,3h,Kc,Kd,2d,3c")["banker_pair"] == L


def test_tie_bets_option_changes_no_net_BAC_12():
    for choice in ("cancel", "keep", "change"):
        assert main("4s,4h,3c,3d", tie_bets=choice) == (0, 0, 8, L, L, L, L)


def test_bad_outcomes_say_what_is_wrong():
    with pytest.raises(RuleError, match="too few cards"):
        baccarat.resolve("9s,Kd,Th")
    with pytest.raises(RuleError, match="too many cards"):
        baccarat.resolve("9s,Kd,Th,2c,5s")
    with pytest.raises(RuleError, match="bad card"):
        baccarat.resolve("9s,Kd,Th,1c")
    with pytest.raises(RuleError, match="bad card"):
        baccarat.parse_outcome("9s,Kd,Th,2x")


def test_bad_options_are_refused():
    with pytest.raises(RuleError, match="decks"):
        baccarat.resolve("9s,Kd,Th,2c", {"decks": 5})
    with pytest.raises(RuleError, match="decks"):
        baccarat.edge({"decks": 13})
    with pytest.raises(RuleError, match="banker_mode"):
        baccarat.bets({"banker_mode": "nocommission"})
    with pytest.raises(RuleError, match="unknown option"):
        baccarat.resolve("9s,Kd,Th,2c", {"comission": "5%"})
    with pytest.raises(RuleError, match="burn_fixed"):
        baccarat.resolve("9s,Kd,Th,2c", {"burn_fixed": "9"})


def test_outcome_text_round_trips():
    cards = baccarat.parse_outcome("2s 3h kc KD 3d 4c")
    assert baccarat.outcome_text(cards) == "2s,3h,Kc,Kd,3d,4c"
    assert baccarat.resolve(baccarat.outcome_text(cards)) == baccarat.resolve(cards)


VALUE = {r: i + 1 for i, r in enumerate("A23456789")}
ONE_DECK = [r + s for r in "A23456789TJQK" for s in "shcd"]


def expected_main(player, banker, mode):
    """Independent settlement from the final hands (BAC-11, 12, 13.1.4.2/3, 17, 18)."""
    p = sum(VALUE.get(c[0], 0) for c in player) % 10
    b = sum(VALUE.get(c[0], 0) for c in banker) % 10
    if p == b:
        return {"player": 0, "banker": 0, "tie": 8, "dragon7": -1, "lucky6": -1}
    if p > b:
        return {"player": 1, "banker": -1, "tie": -1, "dragon7": -1, "lucky6": -1}
    three = len(banker) == 3
    banker_net = {"commission": F(95, 100), "super6": F(1, 2) if b == 6 else 1,
                  "ez": 0 if (b == 7 and three) else 1}[mode]
    return {"player": -1, "banker": banker_net, "tie": -1,
            "dragon7": 40 if (b == 7 and three) else -1, "lucky6": (20 if three else 12) if b == 6 else -1}


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.sampled_from(ONE_DECK), min_size=6, max_size=6),
       mode=st.sampled_from(["commission", "super6", "ez"]))
def test_random_coups_settle_as_the_articles_say(cards, mode):
    for used in (4, 5, 6):  # exactly one prefix is a complete coup
        try:
            result = baccarat.resolve(",".join(cards[:used]), {"banker_mode": mode})
        except RuleError:
            continue
        coup = baccarat.coup_of(",".join(cards[:used]), {})
        player = [str(c) for c in coup.player]
        banker = [str(c) for c in coup.banker]
        for bet, net in expected_main(player, banker, mode).items():
            assert result[bet] == net, bet
        assert result["player_pair"] == (11 if player[0][0] == player[1][0] else -1)
        assert result["banker_pair"] == (11 if banker[0][0] == banker[1][0] else -1)
        break
    else:
        raise AssertionError("no prefix of %s is a complete coup" % cards)
