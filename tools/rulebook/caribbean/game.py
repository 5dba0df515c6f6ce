"""Caribbean Stud Poker (Dispatch 61/2004): ante/raise settlement, dealer qualification, progressive, odds.

Outcome text (resolve): the player's five cards, then the dealer's five (the fifth is the up card,
CSP-7.1), then the decision `raise` or `fold`, e.g. `As,Ad,7h,5c,2d,Kh,Qc,9d,4s,Ac,raise`.

Net per unit staked, per bet:
  ante         fold -1 (CSP-6.7); dealer not qualified +1 (CSP-9.2); else +1 / -1 as the player's
               hand beats the dealer's or not (CSP-9.4/9.5); there are no pushes (CSP-8 suit tie-breaks).
  raise        per unit of the raise (2 x ante, CSP-6.6): fold 0 (no raise is placed); dealer not
               qualified 0 (returned, CSP-9.2); win: the pay table of CSP-9.5.1-9.5.9, where four of a
               kind, straight flush and royal are capped at `max_payout` cents per round (0 = no cap);
               loss -1.
  progressive  per unit of the progressive bet: the award of CSP-10.2 (progressive.settle with this box
               alone and the pool of option `pool`) divided by the bet, minus the bet, which is
               collected (Interpretation: CSP-10 is silent; the stake feeds the pool and the award is
               the whole payment; `progressive_stake_returned` adds the stake back on a win). A folded hand is
               collected by the dealer with the ante (CSP-6.7) and wins no award unless
               `fold_keeps_progressive` (Interpretation: CSP, unlike F3, keeps no folded hand alive).

Qualification (CSP-9.1/9.3): `qualify=ak_or_better` (default) qualifies A-K high or any
pair or better; `qualify=ace_and_king` is the literal CSP-9.1 reading: the hand holds an A and a K.

Odds (edge): every figure is exact. The progressive's is a function of the pool (progressive_edge).
The ante/raise figures play the optimal raise decision, which sees the dealer's up card (CSP-7.1):
raise with hand P against up card u iff raising is worth more than the -1 of folding, averaged over
the 163,185 dealer completions; exact.py counts them for all 2,598,960 x 47 (P, u) by rank
patterns (its docstring and docs/rulebook.md say how), in about 2.5 s. 'ante' reports the hand's result per unit of ante (ante plus its raise, the
customary house-edge figure); 'raise' the raise's result per unit raised, over the rounds raised;
each also gives strategy()'s exact figure (strategy_house_edge). simulate() plays strategy() by
Monte Carlo, a cross-check of the exact figures.
"""
import random
from fractions import Fraction

from .. import irregularities, progressive
from ..poker import poker5
from ..analysis import check_rounds, mean_stderr
from ..cards import parse_cards
# the rules exact.py reads too, written once below both (OPTIONS: this game's API, as every game has)
from .rules import (NAME, OPTIONS, QUALIFIES_AK_OR_BETTER, RAISE_PAYS, decide_ids, raise_pays,  # noqa: F401
                              with_defaults)
from ..errors import RuleError
from ..irregularities import Ruling
from ..poker.poker5 import (CLASS_CATEGORY, FLUSH, FULL_HOUSE, PAIR, QUADS, ROYAL_FLUSH, STRAIGHT_FLUSH, class_of_ids,
                     distinct_ids, tie_suit_of_ids)

BETS = ("ante", "raise", "progressive")
PROGRESSIVE_CLASSES = {ROYAL_FLUSH: "royal_flush", STRAIGHT_FLUSH: "straight_flush",
                       QUADS: "four_of_a_kind", FULL_HOUSE: "full_house", FLUSH: "flush"}  # CSP-10.2

FOLD, NOT_QUALIFIED, WIN, LOSE = "fold", "dealer_not_qualified", "win", "lose"


def _qualifies(d_cls, dealer_ids, qualify):
    if qualify == "ace_and_king":  # literal CSP-9.1: at least one A and one K
        ranks = {i >> 2 for i in dealer_ids}
        return 12 in ranks and 11 in ranks
    return QUALIFIES_AK_OR_BETTER[d_cls]


def dealer_qualifies_ids(dealer_ids, qualify="ak_or_better"):
    return _qualifies(class_of_ids(*dealer_ids), dealer_ids, qualify)


def dealer_qualifies(cards, qualify="ak_or_better"):
    """CSP-9.1/9.3 for five cards."""
    cards = parse_cards(cards)
    if len(cards) != 5:
        raise RuleError("the dealer holds five cards, got %d" % len(cards))
    return dealer_qualifies_ids(distinct_ids(cards), qualify)


def round_result_ids(player_ids, dealer_ids, raised, opts, p_cls=None):
    """(result, player_category): result one of fold / dealer_not_qualified / win / lose."""
    if p_cls is None:
        p_cls = class_of_ids(*player_ids)
    category = CLASS_CATEGORY[p_cls]
    if not raised:
        return FOLD, category  # CSP-6.7
    d_cls = class_of_ids(*dealer_ids)
    if not _qualifies(d_cls, dealer_ids, opts["qualify"]):
        return NOT_QUALIFIED, category  # CSP-9.2
    if p_cls == d_cls:  # equal ranks: the suit tie-breaks of CSP-8
        p = tie_suit_of_ids(p_cls, player_ids, opts["pair_suit"])
        d = tie_suit_of_ids(d_cls, dealer_ids, opts["pair_suit"])
        return (WIN if p > d else LOSE), category
    return (WIN if p_cls > d_cls else LOSE), category  # CSP-9.4/9.5


def progressive_award(category, opts, pool=None):
    """Cents paid to a lone box holding `category` (CSP-10.2) with the pool at `pool`."""
    cls = PROGRESSIVE_CLASSES.get(category)
    if cls is None:
        return 0
    fixed = {c: opts["fixed_" + c] for c in PROGRESSIVE_CLASSES.values()}
    payouts, _ = progressive.settle(NAME, [(1, cls)], opts["pool"] if pool is None else pool, 0, fixed)
    return payouts[0][2]


BOXES = 8  # CSP-2.1 每張檯證設有八門，當中包括莊荷的在內: seven players' boxes and the dealer's
PLAYER_BOXES = BOXES - 1


def progressive_round(hits, opts, pool=None):
    """One round's progressive payouts (progressive.settle_detail) for hits [(box, category)], boxes
    numbered 1 to 7 from the dealer's left (CSP-2.1, CSP-10.4); categories without an award are left out."""
    boxes = [box for box, _ in hits]
    for box in boxes:
        if not isinstance(box, int) or isinstance(box, bool) or not 1 <= box <= PLAYER_BOXES:
            raise RuleError("a layout has %d boxes, the dealer's included (CSP-2.1): player boxes are 1 to %d, "
                            "got %r" % (BOXES, PLAYER_BOXES, box))
    if len(set(boxes)) != len(boxes):
        raise RuleError("a box holds one hand a round (CSP-2.1): box given twice in %r" % (hits,))
    fixed = {c: opts["fixed_" + c] for c in PROGRESSIVE_CLASSES.values()}
    won = [(box, PROGRESSIVE_CLASSES[cat]) for box, cat in hits if cat in PROGRESSIVE_CLASSES]
    return progressive.settle_detail(NAME, won, opts["pool"] if pool is None else pool, 0, fixed)


def _nets(result, category, opts):
    ante = {FOLD: -1, NOT_QUALIFIED: 1, WIN: 1, LOSE: -1}[result]
    raise_net = {FOLD: 0, NOT_QUALIFIED: 0, LOSE: -1}.get(result)
    if raise_net is None:
        raise_net = raise_pays(category, opts)
    keeps = result != FOLD or opts["fold_keeps_progressive"]
    award = progressive_award(category, opts) if keeps else 0
    stake_back = 1 if award and opts["progressive_stake_returned"] else 0
    return {"ante": Fraction(ante), "raise": Fraction(raise_net),
            "progressive": Fraction(award, opts["progressive_bet"]) - 1 + stake_back}


def bets(opts=None):
    """{bet: pays}; the progressive's amounts are cents for a bet of progressive_bet cents."""
    opts = with_defaults(opts)
    raise_tiers = [RAISE_PAYS[c] for c in range(STRAIGHT_FLUSH + 1) if c != PAIR] + [opts["royal_pays"]]
    fixed = ["%s %d" % (c, opts["fixed_" + c]) for c in ("flush", "full_house", "four_of_a_kind")]
    return {
        "ante": "1:1",
        "raise": "/".join("%d:1" % p for p in raise_tiers),
        "progressive": "/".join(fixed + ["straight_flush max(%d, 10%% of pool)" % opts["fixed_straight_flush"],
                                         "royal_flush max(%d, 100%% of pool)" % opts["fixed_royal_flush"]])
        + " cents per bet of %d" % opts["progressive_bet"],
    }


def parse_outcome(text, opts=None):
    """(player five, dealer five, 'raise'|'fold') from 'As,Kd,...,raise' (see the module docstring)."""
    tokens = [t for t in str(text).replace(",", " ").split() if t]
    decisions = [t.lower() for t in tokens if t.lower() in ("raise", "fold")]
    cards = parse_cards([t for t in tokens if t.lower() not in ("raise", "fold")])
    if len(cards) != 10:
        raise RuleError("Caribbean Stud needs the player's 5 cards then the dealer's 5, got %d cards" % len(cards))
    if len(decisions) != 1:
        raise RuleError("give exactly one decision, raise or fold, after the cards (got %d)" % len(decisions))
    distinct_ids(cards)  # CSP-1.1: one deck
    return tuple(cards[:5]), tuple(cards[5:]), decisions[0]


def outcome_text(outcome):
    player, dealer, decision = outcome
    return ",".join(str(c) for c in list(player) + list(dealer)) + "," + decision


def resolve(outcome, opts=None):
    """{bet: net per unit staked} for every bet (module docstring)."""
    opts = with_defaults(opts)
    player, dealer, decision = outcome
    if decision not in ("raise", "fold"):
        raise RuleError("decision must be raise or fold, got %r" % (decision,))
    if len(player) != 5 or len(dealer) != 5:
        raise RuleError("Caribbean Stud needs five cards each for the player and the dealer")
    ids = distinct_ids(list(player) + list(dealer))
    p_ids, d_ids = ids[:5], ids[5:]
    result, category = round_result_ids(p_ids, d_ids, decision == "raise", opts)
    return _nets(result, category, opts)


def decide(player_cards, dealer_up_card):
    """'raise' or 'fold' for five player cards and the dealer's up card, per strategy()."""
    cards = parse_cards(player_cards) + parse_cards([dealer_up_card] if not isinstance(dealer_up_card, (list, tuple))
                                                      else dealer_up_card)
    if len(cards) != 6:
        raise RuleError("decide needs the player's 5 cards and the dealer's up card")
    ids = distinct_ids(cards)
    return "raise" if decide_ids(ids[:5], ids[5]) else "fold"


def strategy(opts=None):
    return ("Caribbean Stud raise strategy (the published near-optimal strategy, wizardofodds.com, derived "
            "for the common rules). Exactly, with the default options it gives up 29179/12876763900 of the "
            "ante (0.00023%) to the optimal decision per hand and up card: house edge 5.22433% against "
            "5.22411% (caribbean_exact.ante_raise_edge):\n"
            "1. Raise with a pair or better.\n"
            "2. Fold with less than A-K high.\n"
            "3. With A-K high raise if (a) the dealer's up card is 2..Q and matches one of your ranks, or\n"
            "   (b) the up card is an A or K and you hold a Q or a J, or (c) the up card matches none of\n"
            "   your ranks, you hold a Q and the up card is below your fourth-highest card. Else fold.")


def _play(rounds, seed, opts):
    """Sums over `rounds` rounds: (sum, sum of squares) of the hand per ante, of the raise per raise,
    of the progressive; number raised."""
    check_rounds(rounds, seed)
    rng = random.Random(seed)
    deck = list(range(52))
    cache = {}
    hand_s = hand_q = raise_s = raise_q = prog_s = prog_q = 0.0
    raised_n = 0
    for _ in range(rounds):
        cards = rng.sample(deck, 10)
        p_ids, d_ids = cards[:5], cards[5:]
        p_cls = class_of_ids(*p_ids)
        raised = decide_ids(p_ids, d_ids[4], p_cls)
        key = round_result_ids(p_ids, d_ids, raised, opts, p_cls)
        nets = cache.get(key)
        if nets is None:
            exact = _nets(key[0], key[1], opts)
            nets = cache[key] = (float(exact["ante"] + 2 * exact["raise"]), float(exact["raise"]),
                                 float(exact["progressive"]))
        hand, rz, prog = nets
        hand_s += hand
        hand_q += hand * hand
        prog_s += prog
        prog_q += prog * prog
        if raised:
            raised_n += 1
            raise_s += rz
            raise_q += rz * rz
    return hand_s, hand_q, raise_s, raise_q, prog_s, prog_q, raised_n


def simulate(rounds, seed, opts=None):
    """Play `rounds` rounds (one box, ante 1, progressive 1, strategy()) with random.Random(seed).

    'ante': the hand's net per ante (ante + raise); 'raise': per unit raised, over the raised rounds;
    'progressive': per unit bet, the pool held at option `pool` (so it cross-checks the exact edge)."""
    opts = with_defaults(opts)
    hs, hq, rs, rq, ps, pq, nr = _play(rounds, seed, opts)
    out = {}
    for bet, (s, q, n) in (("ante", (hs, hq, rounds)), ("raise", (rs, rq, nr)), ("progressive", (ps, pq, rounds))):
        mean, err = mean_stderr(s, q, n)
        out[bet] = {"rounds": n, "mean_net": mean, "stderr": err}
    return out


def progressive_edge(pool_cents, opts=None):
    """Exact house edge of the progressive bet (per unit bet) with the pool at `pool_cents`: the player's
    five cards decide (CSP-10.2), the stake is collected (returned on a win with
    progressive_stake_returned); one box hitting alone, the player never folding a paying hand."""
    opts = with_defaults(opts)
    counts = poker5.category_counts()
    total = sum(counts)
    back = opts["progressive_bet"] if opts["progressive_stake_returned"] else 0
    returned = sum(Fraction(counts[c] * (progressive_award(c, opts, pool_cents) + back), total)
                   for c in PROGRESSIVE_CLASSES)
    return 1 - returned / opts["progressive_bet"]


def break_even_pool(opts=None):
    """Smallest pool (cents) at which the progressive's edge is not positive (exact, by bisection)."""
    opts = with_defaults(opts)
    lo, hi = 0, 1
    while progressive_edge(hi, opts) > 0:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if progressive_edge(mid, opts) > 0:
            lo = mid
        else:
            hi = mid
    return hi


def edge(opts=None):
    """Exact figures per bet: ante and raise under the optimal raise decision (module docstring), with
    strategy()'s figures beside them; the progressive at the pool of option `pool`."""
    from . import exact as caribbean_exact  # numpy: only the odds need it
    opts = with_defaults(opts)
    pays = bets(opts)
    exact = caribbean_exact.ante_raise_edge(opts)
    rule = exact["strategy"]
    out = {
        "ante": {"pays": pays["ante"], "win_probability": exact["win_probability"],
                 "house_edge": exact["house_edge"], "method": "exact",
                 "per": "ante and its raise together, per unit of ante",
                 "decision": "optimal: raise iff raising is worth more than folding, given the hand and up card",
                 "raise_probability": exact["raise_probability"],
                 "strategy_house_edge": rule["house_edge"], "strategy_raise_probability": rule["raise_probability"]},
        "raise": {"pays": pays["raise"], "win_probability": exact["raise_win_probability"],
                  "house_edge": exact["raise_house_edge"], "method": "exact",
                  "per": "unit of raise, over the rounds raised",
                  "strategy_house_edge": rule["raise_house_edge"]},
    }
    counts = poker5.category_counts()
    hit = sum(counts[c] for c in PROGRESSIVE_CLASSES)
    out["progressive"] = {"pays": pays["progressive"], "win_probability": Fraction(hit, sum(counts)),
                          "house_edge": progressive_edge(opts["pool"], opts), "pool_cents": opts["pool"],
                          "break_even_pool_cents": break_even_pool(opts)}
    return out


def flags(opts=None, edges=None):
    """One line per bet whose house edge is not positive (with why), and a binding max_payout cap."""
    opts = with_defaults(opts)
    edges = edges if edges is not None else edge(opts)
    lines = []
    for bet, fig in edges.items():
        he = fig["house_edge"]
        if he is not None and he <= 0:
            why = {"raise": "expected: the player raises only the hands worth raising; the game's edge is "
                            "the ante's figure, which includes the raise",
                   "progressive": "the pool (%d cents) is at or above the break-even pool (%d cents)"
                                  % (opts["pool"], fig.get("break_even_pool_cents", 0))}.get(bet, "")
            if bet == "ante" and opts["qualify"] == "ace_and_king":
                why = ("under the literal CSP-9.1 qualification the dealer needs an A and a K, so the dealer "
                       "rarely qualifies and the ante is paid even money with the raise returned (CSP-9.2)")
            lines.append("%s (pays %s): house edge %.4f%% is not positive%s"
                         % (bet, fig["pays"], 100 * float(he), ": " + why if why else ""))
    if opts["max_payout"]:
        lines.append("max_payout is read per box: CSP-9.5.7-9.5.9 每局最高額 may also mean the round's total "
                     "over every box, which the engine does not model")
    if opts["max_payout"] and opts["max_payout"] < 20 * 2 * opts["ante"]:
        lines.append("max_payout %d cents is below a four-of-a-kind raise win (%d cents at ante %d): the cap "
                     "binds (CSP-9.5.7)" % (opts["max_payout"], 40 * opts["ante"], opts["ante"]))
    return lines


# ---------------------------------------------------------------------------------------------------
# Irregularities (CSP-11)

# Eight boxes, the dealer's included (CSP-2.1), five cards each, are all a round deals.
MAX_ROUND_CARDS = BOXES * 5
_VOID_CARRIED = "the round and its bets are void, the bets returned; progressive bets carry over to the next round"
_RESTART = Ruling(True, True, True, False, "CSP-11.1", _VOID_CARRIED + "; betting and dealing start again")


def _cards_exposed(owner):
    def ruling(exposed=1):
        irregularities.count("exposed", exposed, 1, MAX_ROUND_CARDS,
                             "how many cards were wrongly exposed in the round, whoever holds them")
        if exposed >= 2:
            return _RESTART
        if owner == "player":
            return Ruling(False, False, False, False, "CSP-11.2", "the round stays valid; betting and play go on")
        return Ruling(False, False, False, False, "CSP-11.2",
                      "the round stays valid; the dealer's exposed card stays face up and every other card is "
                      "dealt face down, the dealer's fifth card too: the exposed card is the dealer's up card")
    return ruling


RULINGS = {
    "wrong_dealing_method": _RESTART,
    "wrong_card_count": _RESTART,
    "player_card_exposed": _cards_exposed("player"),
    "dealer_card_exposed": _cards_exposed("dealer"),
    "card_to_empty_box": Ruling(False, False, False, True, "CSP-11.3",
                                "the box with no bet is void (its cards are dead); the round goes on as usual"),
    "shuffler_fault": Ruling(True, True, True, False, "CSP-11.4",
                             _VOID_CARRIED + "; the shuffling machine is replaced or a dealing box is used"),
}
IRREGULARITIES = tuple(RULINGS)


def irregularity(kind, exposed=1):
    """CSP-11: what an irregularity does to the round (a Ruling, see rulebook.irregularities).

    kind: 'wrong_dealing_method' (not as CSP-7), 'wrong_card_count', 'player_card_exposed' /
    'dealer_card_exposed' (with `exposed` = how many cards were wrongly exposed in the round in all:
    two or more void it whoever holds them, CSP-11.1; the dealer's up card of CSP-7 is not wrongly
    exposed), 'card_to_empty_box', 'shuffler_fault'.
    Readings: "投注亦作廢" (CSP-11.1) voids the bets, which go back to the players as a void raise does
    (CSP-9.2 "作廢且全數退回"); CSP-11.4 says only that the round is void, its "唯" (except the
    progressive bets) puts the other bets in the same case. CSP-11.2 "其餘派出的牌，牌面全須向下" is
    read as every other card, the dealer's usual up card included, so the dealer shows one card.
    """
    return irregularities.rule(RULINGS, kind, exposed=exposed)
