"""Cards, decks and shoes for the card games: parse/print, seeded or replayed shoes, cut card.

A card is Card(rank, suit): rank 2..14 (J=11, Q=12, K=13, A=14), suit one of 'shcd'
(spades, hearts, clubs, diamonds). Text form is rank letter + suit: 'As', 'Td', '7c'.
"""
import random
from collections import namedtuple

from .errors import RuleError, ShoeExhausted

RANK_CHARS = "23456789TJQKA"
SUITS = "shcd"  # also Caribbean Stud's tie-break order, highest first (CSP-8)


class Card(namedtuple("Card", "rank suit")):
    __slots__ = ()

    def __str__(self):
        return RANK_CHARS[self.rank - 2] + self.suit

    __repr__ = __str__


def parse_card(text):
    t = text.strip()
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) != 2 or t[0].upper() not in RANK_CHARS or t[1].lower() not in SUITS:
        raise RuleError("bad card %r: rank 2-9 T J Q K A then suit s h c d, e.g. As, Td" % text)
    return Card(RANK_CHARS.index(t[0].upper()) + 2, t[1].lower())


def parse_cards(text):
    """'As,Kd Qh' or an iterable of strings/Cards -> list of Cards."""
    if isinstance(text, str):
        parts = [p for p in text.replace(",", " ").split() if p]
    else:
        parts = list(text)
    return [p if isinstance(p, Card) else parse_card(p) for p in parts]


def deck():
    """One 52-card deck in a fixed order."""
    return [Card(r, s) for s in SUITS for r in range(2, 15)]


def check_single_deck(cards):
    """One-deck games: the same card twice is impossible."""
    seen = set()
    for c in cards:
        if c in seen:
            raise RuleError("card %s appears twice in a one-deck game" % (c,))
        seen.add(c)


class Shoe:
    """A shoe of `decks` decks, shuffled by random.Random(seed), or an explicit card sequence to replay.

    cut_from_end: the cut card sits this many cards from the end (BAC-2.1: at least about 12);
    cut_reached turns true once a card beyond it has been drawn. Running out raises ShoeExhausted.
    """

    def __init__(self, decks=1, seed=None, cards=None, cut_from_end=0):
        if cards is not None:
            self.cards = parse_cards(cards)
            self.decks = decks
        else:
            if not isinstance(decks, int) or decks < 1:
                raise RuleError("a shoe needs at least one deck, got %r" % (decks,))
            self.cards = deck() * decks
            random.Random(seed).shuffle(self.cards)
            self.decks = decks
        if cut_from_end < 0 or cut_from_end > len(self.cards):
            raise RuleError("cut card position %r outside the shoe" % (cut_from_end,))
        self.pos = 0
        self.cut_at = len(self.cards) - cut_from_end if cut_from_end else None

    @property
    def remaining(self):
        return len(self.cards) - self.pos

    @property
    def cut_reached(self):
        return self.cut_at is not None and self.pos > self.cut_at

    def draw(self):
        if self.pos >= len(self.cards):
            raise ShoeExhausted("the shoe is empty after %d cards: the round cannot be completed" % self.pos)
        c = self.cards[self.pos]
        self.pos += 1
        return c

    def draw_n(self, n):
        return [self.draw() for _ in range(n)]

    def burn(self, n):
        """Discard n cards face down (BAC-2.1, BAC-8)."""
        return self.draw_n(n)
