"""Cards as small ints for the jackpot hands: parse, print and validate.

A card is an int 0..51: rank = c >> 2 (0 = '2' .. 8 = 'T', 9 = 'J', 10 = 'Q', 11 = 'K', 12 = 'A'; a
higher rank is a higher card), suit = c & 3 (0 spades, 1 hearts, 2 clubs, 3 diamonds: the CSP-4.1 order,
highest first).

    parse('As') -> 51        name(51) -> 'As'
    check(cards, n)          ValueError for a card outside 0..51, a card twice, or len(cards) != n
    check_shoe(cards, lo, hi)  the same without the duplicate rule (baccarat deals from 6-12 decks)
"""
RANKS = "23456789TJQKA"
SUITS = "shcd"
ACE = 12


def parse(text):
    """'As' -> 51; '10h' is accepted for 'Th'; ValueError names the bad text."""
    t = text.strip() if isinstance(text, str) else ""
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) == 2:
        r = RANKS.find(t[0].upper())
        s = SUITS.find(t[1].lower())
        if r >= 0 and s >= 0:
            return (r << 2) | s
    raise ValueError("bad card %r: rank 2-9 T J Q K A then suit s h c d, e.g. As, Td" % (text,))


def name(c):
    check_shoe((c,), 1, 1)
    return RANKS[c >> 2] + SUITS[c & 3]


def check_shoe(cards, lo, hi):
    """Every card valid and lo <= len(cards) <= hi (duplicates allowed: multi-deck shoe)."""
    n = len(cards)
    if n < lo or n > hi:
        raise ValueError("%d cards, need %d..%d" % (n, lo, hi))
    for c in cards:
        # bool is an int subclass; True as a card is a bug in the caller, not the 2 of hearts
        if not isinstance(c, int) or isinstance(c, bool) or c < 0 or c > 51:
            raise ValueError("bad card %r: a card is an int 0..51" % (c,))


def check(cards, n):
    """One-deck hand of exactly n valid, distinct cards, else ValueError saying what is wrong."""
    check_shoe(cards, n, n)
    # pairwise compare: at most 15 comparisons, and no long-int bit set (that allocates on a board)
    for i in range(1, n):
        c = cards[i]
        for j in range(i):
            if cards[j] == c:
                raise ValueError("card %s appears twice in a one-deck game" % name(c))
