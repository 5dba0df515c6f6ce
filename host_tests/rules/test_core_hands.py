"""Rules core, jackpot hands: 5-card and 3+2 progressive classes, baccarat A/B/C classes, card checks."""
# mp-heap: 36K
from mptest import raises
from tablectl.rules import cards, hands



def P(text):
    """'As Kd 7h' -> the card ints (the firmware parses one card at a time: the keypad's)."""
    return [cards.parse(c) for c in text.split()]


def test_cards_parse_and_name_round_trip():
    assert cards.parse("2s") == 0 and cards.parse("Ad") == 51 and cards.parse("10h") == cards.parse("Th")
    for c in range(52):
        assert cards.parse(cards.name(c)) == c
    for bad in ("1s", "Ax", "", "AsK", None):
        raises(ValueError, cards.parse, bad)


def test_check_refuses_bad_duplicate_and_wrong_count():
    cards.check(P("As Kd 7h"), 3)
    raises(ValueError, cards.check, P("As Kd"), 3)
    raises(ValueError, cards.check, P("As Kd As"), 3)
    raises(ValueError, cards.check, [0, 1, 52], 3)
    raises(ValueError, cards.check, [0, 1, -1], 3)


def test_five_card_classes_CSP_8_CSP_10_2():
    cases = (
        ("As Ks Qs Js Ts", hands.ROYAL), ("Td Ad Jd Kd Qd", hands.ROYAL),
        ("9h Kh Qh Jh Th", hands.STRAIGHT_FLUSH), ("Ac 2c 3c 4c 5c", hands.STRAIGHT_FLUSH),  # CSP-4.3
        ("7s 7h 7c 7d 2s", hands.FOUR), ("Ks Kh Kd 2c 2d", hands.FULL_HOUSE),
        ("As Ks Qs Js 9s", hands.FLUSH), ("Qs Ks As 2s 3s", hands.FLUSH),  # no wrap-around straight
        ("As Kh Qs Js Ts", hands.NONE), ("Ks Kh Kd 2c 3d", hands.NONE), ("2s 2h 3c 3d 4s", hands.NONE),
    )
    for text, cls in cases:
        assert hands.classify5(P(text)) == cls, text
    assert hands.CLASS_IDS[hands.ROYAL] == "royal_flush" and hands.CLASS_IDS[hands.NONE] == "none"
    # CSP-10.2's classes from the lowest award up, as a controller lists them on its keypad
    assert hands.CLASS_IDS[1:] == ("flush", "full_house", "four_of_a_kind", "straight_flush", "royal_flush")
    assert len(hands.CLASS_IDS) == 6 and hands.CLASS_IDS.index("full_house") == hands.FULL_HOUSE


def test_three_plus_two_is_the_five_card_hand_F3_15_1():
    assert hands.classify_3_plus_2(P("As Ks Qs"), P("Js Ts")) == hands.ROYAL
    assert hands.classify_3_plus_2(P("7s 2s 7c"), P("7h 7d")) == hands.FOUR
    assert hands.classify_3_plus_2(P("9d 4d 2d"), P("Kd 5d")) == hands.FLUSH
    raises(ValueError, hands.classify_3_plus_2, P("As Ks Qs"), P("Qs Ts"))  # a card in both
    raises(ValueError, hands.classify_3_plus_2, P("As Ks"), P("Qs Ts Js"))


def coup(scheme, text, n_player, distinct=True):
    dealt = P(text)
    player = [dealt[0], dealt[2]] + dealt[4:5] * (n_player == 3)
    banker = [dealt[1], dealt[3]] + dealt[2 + n_player:]
    return hands.BACCARAT_CLASS_IDS[scheme][hands.baccarat_class(scheme, dealt, player, banker, distinct)]


def test_baccarat_a_classes_BAC_13_1_4_4_A():
    assert coup("a", "Ts Js Qs Ks As", 3) == "royal"
    assert coup("a", "Ts Js Qs Ks Ah", 3) == "paradise_straight"
    assert coup("a", "Ts Js Qs Kh Ah", 3) == "none"
    assert coup("a", "7s 7h 7c 7d", 2) == "four_of_a_kind"
    assert coup("a", "7s 7h 7s 7d", 2) == "three_of_a_kind"  # A.3 needs four different suits
    assert coup("a", "7s 7h 7s 7d", 2, False) == "four_of_a_kind"
    assert coup("a", "5s 9h 5c 9d", 2) == "two_pairs"
    assert coup("a", "5s 5h 5c 9d", 2) == "three_of_a_kind"
    assert coup("a", "5s 2h 5c 9d 3c", 3) == "one_pair"


def test_baccarat_b_c_classes_count_every_card_BAC_13_2():
    assert coup("b", "Ks Qs Js Ts 4c 4d", 3) == "none"  # K, Q, J, 10 differ (BAC-13.2.1)
    assert coup("b", "Ks Kh Kc 4s 4c 4d", 3) == "two_threes"
    assert coup("b", "9s 9h 9c 9d 9s 2c", 3) == "five_of_a_kind"
    assert coup("b", "9s 9h 9c 9d 2s", 2) == "four"
    assert coup("b", "9s 2h 9c 3d 9h", 3) == "three"
    assert coup("c", "Ks Kc Ks Kc Ks Kc", 3) == "six_same_colour"
    assert coup("c", "Ks Kc Ks Kh Ks Kc", 3) == "six_of_a_kind"
    assert coup("b", "Ks Kc Ks Kc Ks Kc", 3) == "six_of_a_kind"


def test_baccarat_bad_deals_raise_ValueError_BAC_7_1():
    raises(ValueError, hands.baccarat_class, "a", P("As Kh 2c 3d"), P("Kh 2c"), P("As 3d"))
    raises(ValueError, hands.baccarat_class, "a", P("As Kh 2c"), P("As 2c"), P("Kh"))
    raises(ValueError, hands.baccarat_class, "d", P("As Kh 2c 3d"), P("As 2c"), P("Kh 3d"))
