"""Baccarat shoe procedures: start-of-shoe burn (BAC-2.1), demonstration coups (BAC-2.2), the automatic
shuffler-dealer (BAC-2.3, BAC-7.2), per-coup burn (BAC-8), cut card and last coup (BAC-3.1), dealing
coups from a seeded or replayed shoe.

Readings taken (each an option of rulebook.baccarat):
  - BAC-2.1.2 burns "as many cards as the first card's face value": an ace is 1, 2-9 their face; a 10
    or picture card burns 10 (burn_picture='ten'; 'rank' burns 10/11/12/13 for 10/J/Q/K).
  - The first card turned is itself one of the burnt batch (burn_includes_first=true, the literal
    "first batch ... its size"); false burns that many more after it (the common Nevada practice).
  - BAC-3.1: the coup during which a card beyond the cut card is dealt (a BAC-8 burn included) is the
    last one (extra_round_after_cut=false) or one more coup follows it (true).
  - BAC-2.2: the demo_rounds demonstration coups are dealt right after the BAC-2.1 burn, each with its
    BAC-8 burn like any coup ("每局開始時"), and settle no bet; with the shuffler they are dealt from
    the machine like every coup (BAC-2.3 dispenses with BAC-2.1 only, not with 2.2).
  - BAC-2.3/7.2 (shuffler=automatic): no BAC-2.1 burn and no cut card; every coup's cards go back into
    the machine, so every coup (and its BAC-8 burn, if the house keeps one) is dealt from a full shoe
    freshly shuffled; a "shoe" is then as many coups as the caller asks for.
"""
import random
from collections import namedtuple

from .rules import play_coup
from ..cards import Shoe
from ..errors import RuleError

ShoePlay = namedtuple("ShoePlay", "burned rounds cards_left demo", defaults=((),))
ShoePlay.__doc__ = ("A played shoe: the BAC-2.1 burn, every betting coup (with its BAC-8 burn), cards left "
                    "behind, and the BAC-2.2 demonstration coups dealt before betting (settled by nobody).")


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


def play_shoe(opts, seed=None, cards=None, shoe=None, coups=None):
    """Deal a whole shoe: BAC-2.1 burn, BAC-2.2 demonstration coups, then the betting coups until the cut
    card's last coup (BAC-3.1). With shuffler=automatic: `coups` betting coups, each from a fresh shoe."""
    if opts["shuffler"] == "automatic":
        return _play_machine(opts, seed, cards, shoe, coups)
    if coups is not None:
        raise RuleError("a shoe is dealt to its cut card (BAC-3.1): coups=%r is only for the automatic "
                        "shuffler (BAC-2.3)" % (coups,))
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
    demo = tuple(deal_round(shoe, opts) for _ in range(opts["demo_rounds"]))
    # Unreachable with a full shoe (at most 14 burnt + 3 x 14 demo cards, at least 112 before the cut),
    # but a replayed short shoe could get there: BAC-3.1 speaks of betting coups only.
    if demo and shoe.cut_reached:
        raise RuleError("the %d demonstration coups (BAC-2.2) reached the cut card: the shoe is too short"
                        % len(demo))
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
    return ShoePlay(tuple(burned), rounds, shoe.remaining, demo)


def _play_machine(opts, seed, cards, shoe, coups):
    """BAC-2.3, BAC-7.2: each coup from the machine's full, freshly shuffled shoe (seeds from `seed`)."""
    if cards is not None or shoe is not None:
        raise RuleError("with the automatic shuffler (BAC-7.2) every coup is dealt from a freshly shuffled "
                        "full shoe: give a seed, not a card sequence or a shoe")
    if seed is None:
        raise RuleError("a shoe needs a seed or an explicit card sequence (so it can be replayed)")
    if not isinstance(coups, int) or isinstance(coups, bool) or coups < 1:
        raise RuleError("with the automatic shuffler (BAC-2.3) there is no cut card: say how many coups to "
                        "deal (coups=1 or more), got %r" % (coups,))
    rng = random.Random(seed)
    machine = None

    def coup():
        nonlocal machine
        machine = Shoe(decks=opts["decks"], seed=rng.getrandbits(64))  # the cards went back: reshuffled
        return deal_round(machine, opts)

    demo = tuple(coup() for _ in range(opts["demo_rounds"]))
    rounds = [coup() for _ in range(coups)]
    return ShoePlay((), rounds, machine.remaining, demo)
