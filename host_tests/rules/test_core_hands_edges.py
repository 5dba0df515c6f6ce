"""Rules core, jackpot hands at their edges (what make mutate's survivors showed untested): every shape of a
baccarat deal that is no coup refused with one line before any class is read (BAC-7.1), and a hit of a game
with no jackpot hands refused even when its cards are a coup (BAC-13.1.4.4)."""
# mp-heap: 32K
from mptest import raises
from tablectl.rules import cards, hands, hits

# distinct cards, so that a card out of its place in the deal is seen
PLAYER = [cards.parse(c) for c in ("2s", "3h", "4c", "5d")]
BANKER = [cards.parse(c) for c in ("6s", "7h", "8c", "9d")]


def dealt_order(player, banker):
    """The cards of two hands in the BAC-7.1 order: P B P B, then the player's third, then the banker's
    (and, for the shapes no coup has, the rest of each hand the same way)."""
    return player[:1] + banker[:1] + player[1:2] + banker[1:2] + player[2:] + banker[2:]


def error(fn, *args):
    """The one-line message of the ValueError fn(*args) raises (any other exception fails the test)."""
    try:
        fn(*args)
    except ValueError as e:
        text = str(e)
        assert text and "\n" not in text, text
        return text
    raise AssertionError("no ValueError from %r" % (args,))


def test_every_deal_shape_that_is_no_coup_is_refused_with_its_reason_BAC_7_1():
    """Hands of 0 to 4 cards each, dealt in order or with a card short or over: a coup (2 or 3 cards a hand,
    4 to 6 dealt, the hands exactly the cards dealt) is classified, every other shape a ValueError that
    says what is wrong, in every scheme (a hand of one card must not reach the order check's indexing)."""
    classified = 0
    for n_player in range(5):
        for n_banker in range(5):
            player, banker = PLAYER[:n_player], BANKER[:n_banker]
            order = dealt_order(player, banker)
            for dealt in (order, order[:-1], order + [cards.parse("As")]):
                shoe_ok = 4 <= len(dealt) <= 6
                hands_ok = 2 <= n_player <= 3 and 2 <= n_banker <= 3
                coup = shoe_ok and hands_ok and len(dealt) == n_player + n_banker
                for scheme in "abc":
                    if coup:
                        got = hands.baccarat_class(scheme, dealt, player, banker)
                        assert got == 0, (scheme, n_player, n_banker)  # distinct ranks: no class
                        classified += 1
                        continue
                    text = error(hands.baccarat_class, scheme, dealt, player, banker)
                    if not shoe_ok:
                        assert text == "%d cards, need 4..6" % len(dealt), text
                    elif not hands_ok:
                        n = n_banker if 2 <= n_player <= 3 else n_player
                        assert text == "%d cards, need 2..3" % n, text
                    else:
                        assert text == "the hands must hold exactly the cards dealt", text
    assert classified == 4 * 3  # (2, 2), (2, 3), (3, 2), (3, 3), each in three schemes


def test_a_card_out_of_its_place_in_the_deal_is_named_by_its_position_BAC_7_1():
    """Each pair of cards of a six-card coup swapped in the deal: refused, naming the first card out of place
    (its position from 1, the card dealt there and the one the hands put there)."""
    player, banker = PLAYER[:3], BANKER[:3]
    order = dealt_order(player, banker)
    assert order == [PLAYER[0], BANKER[0], PLAYER[1], BANKER[1], PLAYER[2], BANKER[2]]
    for i in range(6):
        for j in range(i + 1, 6):
            dealt = list(order)
            dealt[i], dealt[j] = dealt[j], dealt[i]
            text = error(hands.baccarat_class, "b", dealt, player, banker)
            assert text == ("deal order is P B P B, then third cards (BAC-7.1): card %d is %s, not %s"
                            % (i + 1, cards.name(dealt[i]), cards.name(order[i]))), text


def test_a_hit_of_a_game_with_no_jackpot_hands_is_refused_though_its_cards_are_a_coup_BAC_13_1_4_4():
    coup = [cards.parse(c) for c in ("9s", "8h", "Kc", "Kd")]  # naturals, 9 and 8: both stand (BAC-9.2)
    assert hits.coup_hands(coup) == ([coup[0], coup[2]], [coup[1], coup[3]])
    for scheme in "abc":
        assert hits.classify_hit("baccarat_" + scheme, coup) == "none"
    for game in ("baccarat_d", "baccarat_", "baccarat_ab", "baccarat__a", "xbaccarat_a", "baccarata",
                 "Baccarat_a", "a", "", "fan_tan"):
        assert error(hits.classify_hit, game, coup) == "no jackpot hands in %r" % (game,), game


def test_a_coup_of_more_cards_than_any_deal_is_refused_by_its_count_BAC_9():
    """Seven cards or three are refused for their number, before the drawing rules are asked; a coup of 4
    to 6 cards the rules do not deal names the count they take."""
    for n in (0, 1, 3, 7, 8):
        deal = [cards.parse("Ks")] * n
        assert error(hits.coup_hands, deal) == "%d cards, need 4..6" % n
        raises(ValueError, hits.classify_hit, "baccarat_b", deal)
    tens = [cards.parse("Ks")] * 5  # 0 and 0: the player draws a 0, the banker at 0 draws (BAC-9.3.1)
    assert error(hits.coup_hands, tens) == "the drawing rules (BAC-9) take 6 cards, not 5"
