"""Baccarat coup mechanics (55/2004): card values, the Art. 9 drawing rules, and playing one coup.

The drawing rules are written once here, as two functions that return the decision together with the
article id of the branch that decided it; the exact analysis builds its look-up tables from them.
"""
from collections import namedtuple

from ..errors import RuleError

PLAYER, BANKER, TIE = "player", "banker", "tie"
NO_THIRD = None  # the player stood: the banker reads BAC-9.3.6 / 9.4.4


def card_value(card):
    """BAC-5: picture cards and 10 count zero, an ace one, 2-9 their face (rank 14 is the ace)."""
    if card.rank == 14:
        return 1
    return card.rank if card.rank <= 9 else 0


def hand_total(cards):
    """BAC-5.1: a total of ten or more drops its tens digit."""
    return sum(card_value(c) for c in cards) % 10


def player_rule(player_total, banker_total):
    """(draws, article) for the player's two-card total against the banker's two-card total."""
    if banker_total >= 8:
        return False, "BAC-9.2"  # banker natural: the player must not draw
    if player_total >= 8:
        return False, "BAC-9.2"  # player natural (BAC-9.2 lists 8, 9 among the standing totals)
    if player_total >= 6:
        return False, "BAC-9.2"
    return True, "BAC-9.1"


def banker_rule(banker_total, player_total, player_third):
    """(draws, article) for the banker; player_third is the VALUE of the player's third card or None."""
    if player_total >= 8:
        return False, "BAC-9.4.6"  # player natural
    if banker_total >= 7:
        return False, "BAC-9.4.5"  # 7, and 8/9 (banker natural)
    if player_third is None:
        if banker_total <= 5:
            return True, "BAC-9.3.6"
        return False, "BAC-9.4.4"  # 6, player did not draw
    t = player_third
    if banker_total <= 2:
        return True, "BAC-9.3.1"
    if banker_total == 3:
        return (False, "BAC-9.4.1") if t == 8 else (True, "BAC-9.3.2")
    if banker_total == 4:
        return (True, "BAC-9.3.3") if 2 <= t <= 7 else (False, "BAC-9.4.2")
    if banker_total == 5:
        return (True, "BAC-9.3.4") if 4 <= t <= 7 else (False, "BAC-9.4.3")
    return (True, "BAC-9.3.5") if t in (6, 7) else (False, "BAC-9.4.4")  # banker 6


Coup = namedtuple(
    "Coup", "cards player banker player_total banker_total winner player_rule banker_rule burned",
    defaults=((),))
Coup.__doc__ = """One coup: cards in dealing order, each hand's cards and total, the winner
('player'/'banker'/'tie', BAC-11/12), the article id that decided each hand's third card, and the
cards burnt before it under BAC-8 (dealt from a shoe only)."""


def play_coup(draw):
    """Deal one coup with draw() -> Card: P, B, P, B (BAC-7.1), then the Art. 9 third cards."""
    cards = [draw() for _ in range(4)]
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    pt, bt = hand_total(player), hand_total(banker)
    p_draws, p_rule = player_rule(pt, bt)
    third_value = None
    if p_draws:
        card = draw()
        cards.append(card)
        player.append(card)
        third_value = card_value(card)
    b_draws, b_rule = banker_rule(bt, pt, third_value)
    if b_draws:
        card = draw()
        cards.append(card)
        banker.append(card)
    pt, bt = hand_total(player), hand_total(banker)
    winner = PLAYER if pt > bt else BANKER if bt > pt else TIE  # BAC-11, BAC-12
    return Coup(tuple(cards), tuple(player), tuple(banker), pt, bt, winner, p_rule, b_rule)


def coup_from_cards(cards):
    """Replay a coup from its cards in dealing order; RuleError if there are too few or too many."""
    cards = list(cards)
    used = [0]

    def draw():
        if used[0] >= len(cards):
            raise RuleError(
                "too few cards: the drawing rules (BAC-9) need card %d of the coup but only %d given"
                % (used[0] + 1, len(cards)))
        used[0] += 1
        return cards[used[0] - 1]

    coup = play_coup(draw)
    if used[0] != len(cards):
        raise RuleError(
            "too many cards: this coup is complete after %d cards under the drawing rules (BAC-9), "
            "%d given (%s)" % (used[0], len(cards), ",".join(str(c) for c in cards[used[0]:]) + " extra"))
    return coup
