"""Blackjack (Dispatch 56/2004 as amended by 42/2007): the rulebook game module (bets, resolve, edge, strategy).

The round engine is round.py, the side bets sidebets.py, the basic strategy
basic_strategy.py, whole shoes (burns, cut card, last round) shoe.py; this module is the
common game interface over them. Figures: side bets and insurance exact for 1-8 decks; the main bet by
simulation of the basic strategy (95% interval), next to the strategy's exact infinite-deck value;
exact for a finite shoe by composition-dependent play in exact.py (no bonus, no five-card).
simulate() deals every round from a full shoe (a continuous shuffler, BJ-2.2.4), so its rounds are
independent and comparable with the exact figures.

Outcome text for `resolve` (one box, one unit on the main bet): the cards in dealing order, then `|`,
then the player's decisions in order, comma-separated:
    CARDS|DECISION,DECISION,...     e.g.  "9s,6d,2h,Kc,8d,5c|double"  "8s,Td,8h,3c,Tc,Th,9s|split,double,stand"
Dealing order (BJ-5.1, 5.2): box's first card, dealer's face-up card, box's second card, [`dealing`=box:
dealer's face-down card], then every card as the decisions call for it (a split hand gets its second
card when it comes into play), then [burn_before_dealer_second: a burnt card (BJ-4.2)] the dealer's
second card (shoe dealing) and hitting cards. The dealer always completes the hand by the drawing
rule. Every card must be used and no more needed.
The outcome `void` is a round whose cards were all cancelled (BJ-5.1.2): every bet nets 0.
Decisions: hit (h), stand (s), double (d), split (p), surrender (r), five (the BJ-19 five-card payout),
even (even money, BJ-10.3), insure or insure=F (F from 1/2 to 1 of the stake, BJ-12.1; before the
first playing decision). A hand with nothing left to decide (bust, 21, a doubled hand's card, a split
ace's card, a Blackjack) needs no decision.
resolve() returns the net per unit for every bet: `main` (all hands of the box, per unit of the
original stake; insurance apart), `insurance` (per unit of an insurance stake; 0 when the face-up card
is not an ace, as no insurance is offered), and each side bet as if staked on this box.

Interpretations (each one an option where a reading can be chosen; default first):
- BJ-6.6 names only A+6 as soft 17: the dealer hits every soft 17 (soft17_scope=all | six_ace).
- BJ-16.5 "re-split once": a pair other than aces is re-split resplit_non_aces (1) times per box, and
  a player who declines a re-split cannot re-split later in that box; aces re-split up to
  max_split_hands (4, BJ-16.1 "four or more").
- BJ-16.6 / 17.3 "loses only the original stake": the cap covers the whole box, busted hands included;
  hands settled at once (surrender, even money, bonus, five-card) stay settled.
- BJ-17.3 refunds doubles under BJ-17.1.1/17.1.2 only: with double=eleven (BJ-17.1.3) a double loses
  both stakes to a dealer Blackjack unless dealer_bj_refunds_double (the BJ-10.7 offer) is set.
- double=eleven allows doubling any two-card 11, split hands included (not split aces); double=first_two
  (BJ-17.1.1 alone) doubles a box's first two cards but not after a split.
- BJ-15 bonus: exactly three cards (suited 6-7-8, or 7-7-7 of any suits), on any hand (split or
  doubled too), paid 3x that hand's stake at once in place of the hand's settlement.
- BJ-18 surrender: only as the first decision on the box's first two cards; it is final, so it keeps
  half the stake even when the dealer then makes a Blackjack behind a ten.
- BJ-19 five cards: exactly five cards; the hand is paid half its stake and leaves play.
- BJ-13: one side bet per box (besides main and insurance); splits and pairs need the same rank.
- BJ-13.1.2: a split hand whose first two cards form another pair wins the any_pair bet again, 11:1
  on the same stake each time (any_pair_split_pairs; false: paid once, on the first two cards).
- BJ-20 shared boxes (shared.py): shared_box=none by default, as BJ-21.1 makes each BJ-20.1
  procedure need DICJ permission; the decider takes every decision and the bettors share the box's
  result pro rata. resolve() and the figures are per box and do not depend on it.
"""
import random
from collections import namedtuple
from functools import partial
from fractions import Fraction

from .. import analysis, irregularities
from .cards import ACE, card_value
from .round import Round, Seat
from .shared import MAX_BETTORS as SHARED_MAX, SCHEMES as SHARED_SCHEMES
from .sidebets import PAYS as SIDE_PAYS, side_edges, side_nets
from .basic_strategy import Strategy, UPS
from ..cards import Shoe, parse_cards
from ..errors import RuleError, ShoeExhausted
from ..irregularities import VOID, Ruling, is_void
from ..options import Option, resolve_options, spec

NAME = "blackjack"

OPTIONS = spec(
    Option("decks", 6, "int", lo=1, hi=8, article="BJ-1.2", help="decks in the shoe"),
    Option("dealing", "shoe", "choice", choices=("shoe", "box"), article="BJ-5.2",
           help="shoe: dealer's second card after the players (no hole card); box: one deck from the "
                "metal box, dealer's face-down card dealt before the players act"),
    Option("cut_from_end", 78, "int", lo=30, hi=415, article="BJ-2.1.1",
           help="the second cut card lies this many cards from the end of a shoe (30 or more)"),
    Option("burn_start", "decks", "choice", choices=("decks", "one", "none"), article="BJ-4.1",
           help="burn at the start of a shoe: as many cards as decks (4.1.1), one (4.1.2), none"),
    Option("burn_each_round", False, "bool", article="BJ-4.2", help="burn one card before each later round"),
    Option("burn_before_dealer_second", False, "bool", article="BJ-4.2",
           help="burn one card before the dealer's second face-up card (shoe dealing)"),
    Option("dealer_hits_soft17", True, "bool", article="BJ-6.1", help="the dealer hits soft 17"),
    Option("soft17_scope", "all", "choice", choices=("all", "six_ace"), article="BJ-6.6",
           help="which soft 17 the dealer hits: every soft 17 (Interpretation) or only a two-card A+6"),
    Option("double", "any", "choice", choices=("any", "first_two", "eleven"), article="BJ-17.1",
           help="any: any first two cards, also after splits except aces (17.1.1 and 17.1.2); first_two: a "
                "box's first two cards, not after a split (17.1.1); eleven: first two cards totalling 11 (17.1.3)"),
    Option("first_exposed_card", "void", "choice", choices=("void", "valid"), article="BJ-5.1.1",
           help="an exposed card is void; the round's first card exposed may be kept (valid)"),
    Option("wrong_draw_unexposed", "void", "choice", choices=("void", "valid"), article="BJ-6.1",
           help="a card the dealer drew wrongly is void and removed; one not exposed may be kept (valid)"),
    Option("dealer_bj_refunds_double", False, "bool", article="BJ-10.7",
           help="a double not covered by BJ-17.3 also loses only the original stake to a dealer Blackjack"),
    Option("max_split_hands", 4, "int", lo=4, hi=8, article="BJ-16.1", help="most hands from one box"),
    Option("resplit_non_aces", 1, "int", lo=0, hi=6, article="BJ-16.5",
           help="re-splits allowed for a pair other than aces (Interpretation of 'once')"),
    Option("surrender", True, "bool", article="BJ-18, BJ-21.2",
           help="give up half the stake before the dealer draws (not against an ace)"),
    Option("bonus", True, "bool", article="BJ-15, BJ-21.2", help="suited 6-7-8 / 7-7-7 pays 3:1 at once"),
    Option("any_pair_split_pairs", True, "bool", article="BJ-13.1.2",
           help="every split hand whose first two cards form another pair wins any_pair again (11:1 each)"),
    Option("over13_ace", 1, "choice", choices=(1, 11), article="BJ-13.3",
           help="value of an ace for over13/under13 (Interpretation: 1)"),
    Option("sevens_three_mixed", "not_all_same", "choice", choices=("not_all_same", "all_different"),
           article="BJ-14.2.3", help="which three 7s pay 500:1 (Interpretation: any not all of one suit)"),
    Option("shared_box", "none", "choice", choices=SHARED_SCHEMES, article="BJ-20.1, BJ-21.1",
           help="several bettors on one box: none (one bettor a box; no DICJ permit needed), seated "
                "(20.1.1: the seated player decides), nearest_dealer (20.1.2: the seated player, else "
                "the bettor nearest the dealer), highest_stake (20.1.3: the highest stake; ties to the "
                "seated player)"),
    Option("shared_box_max_bettors", SHARED_MAX, "int", lo=1, hi=SHARED_MAX, article="BJ-20.1.2",
           help="bettors allowed on one box under shared_box=nearest_dealer (at most 3; the manager "
                "may lower it)"),
)

BETS = ("main", "insurance") + tuple(SIDE_PAYS)
MAIN_PAYS = "1:1/3:2"      # BJ-9, BJ-10.2 (Blackjack 3:2)
INSURANCE_PAYS = "2:1"     # BJ-12.2
ALIASES = {"h": "hit", "s": "stand", "d": "double", "p": "split", "r": "surrender",
           "five": "five", "even": "even", "insure": "insure"}
PLAYING = ("hit", "stand", "double", "split", "surrender", "five")
DEFAULT_MC_ROUNDS = 100000


def options(opts):
    return resolve_options(OPTIONS, opts) if opts is None or set(opts) != set(OPTIONS) else opts


def bets(opts=None):
    pays = {"main": MAIN_PAYS, "insurance": INSURANCE_PAYS}
    pays.update(SIDE_PAYS)
    return pays


# ---- outcomes --------------------------------------------------------------------------------
Outcome = namedtuple("Outcome", "cards decisions")


def _parse_decision(token):
    name, sep, amount = token.strip().lower().partition("=")
    name = ALIASES.get(name, name)
    if name not in PLAYING + ("even", "insure"):
        raise RuleError("unknown decision %r (hit, stand, double, split, surrender, five, even, insure[=F])"
                        % token.strip())
    if sep and name != "insure":
        raise RuleError("only insure takes an amount, got %r" % token.strip())
    if sep:
        try:
            return name, Fraction(amount.strip())
        except (ValueError, ZeroDivisionError):
            raise RuleError("insure=F needs a fraction of the stake such as 1/2, got %r" % amount) from None
    return name, None


def _play(outcome, opts):
    """Replay an outcome; returns the finished Round (RuleError for anything impossible)."""
    counts = {}
    for c in outcome.cards:
        counts[c] = counts.get(c, 0) + 1
        if counts[c] > opts["decks"]:
            raise RuleError("card %s appears %d times in a %d-deck shoe" % (c, counts[c], opts["decks"]))
    shoe = Shoe(decks=opts["decks"], cards=outcome.cards)
    try:
        rnd = Round(opts, shoe, [Seat(1)])
        for name, amount in outcome.decisions:
            if name == "insure":
                rnd.insure(0, amount)
            elif name == "even":
                rnd.even_money(0)
            else:
                getattr(rnd, name)()
        if rnd.current is not None:
            _, hand = rnd.in_play()
            raise RuleError("the decisions end while the hand %s (total %d) awaits one of: %s"
                            % (",".join(map(str, hand.cards)), hand.total, ", ".join(rnd.legal())))
        rnd.dealer_play()
    except ShoeExhausted:
        raise RuleError("the outcome has too few cards: the round needs more than the %d given"
                        % len(shoe.cards)) from None
    if shoe.pos != len(shoe.cards):
        raise RuleError("%d card(s) left over after the round (%s): the round used %d"
                        % (len(shoe.cards) - shoe.pos, ",".join(map(str, shoe.cards[shoe.pos:])), shoe.pos))
    return rnd


def parse_outcome(text, opts=None):
    opts = options(opts)
    if is_void(text):
        return VOID
    if isinstance(text, Outcome):
        outcome = text
    else:
        cards_text, _, decisions_text = str(text).partition("|")
        decisions = tuple(_parse_decision(t) for t in decisions_text.split(",") if t.strip())
        outcome = Outcome(tuple(parse_cards(cards_text)), decisions)
    _play(outcome, opts)
    return outcome


def outcome_text(outcome):
    if is_void(outcome):
        return VOID
    decisions = ["%s=%s" % (n, a) if a is not None else n for n, a in outcome.decisions]
    return ",".join(map(str, outcome.cards)) + "|" + ",".join(decisions)


def round_nets(rnd):
    """{bet: net per unit} of box 0 of a finished one-unit round, every bet of the game."""
    seat = rnd.seats[0]
    nets = {"main": rnd.settle_seat(seat)["main"] / seat.main}
    if rnd.up.rank == ACE:
        nets["insurance"] = Fraction(2) if rnd.dealer_blackjack() else Fraction(-1)
    else:
        nets["insurance"] = Fraction(0)
    nets.update(side_nets(seat.first_two, seat.sevens_third, rnd.opts, seat.split_pairs))
    return nets


def resolve(outcome, opts=None):
    opts = options(opts)
    if not isinstance(outcome, Outcome):
        outcome = parse_outcome(outcome, opts)
    if outcome == VOID:  # BJ-5.1.2
        return dict.fromkeys(BETS, Fraction(0))
    return round_nets(_play(outcome, opts))


# ---- strategy, simulation, edges ------------------------------------------------------------
_STRATEGIES = {}
STRATEGY_NEUTRAL = ("decks", "dealing", "over13_ace", "sevens_three_mixed", "any_pair_split_pairs",
                    "cut_from_end", "burn_start", "burn_each_round", "burn_before_dealer_second",
                    "shared_box", "shared_box_max_bettors", "first_exposed_card", "wrong_draw_unexposed")


def strategy_for(opts):
    """The (cached) basic strategy for the options that change it."""
    key = tuple(sorted((k, v) for k, v in opts.items() if k not in STRATEGY_NEUTRAL))
    if key not in _STRATEGIES:
        _STRATEGIES[key] = Strategy(opts)
    return _STRATEGIES[key]


def strategy(opts=None):
    opts = options(opts)
    book = strategy_for(opts)
    rules = ", ".join("%s=%s" % (k, v) for k, v in opts.items() if k not in STRATEGY_NEUTRAL)
    return "Blackjack 56/2004 basic strategy (infinite deck; %s)\n\n%s\n\nInfinite-deck house edge under " \
           "this strategy (bonus left out): %.4f%%\n" % (rules, book.table(), -100 * float(book.expectation()))


class FreshShoe:
    """A full shoe for every round (a continuous shuffler, BJ-2.2.4): cards drawn at random, no repeats."""

    def __init__(self, decks, rng):
        from ..cards import deck
        self.cards = deck() * decks
        self.rng = rng
        self.pos = 0

    def new_round(self):
        self.pos = 0

    def draw(self):
        i = self.rng.randrange(self.pos, len(self.cards))
        cards = self.cards
        cards[i], cards[self.pos] = cards[self.pos], cards[i]
        self.pos += 1
        return cards[self.pos - 1]


def play_round(opts, shoe, book, cache, boxes=1):
    """One round, `boxes` boxes of one unit each, played by the basic strategy; the finished Round."""
    rnd = Round(opts, shoe, [Seat(1) for _ in range(boxes)])
    up = card_value(rnd.up)
    while rnd.current is not None:
        seat, hand = rnd.in_play()
        legal = tuple(rnd.legal())
        values = [card_value(c) for c in hand.cards]
        key = (up, sum(values), 1 in values, min(len(values), 6),
               len(values) == 2 and hand.cards[0].rank == hand.cards[1].rank, seat.split, legal)
        decision = cache.get(key)
        if decision is None:
            decision = cache[key] = book.choose(up, hand.cards, legal, seat.split, values)
        getattr(rnd, decision)()
    rnd.dealer_play()
    return rnd


def simulate(rounds, seed, opts=None):
    """`rounds` rounds, a fresh shoe each, one unit on every bet; the player follows the basic strategy
    (never insures, never takes even money; splits 7,7 only as the strategy says). Insurance is counted
    over the rounds where it is offered (face-up ace)."""
    opts = options(opts)
    analysis.check_rounds(rounds, seed)
    rng = random.Random(seed)
    shoe = FreshShoe(opts["decks"], rng)
    book, cache = strategy_for(opts), {}
    tally = analysis.Tally(BETS)
    for _ in range(rounds):
        shoe.new_round()
        rnd = play_round(opts, shoe, book, cache)
        nets = round_nets(rnd)
        for bet, net in nets.items():
            if bet == "insurance" and rnd.up.rank != ACE:
                continue
            tally.add(bet, net)
    return tally.result()


def split_table(opts):
    """{pair value (1 = aces): face-up values against which the basic strategy splits that pair}."""
    book = strategy_for(opts)
    return {pair: {up for up in UPS if book.first_two_best(up, 2 * pair, pair == 1, pair)[0] == "split"}
            for pair in range(1, 11)}


def edge(opts=None, rounds=DEFAULT_MC_ROUNDS, seed=2004):
    """Side bets and insurance exact; the main bet by simulation of the basic strategy (95% interval),
    with the exact infinite-deck figure beside it."""
    opts = options(opts)
    out = {}
    sim = simulate(rounds, seed, opts)["main"]
    infinite = -strategy_for(opts).expectation()
    half = 1.96 * sim["stderr"]
    out["main"] = {"pays": MAIN_PAYS, "method": "monte_carlo", "rounds": rounds,
                   "house_edge": -sim["mean_net"], "ci95": [-sim["mean_net"] - half, -sim["mean_net"] + half],
                   "infinite_deck_house_edge": float(infinite),
                   "strategy": "basic (python -m rulebook strategy blackjack)"}
    n = 52 * opts["decks"]
    p_ten = Fraction(16 * opts["decks"], n - 1)   # BJ-12.2: the dealer's next card completes a Blackjack
    out["insurance"] = {"pays": INSURANCE_PAYS, "win_probability": p_ten, "house_edge": 1 - 3 * p_ten,
                        "distribution": {Fraction(-1): 1 - p_ten, Fraction(2): p_ten}}
    out.update(side_edges(opts, split_table(opts)))
    return out


def flags(opts=None, edges=None):
    opts = options(opts)
    edges = edges if edges is not None else edge(opts)
    lines = []
    for bet, fig in edges.items():
        if fig["house_edge"] <= 0:
            line = "%s (pays %s): house edge %s is not positive" % (
                bet, fig["pays"], analysis.percent(fig["house_edge"]))
            if bet == "main":
                book = strategy_for(opts)
                worth = book.expectation() - Strategy(opts, five_card=False).expectation()
                line += " (95%% interval %s to %s); the BJ-19 five-card payout alone is worth %s to the " \
                        "player (infinite deck)" % (analysis.percent(fig["ci95"][0]), analysis.percent(fig["ci95"][1]),
                                                   analysis.percent(worth))
            lines.append(line)
    lines.append("BJ-6.6 defines soft 17 only as a 6 and an ace (soft17_scope=%s)" % opts["soft17_scope"])
    lines.append("the seed marks 56/2004 repealed by 57/2009, whose text is not in the seeds: implemented as it stands")
    if opts["double"] == "eleven" and not opts["dealer_bj_refunds_double"]:
        lines.append("double=eleven: BJ-17.3 does not cover doubles under BJ-17.1.3, so they lose both stakes "
                     "to a dealer Blackjack")
    return lines


# ---------------------------------------------------------------------------------------------------
# Irregularities (BJ-5.1.1, BJ-5.1.2, BJ-6.1)

def _exposed_card(opts, first=False):
    irregularities.flag("first", first, "whether the exposed card is the round's first card")
    if first and opts["first_exposed_card"] == "valid":
        return Ruling(False, False, False, False, "BJ-5.1.1",
                      "the round's first card was exposed: the house keeps it as valid and the round goes on")
    return Ruling(False, False, False, True, "BJ-5.1.1",
                  "the exposed card is void (dead) and the next card is dealt in its place")


def _dealing_error(opts, correctable=True):
    irregularities.flag("correctable", correctable, "whether the dealing error can still be corrected")
    if correctable:
        return Ruling(False, False, False, False, "BJ-5.1.2",
                      "corrected at once so the player gets the card due; the round stands")
    return Ruling(True, True, False, True, "BJ-5.1.2",
                  "not correctable: every card dealt in the round is cancelled, the round is void and every "
                  "bet returned (resolve 'void')")


def _wrong_draw(opts, exposed=True):
    irregularities.flag("exposed", exposed, "whether the wrongly drawn card was exposed")
    if not exposed and opts["wrong_draw_unexposed"] == "valid":
        return Ruling(False, False, False, False, "BJ-6.1",
                      "the card was not exposed: the house keeps it as the next card to deal; the dealer's "
                      "hand stays as it was")
    return Ruling(False, False, False, True, "BJ-6.1",
                  "the card is void and taken out; the dealer's hand stays as it was before it")


RULINGS = {"exposed_card": _exposed_card, "dealing_error": _dealing_error, "wrong_draw": _wrong_draw}
IRREGULARITIES = tuple(RULINGS)


def irregularity(kind, opts=None, **details):
    """What an irregularity does to the round (a Ruling, see rulebook.irregularities).

    'exposed_card' (first=False): BJ-5.1.1 陽開的紙牌視為作廢, the round's first card may be kept
    (option first_exposed_card); 'dealing_error' (correctable=True): BJ-5.1.2, if it cannot be put right
    將該局已派發的紙牌全部銷去, read as a void round whose bets go back; 'wrong_draw' (exposed=True): BJ-6.1
    倘莊家不當地博牌，則該張紙牌作廢並被取出, one not exposed may be kept (option wrong_draw_unexposed).
    """
    opts = options(opts)
    return irregularities.rule({name: partial(make, opts) for name, make in RULINGS.items()}, kind, **details)
