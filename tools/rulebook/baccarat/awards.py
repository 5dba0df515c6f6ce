"""Baccarat jackpot awards per progressive stake (BAC-17.6-17.12), through rulebook.progressive.

The amounts and the sharing rule live in progressive.settle (games baccarat_a/b/c); this module only
turns a coup's class into a bettor's net: every seated progressive bettor of the coup wins the same
class (`jackpot_bettors` of them share it, amounts rounded down to the cent as progressive.py says),
and the stake is not returned on a win (the progressive stake feeds the pool; BAC-17 speaks of the
award alone) unless `jackpot_stake_returned`. Amounts are cents; the concessionaire sets the fixed
ones (BAC-17.13), so they default to 0 and flags() says so.
"""
from fractions import Fraction

from .. import progressive
from .progressive import CLASSES
from ..options import Option

BIG = 10 ** 12  # upper bound of an amount option, cents

# (scheme, class) -> option holding its fixed amount; pool-only classes (BAC-17.6, 17.10) have none
FIXED_OPTION = {(s, cls): "%s_%s_cents" % (s, cls) for s in "abc" for cls in CLASSES[s]
                if progressive.GAMES["baccarat_" + s]["classes"][cls][0] != progressive.POOL}
_ARTICLE = {"a": "BAC-17.8", "b": "BAC-17.9", "c": "BAC-17.12"}
_SPECIAL = {("a", "paradise_straight"): ("BAC-17.7", " (10% of the pool if higher)"),
            ("c", "six_of_a_kind"): ("BAC-17.11", " (c_six_of_a_kind_bp of the pool if higher)"),
            ("c", "five_of_a_kind"): ("BAC-17.12", " (BAC-17 gives this class no award)")}


def _fixed_options():
    """One amount option per class that has a fixed award, in CLASSES order (highest first)."""
    out = []
    for (scheme, cls), name in FIXED_OPTION.items():
        article, note = _SPECIAL.get((scheme, cls), (_ARTICLE[scheme], ""))
        out.append(Option(name, 0, "int", lo=0, hi=BIG, article=article,
                          help="jackpot %s %s: fixed award in cents%s" % (scheme.upper(), cls, note)))
    return out


OPTIONS = [
    Option("jackpot_stake_cents", 10000, "int", lo=1, hi=BIG, article="BAC-13.3",
           help="one progressive stake, in cents (nets are per stake)"),
    Option("jackpot_pool_cents", 0, "int", lo=0, hi=BIG, article="BAC-17.6",
           help="the accumulated jackpot when the coup is settled, in cents"),
    Option("jackpot_bettors", 1, "int", lo=1, hi=7, article="BAC-17.6",
           help="seated progressive bettors in the coup, who share each award equally"),
    Option("jackpot_stake_returned", False, "bool", article="BAC-17",
           help="a winning progressive stake is returned on top of the award"),
    # 55/2004 says nothing of how the pool is kept: the reading of CSP-10.8 (61/2004) is borrowed
    Option("jackpot_fixed_from_pool", True, "bool", article="BAC-17",
           help="fixed awards are paid out of the pool (CSP-10.8's reading) or by the house (false)"),
    Option("jackpot_seed_cents", 0, "int", lo=0, hi=BIG, article="BAC-17.6",
           help="the minimum the pool restarts from once fully paid out (CSP-10.8's reading)"),
    Option("c_six_of_a_kind_bp", 1000, "int", lo=0, hi=10000, article="BAC-17.11",
           help="share of the pool in basis points for C six of a kind (not stated; 10% as A's 17.7)"),
] + _fixed_options()


def award_cents(scheme, cls, opts):
    """What one bettor receives for `cls` in a coup with opts['jackpot_bettors'] bettors (progressive.py)."""
    return award_and_pool(scheme, cls, opts)[0]


def award_and_pool(scheme, cls, opts):
    """(cents one bettor receives, the pool after the coup) for `cls` won by opts['jackpot_bettors'].

    Art. 17 of 55/2004 does not say how the pool is kept; CSP-10.8's reading is taken: the pool falls by
    what it pays, fixed awards included unless jackpot_fixed_from_pool is false, and once fully paid out
    restarts from jackpot_seed_cents."""
    fixed = {cls_: opts[name] for (s, cls_), name in FIXED_OPTION.items() if s == scheme}
    pct = {"six_of_a_kind": opts["c_six_of_a_kind_bp"]} if scheme == "c" else None
    hits = [(seat, cls) for seat in range(1, opts["jackpot_bettors"] + 1)]
    payouts, pool = progressive.settle("baccarat_" + scheme, hits, opts["jackpot_pool_cents"],
                                       opts["jackpot_seed_cents"], fixed, pct,
                                       fixed_from_pool=opts["jackpot_fixed_from_pool"])
    return payouts[0][2], pool


def jackpot_net(scheme, cls, opts):
    """Net per progressive stake of a coup whose jackpot-`scheme` class is `cls` (None: no class)."""
    if cls is None:
        return Fraction(-1)
    net = Fraction(award_cents(scheme, cls, opts), opts["jackpot_stake_cents"])
    return net if opts["jackpot_stake_returned"] else net - 1


def jackpot_flags(opts):
    """Regulation anomalies and unset amounts worth a line in the paytable check."""
    lines = []
    if opts["c_five_of_a_kind_cents"] == 0:
        lines.append("progressive_c five_of_a_kind: a class of BAC-13.1.4.4.C.3 with no award in BAC-17 "
                     "(pays nothing; set c_five_of_a_kind_cents to give it one)")
    lines.append("progressive_c six_of_a_kind: BAC-17.11 does not state the share of the pool; "
                 "c_six_of_a_kind_bp=%d is used" % opts["c_six_of_a_kind_bp"])
    for scheme in "abc":
        unset = [cls for cls in CLASSES[scheme] if (scheme, cls) in FIXED_OPTION
                 and opts[FIXED_OPTION[scheme, cls]] == 0 and (scheme, cls) != ("c", "five_of_a_kind")]
        if unset:
            lines.append("progressive_%s: fixed awards not set (BAC-17.13, the concessionaire's, in cents): %s"
                         % (scheme, ", ".join(unset)))
    if opts["jackpot_pool_cents"] == 0:
        lines.append("jackpot_pool_cents is 0: the pool awards (A royal, B six of a kind, C six of one "
                     "colour) pay nothing")
    return lines
