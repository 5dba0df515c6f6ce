"""Baccarat shoe procedures: start-of-shoe burn (BAC-2.1), per-coup burn (BAC-8), cut card and last
coup (BAC-3.1), dealing coups from a seeded or replayed shoe.

Readings taken (each an option of rulebook.baccarat):
  - BAC-2.1.2 burns "as many cards as the first card's face value": an ace is 1, 2-9 their face; a 10
    or picture card burns 10 (burn_picture='ten'; 'rank' burns 10/11/12/13 for 10/J/Q/K).
  - The first card turned is itself one of the burnt batch (burn_includes_first=true, the literal
    "first batch ... its size"); false burns that many more after it (the common Nevada practice).
  - BAC-3.1: the coup during which a card beyond the cut card is dealt (a BAC-8 burn included) is the
    last one (extra_round_after_cut=false) or one more coup follows it (true).
"""
from collections import namedtuple

from .baccarat_rules import play_coup
from .cards import Shoe
from .errors import RuleError

ShoePlay = namedtuple("ShoePlay", "burned rounds cards_left")
ShoePlay.__doc__ = "A played shoe: the BAC-2.1 burn, every coup (with its BAC-8 burn), cards left behind."


def first_card_burn(card, opts):
    """Cards BAC-2.1.2 discards for this first card, the first card itself included."""
    if card.rank == 14:
        face = 1
    elif card.rank <= 9:
        face = card.rank
    elif opts["burn_picture"] == "ten":
        face = 10
    else:
        face = card.rank  # 10, J=11, Q=12, K=13
    return face if opts["burn_includes_first"] else face + 1


def new_shoe(opts, seed=None, cards=None):
    """A shoe of opts['decks'] decks (seeded shuffle, or `cards` replayed) with its cut card placed."""
    if cards is None and seed is None:
        raise RuleError("a shoe needs a seed or an explicit card sequence (so it can be replayed)")
    return Shoe(decks=opts["decks"], seed=seed, cards=cards, cut_from_end=opts["cut_from_end"])


def start_shoe(shoe, opts):
    """BAC-2.1: burn the first batch; returns the burnt cards."""
    how = opts["burn"]
    if how == "decks":  # BAC-2.1.1
        return shoe.burn(opts["decks"])
    if how == "fixed":  # BAC-2.1.3
        return shoe.burn(opts["burn_fixed"])
    first = shoe.draw()  # BAC-2.1.2
    return [first] + shoe.burn(first_card_burn(first, opts) - 1)


def deal_round(shoe, opts):
    """One coup from the shoe, after the house's per-coup burn (BAC-8); ShoeExhausted mid-coup."""
    burned = shoe.burn(opts["burn_each_round"])
    return play_coup(shoe.draw)._replace(burned=tuple(burned))


def play_shoe(opts, seed=None, cards=None, shoe=None):
    """Deal a whole shoe: BAC-2.1 burn, coups until the cut card's last coup (BAC-3.1)."""
    # A coup takes at most 6 cards plus its BAC-8 burn; the coup that crosses the cut card (and the
    # extra one, BAC-3.1) must fit behind it, or the shoe could run out mid-coup.
    need = (6 + opts["burn_each_round"]) * (2 if opts["extra_round_after_cut"] else 1)
    if opts["cut_from_end"] < need:
        raise RuleError("cut card %d cards from the end is too close: %s needs at least %d behind it"
                        % (opts["cut_from_end"], "a last coup plus one more" if opts["extra_round_after_cut"]
                           else "the last coup", need))
    if shoe is None:
        shoe = new_shoe(opts, seed, cards)
    burned = start_shoe(shoe, opts)
    rounds = []
    after_cut = 0
    while True:
        was_reached = shoe.cut_reached
        rounds.append(deal_round(shoe, opts))
        if shoe.cut_reached and not was_reached:
            after_cut = 1
        elif was_reached:
            after_cut += 1
        if after_cut and (after_cut == 2 or not opts["extra_round_after_cut"]):
            break
    return ShoePlay(tuple(burned), rounds, shoe.remaining)
