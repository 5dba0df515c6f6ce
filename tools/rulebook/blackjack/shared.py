"""Blackjack shared boxes (BJ-20, 同門搭注): who decides a box bet by several players, and their shares.

BJ-20.1 makes the house follow one of three procedures whenever two or more players bet on one box
(option `shared_box`); BJ-21.1 makes adopting any of them subject to prior DICJ permission, so the
default is `none`: a box takes one bettor, the only setting a table may run without a permit.

    none            no shared boxes: a box with two or more bettors is refused.
    seated          BJ-20.1.1: the seated player decides for the round.
    nearest_dealer  BJ-20.1.2: at most three bettors on a box (option `shared_box_max_bettors`: the
                    area or room manager may lower it); the seated player, or the bettor nearest the
                    dealer, decides about the cards.
    highest_stake   BJ-20.1.3: the highest bettor decides the whole round, but only a seated player may
                    hold the cards; with equal stakes the seated player decides.

BJ-20.2: under any procedure, players on other boxes must not interfere with a box's hit/stand
decisions; the round engine (round.Round) refuses a decision by anyone but the box's decider.

Interpretations:
- "seated" (座位博彩者) is the player in the box's own seat; a box has one seat, so two seated bettors
  on one box are refused. A box may also have no seated bettor at all (BJ-3.4: all standing players).
- Art. 20 applies from two bettors: a box with one bettor is decided by that bettor under any
  procedure, seated or not.
- BJ-20.1.2 "the seated player, or the bettor nearest the dealer": the seated player first; only a box
  with no seated bettor goes to the one nearest the dealer. Nearness is a number the table supplies
  (`distance`, lower is nearer); equally near bettors are refused, as the text names one.
- The three-bettor cap is stated in BJ-20.1.2 only and binds under `nearest_dealer` only.
- BJ-20.1.3 "equal stakes": any tie for the highest stake goes to the seated player, whether or not
  the seated player's own stake is among the highest (the text's only tie-break names the seated
  player); a tie on a box with no seated bettor is refused.
- The decider takes every decision on the box (hit, stand, double, split, surrender, five-card
  payout, insurance, even money), BJ-20.1.2's "about the cards" included, and every bettor shares the
  box's result pro rata to the stakes: a double or a split commits each bettor's share alike.
"""
from collections import namedtuple
from fractions import Fraction

from ..errors import RuleError

SCHEMES = ("none", "seated", "nearest_dealer", "highest_stake")
MAX_BETTORS = 3     # BJ-20.1.2


class Bettor(namedtuple("Bettor", "who stake seated distance")):
    """One player's bet on a box: who (any label, unique on the box), stake, seated in the box's own
    seat, distance to the dealer (lower is nearer; needed only when BJ-20.1.2 has to compare)."""
    __slots__ = ()

    def __new__(cls, who, stake, seated=False, distance=None):
        return super().__new__(cls, who, stake, seated, distance)


def _number(value):
    return isinstance(value, (int, Fraction)) and not isinstance(value, bool)


def check_bettors(bettors):
    """The bettors as a tuple of Bettor, or RuleError: a label each, positive stakes, one seat."""
    try:
        bettors = tuple(b if isinstance(b, Bettor) else Bettor(*b) for b in bettors)
    except TypeError:
        raise RuleError("a bettor is (who, stake[, seated[, distance]]), got %r" % (bettors,)) from None
    if not bettors:
        raise RuleError("a box needs at least one bettor")
    seen = set()
    for b in bettors:
        try:
            if b.who in seen:
                raise RuleError("bettor %r appears twice on one box" % (b.who,))
            seen.add(b.who)
        except TypeError:
            raise RuleError("a bettor's label must be hashable, got %r" % (b.who,)) from None
        if not _number(b.stake) or b.stake <= 0:
            raise RuleError("bettor %r: the stake must be a positive whole number or fraction, got %r"
                            % (b.who, b.stake))
        if not isinstance(b.seated, bool):
            raise RuleError("bettor %r: seated must be true or false, got %r" % (b.who, b.seated))
        if b.distance is not None and (not _number(b.distance) or b.distance < 0):
            raise RuleError("bettor %r: the distance to the dealer must be a number 0 or more, got %r"
                            % (b.who, b.distance))
    if sum(b.seated for b in bettors) > 1:
        raise RuleError("a box has one seat: %s cannot all be seated in it"
                        % ", ".join(repr(b.who) for b in bettors if b.seated))
    return bettors


def _seated(bettors):
    for i, b in enumerate(bettors):
        if b.seated:
            return i
    return None


def box_decider(bettors, scheme, max_bettors=MAX_BETTORS):
    """Index in `bettors` of the player who decides the box's play this round (BJ-20.1).

    bettors: the box's bettors, each a Bettor(who, stake, seated, distance) or such a tuple.
    scheme: the house's procedure (option shared_box), one of SCHEMES; max_bettors: the cap of
    BJ-20.1.2 (option shared_box_max_bettors, 1-3).
    - One bettor decides his own box under every scheme: Art. 20 speaks of two or more.
    - none: two or more bettors on a box are refused (no procedure adopted, BJ-21.1).
    - seated (BJ-20.1.1): "when two or more players bet on the same box, the seated player decides for
      that round"; a shared box with no seated bettor has no decider and is refused.
    - nearest_dealer (BJ-20.1.2): "at most three players per box (the area or room manager may lower
      this); the seated player, or the bettor nearest the dealer, decides about the cards": more
      bettors than max_bettors are refused; the seated bettor decides, or with none seated the one
      with the smallest distance (a missing distance or a tie for the nearest is refused).
    - highest_stake (BJ-20.1.3): "the highest bettor on the box decides the whole round, but only a
      seated player may hold the cards; with equal stakes the seated player decides": a single highest
      stake decides, seated or not; a tie for the highest goes to the seated bettor, and is refused on
      a box with no seated bettor.
    RuleError for anything else (unknown scheme, bad bettors, two bettors in one seat).
    """
    if scheme not in SCHEMES:
        raise RuleError("unknown shared-box procedure %r (one of %s)" % (scheme, ", ".join(SCHEMES)))
    if isinstance(max_bettors, bool) or not isinstance(max_bettors, int) or not 1 <= max_bettors <= MAX_BETTORS:
        raise RuleError("BJ-20.1.2: at most %d bettors per box, lowered by the manager to no fewer than 1, "
                        "got %r" % (MAX_BETTORS, max_bettors))
    bettors = check_bettors(bettors)
    if len(bettors) == 1:
        return 0
    seated = _seated(bettors)
    if scheme == "none":
        raise RuleError("this table takes one bettor per box: shared boxes need a BJ-20.1 procedure, "
                        "adopted with DICJ permission (BJ-21.1); %d bettors given" % len(bettors))
    if scheme == "seated":
        if seated is None:
            raise RuleError("BJ-20.1.1: the seated player decides a shared box, and none of its %d "
                            "bettors is seated" % len(bettors))
        return seated
    if scheme == "nearest_dealer":
        if len(bettors) > max_bettors:
            raise RuleError("BJ-20.1.2: at most %d bettor(s) per box at this table, got %d"
                            % (max_bettors, len(bettors)))
        if seated is not None:
            return seated
        missing = [b.who for b in bettors if b.distance is None]
        if missing:
            raise RuleError("BJ-20.1.2: no bettor is seated, so the one nearest the dealer decides; "
                            "the distance of %s is not given" % ", ".join(map(repr, missing)))
        nearest = min(b.distance for b in bettors)
        at = [i for i, b in enumerate(bettors) if b.distance == nearest]
        if len(at) > 1:
            raise RuleError("BJ-20.1.2: %s are equally near the dealer and none is seated: the text "
                            "names one decider" % ", ".join(repr(bettors[i].who) for i in at))
        return at[0]
    top = max(b.stake for b in bettors)
    at = [i for i, b in enumerate(bettors) if b.stake == top]
    if len(at) == 1:
        return at[0]
    if seated is None:
        raise RuleError("BJ-20.1.3: %s share the highest stake %s and a tie goes to the seated player, "
                        "but no bettor is seated" % (", ".join(repr(bettors[i].who) for i in at), top))
    return seated


def card_holder(bettors):
    """Index of the bettor who may hold the box's cards, or None for the dealer: only a seated player
    may (BJ-20.1.3), and with only standing players only the dealer may (BJ-3.4)."""
    return _seated(check_bettors(bettors))


def settle_shared(box_net_per_unit, stakes):
    """Each bettor's net: the box's net per unit of original stake times that bettor's stake, exact.

    stakes: {who: stake} or a sequence of stakes; the result has the same keys (or order). The nets
    sum to box_net_per_unit x the total stake, as the box is one bet shared pro rata."""
    if not _number(box_net_per_unit):
        raise RuleError("the box's net per unit must be a whole number or fraction, got %r" % (box_net_per_unit,))
    keyed = isinstance(stakes, dict)
    items = list(stakes.items()) if keyed else list(enumerate(stakes))
    if not items:
        raise RuleError("a shared box needs at least one stake")
    for who, stake in items:
        if not _number(stake) or stake <= 0:
            raise RuleError("stake of %r must be a positive whole number or fraction, got %r" % (who, stake))
    per_unit = Fraction(box_net_per_unit)
    nets = [(who, per_unit * stake) for who, stake in items]
    return dict(nets) if keyed else [net for _, net in nets]
