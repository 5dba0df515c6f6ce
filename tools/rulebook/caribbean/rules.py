"""Caribbean Stud Poker (Dispatch 61/2004) as both the round (game) and the exact odds (exact) read it.

The options, the raise pay table (CSP-9.5), the dealer's A-K-or-better qualification by hand class
(CSP-9.1/9.3) and the raise decision strategy() plays: written once, below the two modules that use them.
"""
from fractions import Fraction

from ..poker import poker5
from .. import progressive
from ..options import Option, resolve_options, spec
from ..poker.poker5 import (CLASS_CATEGORY, CLASS_VALUES, FLUSH, FULL_HOUSE, HIGH_CARD, PAIR, QUADS, ROYAL_FLUSH,
                     STRAIGHT_FLUSH, class_of_ids)

NAME = "caribbean_stud"
MAX_CENTS = 10 ** 12

OPTIONS = spec(
    Option("royal_pays", 100, "int", lo=50, hi=100, article="CSP-9.5.9",
           help="raise pays N:1 on a royal flush (50..100; a house option needing DICJ permission, CSP-13)"),
    Option("qualify", "ak_or_better", "choice", choices=("ak_or_better", "ace_and_king"), article="CSP-9.3",
           help="dealer qualifies with A-K high or any pair or better (default), or only holding an A and a K"),
    Option("pair_suit", "higher", "choice", choices=poker5.PAIR_SUIT_CHOICES, article="CSP-8.9",
           help="equal pairs/two pairs: the higher (default) or lower suited card of the pair decides"),
    Option("ante", 100, "int", lo=1, hi=10 ** 9, article="CSP-9.5.7",
           help="ante in cents, the stake the max_payout cap is measured against"),
    Option("max_payout", 0, "int", lo=0, hi=MAX_CENTS, article="CSP-9.5.7",
           help="house maximum per round on a quads / straight flush / royal raise payout, cents (0 = none)"),
    Option("progressive_bet", 100, "int", lo=1, hi=10 ** 9, article="CSP-10.1", help="progressive stake, cents"),
    Option("pool", 10_000_000, "int", lo=0, hi=MAX_CENTS, article="CSP-10.2", help="progressive pool, cents"),
    *progressive.poker_fixed_options("CSP-10.2"),
    Option("progressive_stake_returned", False, "bool", article="CSP-10.2",
           help="a winning progressive bet gets its stake back besides the award (CSP-10 is silent)"),
    Option("fold_keeps_progressive", False, "bool", article="CSP-6.7",
           help="a folded hand still wins its progressive award"),
)

RAISE_PAYS = {HIGH_CARD: 1, PAIR: 1, 2: 2, 3: 3, 4: 4, FLUSH: 5, FULL_HOUSE: 7, QUADS: 20,
              STRAIGHT_FLUSH: 50}  # CSP-9.5.1-9.5.8; the royal from the option (CSP-9.5.9)
CAPPED = (QUADS, STRAIGHT_FLUSH, ROYAL_FLUSH)  # CSP-9.5.7-9.5.9
# CSP-9.1/9.3 default reading: A-K high or any pair or better
QUALIFIES_AK_OR_BETTER = tuple(cat >= PAIR or v[1][:2] == (14, 13)
                               for cat, v in zip(CLASS_CATEGORY, CLASS_VALUES))


def with_defaults(opts):
    """`opts` as given, or the defaults of OPTIONS when None."""
    return resolve_options(OPTIONS) if opts is None else opts


def raise_pays(category, opts):
    """Net per unit of raise when the player's hand of `category` beats a qualified dealer."""
    pays = opts["royal_pays"] if category == ROYAL_FLUSH else RAISE_PAYS[category]
    stake = 2 * opts["ante"]  # CSP-6.6
    win = pays * stake
    if opts["max_payout"] and category in CAPPED:
        win = min(win, opts["max_payout"])
    return Fraction(win, stake)


def decide_ids(player_ids, up_id, cls=None):
    """The strategy() decision: True to raise (cls: the player's class if already known)."""
    if cls is None:
        cls = class_of_ids(*player_ids)
    if CLASS_CATEGORY[cls] >= PAIR:
        return True
    ranks = CLASS_VALUES[cls][1]
    if ranks[:2] != (14, 13):
        return False
    up = (up_id >> 2) + 2
    if 2 <= up <= 12 and up in ranks:
        return True
    if up >= 13 and (12 in ranks or 11 in ranks):
        return True
    return up not in ranks and 12 in ranks and up < ranks[3]
