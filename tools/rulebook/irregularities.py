"""Irregularities of the card games (F3-17, CSP-11, BAC-10): the Ruling a procedural fault leads to."""
from collections import namedtuple

from .errors import RuleError

Ruling = namedtuple("Ruling", "void bets_returnable progressive_carried dead_cards article note")
Ruling.__doc__ = """What an irregularity does to the round.

void: the round is cancelled and not settled; bets_returnable: the round's bets go back to the players
(or may be taken back, F3-17.1), except the progressive bets when progressive_carried: those stay on
for the next round; dead_cards: some cards are void (dead) while the round goes on; article: the
articles applied; note: the procedure in words."""


VOID = "void"  # the outcome of a round cancelled by an irregularity: resolve() settles every bet at 0


def is_void(outcome):
    return isinstance(outcome, str) and outcome.strip().lower() == VOID


def rule(rulings, kind, **details):
    """The Ruling for `kind` from a game's table {kind: Ruling, or a function of the details -> Ruling}.

    Details (such as how many cards were exposed) go only to the kinds whose ruling depends on them.
    """
    entry = rulings.get(kind) if isinstance(kind, str) else None
    if entry is None:
        raise RuleError("unknown irregularity %r (known: %s)" % (kind, ", ".join(rulings)))
    return entry if isinstance(entry, Ruling) else entry(**details)


def count(name, value, lo, hi, what):
    """A whole number lo..hi, or RuleError naming what it counts."""
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise RuleError("%s is %s: %d to %d, got %r" % (name, what, lo, hi, value))
    return value


def flag(name, value, what):
    """True or False, or RuleError naming what it says."""
    if not isinstance(value, bool):
        raise RuleError("%s says %s: true or false, got %r" % (name, what, value))
    return value
