"""The class of a jackpot hit's cards, by game, and a baccarat coup's hands by the drawing rules.

    classify_hit(game, cards) -> class id: caribbean_stud the player's five cards (CSP-10.2), fortune3
        the player's three then the two community cards (F3-15.1), baccarat_a/b/c the coup in dealing
        order (BAC-13.1.4.4); ValueError for cards that make no such hand
    coup_hands(cards_in_deal_order) -> (player, banker) by BAC-7.1 and BAC-9; ValueError 'the drawing
        rules (BAC-9) take n cards' for a coup too short or too long
Kept apart from hands so that the whole-core footprint (32 KB) holds what every table needs; the
progressive controller loads it.
"""
from . import cards as _cards
from . import hands


def _value(c):
    """BAC-5: 2..9 their face, 10 and pictures 0, the ace 1 (rank index: 0 = '2' .. 12 = 'A')."""
    r = c >> 2
    return r + 2 if r < 8 else (1 if r == _cards.ACE else 0)


def coup_hands(dealt):
    """(player, banker) of a coup's cards in dealing order, by the drawing rules: P B P B (BAC-7.1), the
    player's third card (BAC-9.1, 9.2), then the banker's (BAC-9.3, 9.4). ValueError unless the coup holds
    exactly the cards the rules call for."""
    _cards.check_shoe(dealt, 4, 6)
    player = [dealt[0], dealt[2]]
    banker = [dealt[1], dealt[3]]
    pt = (_value(dealt[0]) + _value(dealt[2])) % 10
    bt = (_value(dealt[1]) + _value(dealt[3])) % 10
    n = 4
    third = -1
    if pt < 6 and bt < 8:  # BAC-9.1; a natural (8, 9) or 6, 7 stands (BAC-9.2)
        if len(dealt) > n:
            third = _value(dealt[n])
            player.append(dealt[n])
        n += 1
    if pt < 8 and bt < 7:  # no natural, the banker below 7 (BAC-9.4.5, 9.4.6)
        if third < 0:
            draws = n == 4 and bt <= 5  # BAC-9.3.6 / 9.4.4 (n == 5: the player's third is missing)
        else:
            draws = (bt <= 2 or (bt == 3 and third != 8) or (bt == 4 and 2 <= third <= 7)
                     or (bt == 5 and 4 <= third <= 7) or (bt == 6 and 6 <= third <= 7))  # BAC-9.3.1-9.3.5
        if draws:
            if len(dealt) > n:
                banker.append(dealt[n])
            n += 1
    if n != len(dealt):
        raise ValueError("the drawing rules (BAC-9) take %d cards, not %d" % (n, len(dealt)))
    return player, banker


def classify_hit(game, cards):
    """The class id the cards of a jackpot hit make (CSP-10.2, F3-15.1, BAC-13.1.4.4); ValueError for
    cards that are not such a hand (bad, repeated in a one-deck game, too few or many, a coup the drawing
    rules do not deal)."""
    if game == "caribbean_stud":
        return hands.CLASS_IDS[hands.classify5(cards)]
    if game == "fortune3":
        return hands.CLASS_IDS[hands.classify_3_plus_2(cards[:3], cards[3:])]
    scheme = game[-1:]
    if game[:-1] != "baccarat_" or scheme not in hands.BACCARAT_CLASS_IDS:
        raise ValueError("no jackpot hands in %r" % (game,))
    player, banker = coup_hands(cards)
    return hands.BACCARAT_CLASS_IDS[scheme][hands.baccarat_class(scheme, cards, player, banker)]
