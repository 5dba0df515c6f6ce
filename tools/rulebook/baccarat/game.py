"""Baccarat (Dispatch 55/2004 as amended): every bet, settlement of a coup, exact odds, shoe simulation.

Outcome text: the coup's cards in dealing order, `P1,B1,P2,B2[,third cards]` (BAC-7.1, then the
player's third card if BAC-9.1 calls for it, then the banker's if BAC-9.3 does), e.g. `9s,Kd,Th,2c`.
Exactly the cards the drawing rules call for must be given. `void`: a coup cancelled under BAC-10
(irregularity()), on which every bet nets 0.

Bets (docs/rulebook.md): player, banker (banker_mode commission / super6 / ez, BAC-18), tie, player_pair,
banker_pair, dragon7, lucky6, progressive_a, progressive_b, progressive_c.
Readings taken (options select the others):
  - BAC-12: on a tie the player and banker bets neither win nor lose (net 0); whether they are then
    cancelled, kept or may be changed for the deciding coup (BAC-12.1/12.2/12.3) is `tie_bets`, which
    changes no coup's net and is reported for the record.
  - BAC-18.2 (super6): a banker win on 6 pays half the stake, two or three cards alike.
  - BAC-18.3 (ez): a banker win with a three-card 7 pushes the banker bet; player and tie bets lose
    (they lose any banker win anyway).
  - Jackpots (Art. 17): see awards.py (amounts in cents, shared among the coup's bettors,
    stake not returned on a win by default; C five_of_a_kind has no award in BAC-17, flagged).
  - BAC-10: a dealing error or a draw against BAC-9 is corrected at once and the coup stands on the
    corrected cards; one that can no longer be corrected cancels the coup and every bet is returned,
    the jackpot bets too (BAC-10 names no carry-over, unlike CSP-11.1).
  - See shoe.py and progressive.py for the burn, demonstration, shuffler, cut-card and
    jackpot-class readings.
"""
import functools
from fractions import Fraction

from .. import analysis, irregularities
from . import awards
from ..analysis import LOSS, PUSH
from .exact import coup_distribution, pair_probability
from .progressive import (CLASSES, class_a_probabilities, class_bc_probabilities, classes_of,
                                   is_pair, progressive_class)
from .rules import Coup, coup_from_cards
from .shoe import deal_round, new_shoe, play_shoe, start_shoe  # noqa: F401 (API)
from ..cards import parse_cards
from ..errors import RuleError
from ..irregularities import VOID, Ruling, is_void  # noqa: F401 (API: a coup cancelled under BAC-10)
from ..options import Option, resolve_options, spec

NAME = "baccarat"
OPTIONS = spec(
    Option("decks", 8, "int", lo=6, hi=12, article="BAC-1.1", help="decks in the shoe"),
    Option("banker_mode", "commission", "choice", choices=("commission", "super6", "ez"),
           article="BAC-18", help="5% commission (18.1), banker 6 pays 1:2 (18.2), push on a 3-card 7 (18.3)"),
    Option("tie_bets", "keep", "choice", choices=("cancel", "keep", "change"), article="BAC-12",
           help="player/banker bets after a tie: cancelled (12.1), kept (12.2) or changeable (12.3)"),
    Option("burn", "first_card", "choice", choices=("decks", "first_card", "fixed"), article="BAC-2.1",
           help="start-of-shoe burn: as many as decks (2.1.1), the first card's value (2.1.2), fixed (2.1.3)"),
    Option("burn_fixed", 8, "int", lo=1, hi=8, article="BAC-2.1.3", help="cards burnt with burn=fixed"),
    Option("burn_picture", "ten", "choice", choices=("ten", "rank"), article="BAC-2.1.2",
           help="a first 10/J/Q/K burns 10 (ten) or 10/11/12/13 (rank)"),
    Option("burn_includes_first", True, "bool", article="BAC-2.1.2",
           help="the first card turned counts as one of the burnt batch"),
    Option("cut_from_end", 14, "int", lo=12, hi=200, article="BAC-2.1",
           help="cut card this many cards from the end (at least about 12)"),
    Option("extra_round_after_cut", False, "bool", article="BAC-3.1",
           help="one more coup after the coup that reaches the cut card"),
    Option("burn_each_round", 0, "int", lo=0, hi=8, article="BAC-8", help="cards burnt before every coup"),
    Option("four_suits", "distinct", "choice", choices=("distinct", "any"), article="BAC-13.1.4.4.A.3",
           help="jackpot A four of a kind needs four different suits (distinct) or not (any)"),
    Option("demo_rounds", 0, "int", lo=0, hi=3, article="BAC-2.2",
           help="demonstration coups dealt after the start-of-shoe burn, before betting; no bet is settled"),
    Option("shuffler", "none", "choice", choices=("none", "automatic"), article="BAC-2.3, BAC-7.2",
           help="automatic: shuffler-dealer, no start-of-shoe burn or cut card, every coup from a full shoe"),
    *awards.OPTIONS,
)

MAIN_BETS = ("player", "banker", "tie", "player_pair", "banker_pair", "dragon7", "lucky6")
JACKPOT_BETS = ("progressive_a", "progressive_b", "progressive_c")
BASIC_BETS = MAIN_BETS[:3]  # BAC-13.1 (.1)-(.3), which a jackpot bet is additional to (BAC-13.3)
BET_IDS = MAIN_BETS + JACKPOT_BETS
_BANKER_PAYS = {"commission": "19:20", "super6": "1:1/1:2", "ez": "1:1"}


def bets(opts=None):
    opts = resolve_options(OPTIONS, opts)
    return {"player": "1:1", "banker": _BANKER_PAYS[opts["banker_mode"]], "tie": "8:1",
            "player_pair": "11:1", "banker_pair": "11:1", "dragon7": "40:1", "lucky6": "12:1/20:1",
            "progressive_a": "jackpot", "progressive_b": "jackpot", "progressive_c": "jackpot"}


def parse_outcome(text, opts=None):
    """Cards in dealing order -> tuple of Cards, checked against the shoe and the drawing rules; 'void'
    (BAC-10) -> VOID."""
    resolve_options(OPTIONS, opts)
    if is_void(text):
        return VOID
    cards = parse_cards(text)  # at most 6 cards: any of them fits a shoe of 6 or more decks
    coup_from_cards(cards)
    return tuple(cards)


def outcome_text(outcome):
    if is_void(outcome):
        return VOID
    return ",".join(str(c) for c in outcome)


def main_nets(player_total, banker_total, banker_cards, mode):
    """Nets of player, banker, tie, dragon7 and lucky6 from the final totals (BAC-11, 17, 18)."""
    if player_total == banker_total:  # BAC-12: player and banker bets stand over, tie pays 8:1
        return {"player": PUSH, "banker": PUSH, "tie": Fraction(8), "dragon7": LOSS, "lucky6": LOSS}
    if player_total > banker_total:
        return {"player": Fraction(1), "banker": LOSS, "tie": LOSS, "dragon7": LOSS, "lucky6": LOSS}
    if mode == "commission":
        banker = Fraction(19, 20)  # BAC-18.1: 5% of the winnings
    elif mode == "super6":
        banker = Fraction(1, 2) if banker_total == 6 else Fraction(1)  # BAC-18.2
    else:
        banker = PUSH if banker_total == 7 and banker_cards == 3 else Fraction(1)  # BAC-18.3
    dragon7 = Fraction(40) if banker_total == 7 and banker_cards == 3 else LOSS  # BAC-13.1.4.2, 17.4
    lucky6 = LOSS
    if banker_total == 6:  # BAC-13.1.4.3, 17.5
        lucky6 = Fraction(12) if banker_cards == 2 else Fraction(20)
    return {"player": LOSS, "banker": banker, "tie": LOSS, "dragon7": dragon7, "lucky6": lucky6}


def settle(coup, opts):
    """{bet_id: net per unit staked} for a played coup."""
    nets = main_nets(coup.player_total, coup.banker_total, len(coup.banker), opts["banker_mode"])
    nets["player_pair"] = Fraction(11) if is_pair(coup.player) else LOSS  # BAC-13.1.4.1, 17.3
    nets["banker_pair"] = Fraction(11) if is_pair(coup.banker) else LOSS
    for scheme, cls in zip("abc", classes_of(coup.player, coup.banker, coup.cards, opts["four_suits"])):
        nets["progressive_" + scheme] = awards.jackpot_net(scheme, cls, opts)
    return {bet: nets[bet] for bet in BET_IDS}


def coup_of(outcome, opts):
    if isinstance(outcome, Coup):
        return outcome
    return coup_from_cards(parse_outcome(outcome, opts))


def resolve(outcome, opts=None):
    """{bet_id: net per unit staked}; a void coup (BAC-10) returns every bet: all nets 0."""
    opts = resolve_options(OPTIONS, opts)
    if is_void(outcome):
        return {bet: PUSH for bet in BET_IDS}
    return settle(coup_of(outcome, opts), opts)


def resolve_box(outcome, stakes, seated=True, opts=None):
    """{bet_id: net} of one seat's stakes {bet_id: amount}: resolve() times each stake.

    BAC-13.3: a jackpot bet is additional (附加投注) to a player, banker or tie bet of BAC-13.1 (.1)-(.3),
    so it needs one of them on the same seat, and only a seated player (座位上的博彩者) may place it.
    Bad stakes raise RuleError and settle nothing.
    """
    opts = resolve_options(OPTIONS, opts)
    for bet, amount in stakes.items():
        if bet not in BET_IDS:
            raise RuleError("unknown baccarat bet %r (bets: %s)" % (bet, ", ".join(BET_IDS)))
        if not isinstance(amount, (int, Fraction)) or isinstance(amount, bool) or amount < 0:
            raise RuleError("stake on %s must be a non-negative amount, got %r" % (bet, amount))
    jackpot = [bet for bet in JACKPOT_BETS if stakes.get(bet)]
    if jackpot and not seated:
        raise RuleError("only a seated player may bet the jackpot (BAC-13.3): %s" % ", ".join(jackpot))
    if jackpot and not any(stakes.get(bet) for bet in BASIC_BETS):
        raise RuleError("a jackpot bet is additional to a player, banker or tie bet (BAC-13.3): %s"
                        % ", ".join(jackpot))
    nets = resolve(outcome, opts)
    return {bet: nets[bet] * amount for bet, amount in stakes.items() if amount}


def jackpot_classes(outcome, opts=None):
    """{'progressive_a': class or None, ...}: the award class each jackpot scheme wins in the coup."""
    opts = resolve_options(OPTIONS, opts)
    if is_void(outcome):
        return {"progressive_" + s: None for s in ("a", "b", "c")}
    coup = coup_of(outcome, opts)
    return {"progressive_" + s: progressive_class(s, coup.player, coup.banker, coup.cards, opts["four_suits"])
            for s in ("a", "b", "c")}


def _binary_figures(pays, p_win, win_net):
    return {"pays": pays, "win_probability": p_win, "house_edge": -(p_win * win_net - (1 - p_win)),
            "distribution": {LOSS: 1 - p_win, win_net: p_win}}


def _jackpot_figures(scheme, class_probs, opts):
    dist = {}
    for cls in CLASSES[scheme]:
        net = awards.jackpot_net(scheme, cls, opts)
        dist[net] = dist.get(net, 0) + class_probs[cls]
    p_class = sum(class_probs.values(), Fraction(0))
    dist[LOSS] = dist.get(LOSS, 0) + 1 - p_class
    dist = {net: p for net, p in sorted(dist.items())}
    return {"pays": "jackpot", "win_probability": p_class,
            "house_edge": -sum((net * p for net, p in dist.items()), Fraction(0)), "distribution": dist,
            "class_probability": {cls: class_probs[cls] for cls in CLASSES[scheme]}}


@functools.lru_cache(maxsize=16)
def exact_tables(decks, four_suits):
    """(coup totals weights, {scheme: {class: probability}}) for a full shoe; cached, never mutate them.

    Everything edge() needs that does not depend on the banker mode or the award amounts.
    """
    totals, values, _ = coup_distribution(decks, with_values=True)
    bc = class_bc_probabilities(values, decks)
    return totals, {"a": class_a_probabilities(decks, four_suits), "b": bc["b"], "c": bc["c"]}


def edge(opts=None):
    """Exact figures off the top of a full shoe of opts['decks'] decks, every bet (see exact.py).

    Jackpot bets: win_probability is the chance of any award class; class_probability gives each one.
    From a dealing shoe these are the odds of the first coup only; with shuffler=automatic (BAC-2.3,
    BAC-7.2) every coup is dealt from a full, freshly shuffled shoe, so they are exactly the odds of
    every coup. demo_rounds settle nothing and change no figure.
    """
    opts = resolve_options(OPTIONS, opts)
    totals, class_probs = exact_tables(opts["decks"], opts["four_suits"])
    mode = opts["banker_mode"]
    pays = bets(opts)
    result = analysis.edges(totals.items(), lambda key: main_nets(key[0], key[1], key[3], mode),
                            {bet: pays[bet] for bet in ("player", "banker", "tie", "dragon7", "lucky6")})
    p_pair = pair_probability(opts["decks"])
    for bet in ("player_pair", "banker_pair"):
        result[bet] = _binary_figures("11:1", p_pair, Fraction(11))
    for scheme in ("a", "b", "c"):
        result["progressive_" + scheme] = _jackpot_figures(scheme, class_probs[scheme], opts)
    return {bet: result[bet] for bet in BET_IDS}


def flags(opts=None, edges=None):
    opts = resolve_options(OPTIONS, opts)
    lines = analysis.flag_lines(edges if edges is not None else edge(opts))
    return lines + awards.jackpot_flags(opts)


def strategy(opts=None):
    return ("baccarat has no player decisions: simulate stakes one unit on every bet in every coup, "
            "dealing whole shoes (burn, demonstration coups, cut card and last coup as the options say; "
            "with shuffler=automatic, every coup from a freshly shuffled full shoe)")


MACHINE_BATCH = 64  # coups per play_shoe call in simulate with the shuffler (any size gives the same odds)


def simulate(rounds, seed, opts=None):
    """Deal real shoes from random.Random(seed) with one unit on every bet each coup; mean net per bet.

    Each shoe is shuffled with a 64-bit seed taken from that generator and dealt to its last coup; with
    shuffler=automatic, batches of coups each from its own freshly shuffled shoe.
    """
    opts = resolve_options(OPTIONS, opts)
    coups = [iter(())]

    def next_coup(rng):
        for coup in coups[0]:
            return coup
        batch = MACHINE_BATCH if opts["shuffler"] == "automatic" else None
        coups[0] = iter(play_shoe(opts, seed=rng.getrandbits(64), coups=batch).rounds)
        return next(coups[0])

    return analysis.simulate(next_coup, lambda coup: settle(coup, opts), list(BET_IDS), rounds, seed)


# ---------------------------------------------------------------------------------------------------
# Irregularities (BAC-10)


def _misdeal(what):
    def ruling(correctable=True):
        irregularities.flag("correctable", correctable, "whether the %s can still be corrected" % what)
        if correctable:
            return Ruling(False, False, False, False, "BAC-10",
                          "corrected at once; the coup stands and is settled on the corrected cards")
        return Ruling(True, True, False, False, "BAC-10",
                      "no longer correctable: the coup is cancelled and every bet returned (resolve 'void')")
    return ruling


RULINGS = {
    "dealing_error": _misdeal("dealing error (BAC-7)"),
    "wrong_draw": _misdeal("draw contrary to BAC-9"),
}
IRREGULARITIES = tuple(RULINGS)


def irregularity(kind, correctable=True):
    """BAC-10: 'dealing_error' (派牌如有錯誤) or 'wrong_draw' (增牌不依規例) -> Ruling (rulebook.irregularities).

    correctable: whether the error can still be put right ("應即時更正"); if not ("至無法更正時"), the
    coup is cancelled ("取消作廢"), and resolve('void') settles it. Reading: a cancelled coup returns every
    bet, the jackpot bets included (progressive_carried is false: BAC-10 names no carry-over).
    """
    return irregularities.rule(RULINGS, kind, correctable=correctable)
