"""Blackjack shoe procedures: start-of-shoe burn (BJ-4.1), burn before each later round (BJ-4.2), the
second cut card and the last round (BJ-2.1.1, 2.2.1), dealt from a seeded or replayed shoe.

A metal-box deck (`dealing`=box) serves one round and is reshuffled (BJ-2.2.3), so it has no shoe to
play through. The players in a played shoe follow the basic strategy (blackjack.play_round).
"""
from collections import namedtuple

from ..cards import Shoe
from ..errors import RuleError

ShoePlay = namedtuple("ShoePlay", "burned rounds cards_left")
ShoePlay.__doc__ = "A played shoe: the BJ-4.1 burn, every finished Round (burns inside), cards left behind."


def new_shoe(opts, seed=None, cards=None):
    """A shoe of opts['decks'] decks (seeded, or `cards` replayed) with its second cut card placed."""
    if opts["dealing"] == "box":
        raise RuleError("BJ-2.2.3: a metal-box deck is reshuffled after every round; there is no shoe to play")
    if cards is None and seed is None:
        raise RuleError("a shoe needs a seed or an explicit card sequence (so it can be replayed)")
    size = 52 * opts["decks"] if cards is None else len(cards)
    if opts["cut_from_end"] >= size:
        raise RuleError("BJ-2.1.1: the cut card at %d from the end lies outside a shoe of %d cards"
                        % (opts["cut_from_end"], size))
    return Shoe(decks=opts["decks"], seed=seed, cards=cards, cut_from_end=opts["cut_from_end"])


def start_shoe(shoe, opts):
    """BJ-4.1: the burn before the first round; returns the burnt cards."""
    how = opts["burn_start"]
    return shoe.burn(opts["decks"] if how == "decks" else 1 if how == "one" else 0)


def play_shoe(opts, seed=None, cards=None, boxes=1):
    """Deal a whole shoe: BJ-4.1 burn, then rounds until the one in which the cut card appears, which
    is the last (BJ-2.2.1); BJ-4.2 burns a card before every round after the first when chosen."""
    from .game import play_round, strategy_for
    shoe = new_shoe(opts, seed, cards)
    burned = start_shoe(shoe, opts)
    book, cache = strategy_for(opts), {}
    rounds = []
    while not shoe.cut_reached:
        round_burn = shoe.burn(1) if rounds and opts["burn_each_round"] else []
        rnd = play_round(opts, shoe, book, cache, boxes)
        rnd.burned[:0] = round_burn
        rounds.append(rnd)
    return ShoePlay(tuple(burned), rounds, shoe.remaining)
