"""Blackjack card values (BJ-8): what a card and a hand count, for the round and the side bets alike."""
ACE = 14
VALUES = (0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1)   # by rank; an ace is 1 here, 11 in hand_total


def card_value(card):
    """BJ-8: an ace counts 1 here (11 is added by hand_total), pictures 10, others their face."""
    return VALUES[card.rank]


def hand_total(cards):
    """(best total, soft): one ace counts 11 when that does not pass 21 (BJ-8, the holder's choice)."""
    hard, ace = 0, False
    for c in cards:
        hard += VALUES[c.rank]
        ace = ace or c.rank == ACE
    if ace and hard <= 11:
        return hard + 10, True
    return hard, False
