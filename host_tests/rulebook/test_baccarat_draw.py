"""Baccarat drawing rules (BAC-9) replayed cell by cell against a table transcribed from the regulation."""
import pytest
from hypothesis import given, settings, strategies as st

from rulebook.baccarat.rules import coup_from_cards, card_value, hand_total
from rulebook.cards import parse_cards
from rulebook.errors import RuleError

# Transcribed from 55/2004 Art. 9 (in the article "10" is written for a zero value, BAC-5.1).
PLAYER_DRAWS_ON = {1, 2, 3, 4, 5, 0}  # BAC-9.1
BANKER_DRAWS = {  # banker two-card total -> player third-card values on which the banker draws
    0: set(range(10)), 1: set(range(10)), 2: set(range(10)),  # BAC-9.3.1
    3: {1, 2, 3, 4, 5, 6, 7, 9, 0},  # BAC-9.3.2 (9.4.1: not on 8)
    4: {2, 3, 4, 5, 6, 7},  # BAC-9.3.3 (9.4.2: not on 1, 8, 9, 10)
    5: {4, 5, 6, 7},  # BAC-9.3.4 (9.4.3: not on 1, 2, 3, 8, 9, 10)
    6: {6, 7},  # BAC-9.3.5 (9.4.4: not on 1-5, 8, 9, 10)
    7: set(),  # BAC-9.4.5
}
DRAW_ARTICLE = {0: "BAC-9.3.1", 1: "BAC-9.3.1", 2: "BAC-9.3.1", 3: "BAC-9.3.2", 4: "BAC-9.3.3",
                5: "BAC-9.3.4", 6: "BAC-9.3.5"}
STAND_ARTICLE = {3: "BAC-9.4.1", 4: "BAC-9.4.2", 5: "BAC-9.4.3", 6: "BAC-9.4.4", 7: "BAC-9.4.5"}
BANKER_DRAWS_WHEN_PLAYER_STANDS = {1, 2, 3, 4, 5, 0}  # BAC-9.3.6 (9.4.4: not on 6)

CARD_OF_VALUE = {0: "K", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"}


def two_cards(total, suits):
    """Two cards totalling `total` (the first is a zero card unless total 0 asks for two zeros)."""
    first = "T" if total else "Q"
    return [first + suits[0], CARD_OF_VALUE[total] + suits[1]]


def coup(pt, bt, extra_values):
    p, b = two_cards(pt, "sh"), two_cards(bt, "cd")
    cards = [p[0], b[0], p[1], b[1]] + [CARD_OF_VALUE[v] + "s" for v in extra_values]
    return coup_from_cards(parse_cards(cards))


def test_card_values_BAC_5_1_and_5_2():
    assert [card_value(c) for c in parse_cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks")] == \
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]
    # BAC-5.1: totals of ten or more count only their units
    assert hand_total(parse_cards("9s 9h")) == 8 and hand_total(parse_cards("5s 5h")) == 0
    assert hand_total(parse_cards("Ks Qh Jd")) == 0 and hand_total(parse_cards("7s 8h 9d")) == 4


@pytest.mark.parametrize("pt", range(10))
@pytest.mark.parametrize("bt", [8, 9])
def test_banker_natural_nobody_draws_BAC_9_2(pt, bt):
    c = coup(pt, bt, [])
    assert len(c.cards) == 4 and c.player_rule == "BAC-9.2"
    assert c.banker_rule == ("BAC-9.4.6" if pt >= 8 else "BAC-9.4.5")


@pytest.mark.parametrize("bt", range(8))
@pytest.mark.parametrize("pt", [8, 9])
def test_player_natural_nobody_draws_BAC_9_4_6(pt, bt):
    c = coup(pt, bt, [])
    assert len(c.cards) == 4 and (c.player_rule, c.banker_rule) == ("BAC-9.2", "BAC-9.4.6")
    assert c.winner == "player"


@pytest.mark.parametrize("bt", range(8))
@pytest.mark.parametrize("pt", [6, 7])
def test_player_stands_on_6_7_banker_BAC_9_3_6_or_9_4_4(pt, bt):
    draws = bt in BANKER_DRAWS_WHEN_PLAYER_STANDS
    c = coup(pt, bt, [4] if draws else [])
    assert c.player_rule == "BAC-9.2" and len(c.player) == 2
    assert len(c.banker) == (3 if draws else 2)
    expected = "BAC-9.3.6" if draws else ("BAC-9.4.4" if bt == 6 else "BAC-9.4.5")
    assert c.banker_rule == expected
    if draws:
        assert c.banker[2] == c.cards[4]  # the fifth card goes to the banker


@pytest.mark.parametrize("third", range(10))
@pytest.mark.parametrize("bt", range(8))
def test_banker_total_against_player_third_card_BAC_9_3_and_9_4(bt, third):
    """Every cell of the banker's table: banker total 0-7 x the player's third card value."""
    draws = third in BANKER_DRAWS[bt]
    for pt in sorted(PLAYER_DRAWS_ON):
        extra = [third, 5] if draws else [third]
        c = coup(pt, bt, extra)
        assert c.player_rule == "BAC-9.1" and len(c.player) == 3 and c.player[2] == c.cards[4]
        assert len(c.banker) == (3 if draws else 2)
        assert c.banker_rule == (DRAW_ARTICLE[bt] if draws else STAND_ARTICLE[bt])
        assert c.player_total == (pt + third) % 10
        assert c.banker_total == ((bt + 5) % 10 if draws else bt)


def test_totals_and_winner_of_the_two_hands_BAC_6_BAC_11_and_12():
    # P 3,K + third 4 = 7; B 5,K stands on player's 4? No: banker 5 draws on 4 (BAC-9.3.4) -> 9
    c = coup_from_cards(parse_cards("3s,5h,Kc,Kd,4s,4h"))
    assert (c.player_total, c.banker_total, c.winner) == (7, 9, "banker")
    c = coup_from_cards(parse_cards("9s,8h,Kc,Kd"))
    assert (c.player_total, c.banker_total, c.winner) == (9, 8, "player")
    c = coup_from_cards(parse_cards("4s,4h,3c,3d"))  # 7 v 7, both stand (BAC-9.2, BAC-9.4.5)
    assert (c.player_total, c.banker_total, c.winner, len(c.cards)) == (7, 7, "tie", 4)


def test_too_few_cards_is_an_error_BAC_9():
    with pytest.raises(RuleError, match="too few cards.*card 5"):
        coup_from_cards(parse_cards("2s,3h,Kc,Kd"))  # player 2 must draw (BAC-9.1)
    with pytest.raises(RuleError, match="too few cards.*card 6"):
        coup_from_cards(parse_cards("2s,3h,Kc,Kd,5s"))  # banker 3 draws on a 5 (BAC-9.3.2)
    with pytest.raises(RuleError, match="too few cards.*card 3"):
        coup_from_cards(parse_cards("2s,3h"))


def test_too_many_cards_is_an_error_BAC_9():
    with pytest.raises(RuleError, match="too many cards.*complete after 4"):
        coup_from_cards(parse_cards("9s,3h,Kc,Kd,5s"))  # player natural
    with pytest.raises(RuleError, match="too many cards.*complete after 5"):
        coup_from_cards(parse_cards("2s,3h,Kc,Kd,8s,5d"))  # banker 3 stands on an 8 (BAC-9.4.1)
    with pytest.raises(RuleError, match="too many cards.*complete after 6"):
        coup_from_cards(parse_cards("2s,3h,Kc,Kd,5s,5d,5c"))


def oracle(values):
    """(player card count, banker card count) by the transcribed table, from a coup's card values."""
    pt, bt = (values[0] + values[2]) % 10, (values[1] + values[3]) % 10
    if pt >= 8 or bt >= 8:
        return 2, 2
    if pt in PLAYER_DRAWS_ON:
        return 3, 3 if values[4] in BANKER_DRAWS[bt] else 2
    return 2, 3 if bt in BANKER_DRAWS_WHEN_PLAYER_STANDS else 2


ONE_DECK = parse_cards("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah "
                       "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad")


@settings(max_examples=250, deadline=None)
@given(st.lists(st.sampled_from(ONE_DECK), min_size=6, max_size=6))
def test_random_coups_follow_the_transcribed_table_BAC_9(cards):
    values = [card_value(c) for c in cards]
    n_player, n_banker = oracle(values)
    used = n_player + n_banker
    c = coup_from_cards(cards[:used])
    assert (len(c.player), len(c.banker)) == (n_player, n_banker)
    assert c.player_total == sum(card_value(x) for x in c.player) % 10
    assert c.banker_total == sum(card_value(x) for x in c.banker) % 10
    # the player's third card is the fifth dealt, the banker's is whatever comes next (BAC-9)
    assert list(c.cards) == cards[:used]
