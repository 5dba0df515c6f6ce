"""Fortune 3 Card Poker (富貴三寶, operating rules of 30 Oct 2025): bets, dealing, settlement, void rounds.

Bets (ids of docs/rulebook.md):
- `ante`: the ante together with its play (raise) bet. F3-3.1 makes Ante and Pair Plus the base bets
  and F3-12.2 makes the raise a continuation of the ante (equal to it), so the two are one wager here:
  its net is per unit of ante — fold -1 (F3-12.2); play: dealer not qualified +1 (ante 1:1, play
  returned; F3-13.1), player higher +2, dealer higher -2 (F3-13.3), a tie 0 (push, option `tie`); plus
  the ante bonus on the ante amount (F3-13.4: straight flush 5, three of a kind 4, straight 1) whether
  or not the dealer qualifies. `settle_box()` gives the ante and play parts separately, in money.
- `pair_plus` (F3-13.5, F3-16.1), `six_card_bonus` (best five of the player's and dealer's six cards;
  F3-13.6, F3-14, F3-16.2) and `progressive` (player's three + two community cards; F3-13.7, F3-15,
  F3-16.3; the award amounts and the pool come from progressive.py).

Outcome text (`resolve`): the cards in dealing order for one box, then the decision —
`P1,P2,P3,D1,D2,D3[,B],C1,C2,play|fold`: the player's three, the dealer's three, and, only when a
progressive bet is on the table (F3-11.3, F3-15.2), the two community cards, preceded by the card the
dealer burns when the shuffler delivers three at a time (option dealing=shuffler3; F3-11.4). Without
community cards the progressive was not offered that round and has no result.

Interpretations (each an option, default first):
- F3-13.1 "lower than a Q": `qualify=hand` — the dealer qualifies with Q-high or any better hand (any
  pair, even 2-2-x, qualifies); `high_card` — the dealer qualifies only holding a Q, K or A, whatever
  the hand (so 4-3-2 or a pair of 5s with a J does not).
- F3-13.3 states no result for equal hands, though F3-7.1 calls them a tie (和局): `tie=push` returns
  ante and play; `dealer` — the dealer takes both.
- F3-13.4 pays the ante bonus "whether or not the round continues"; a player who folds has given the
  ante up (F3-12.2), so the bonus is paid only to a player who plays.
- F3-7.1.3 "花色不同" (suits differ) is read as "not all of one suit": 7h-8h-9c is a straight.
- F3-7.1.6 names no tie for three odd cards; equal ranks are a tie as in every other category.
"""
import math
import random
from collections import namedtuple
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from math import comb

from . import analysis, irregularities, progressive
from .poker import poker3
from .cards import Card, check_single_deck, deck, parse_card
from .errors import RuleError
from .irregularities import Ruling
from .options import Option, resolve_options, spec

NAME = "fortune3"

OPTIONS = spec(
    Option("qualify", "hand", "choice", choices=("hand", "high_card"), article="F3-13.1",
           help="hand: Q-high or any pair or better qualifies; high_card: the dealer needs a Q, K or A"),
    Option("tie", "push", "choice", choices=("push", "dealer"), article="F3-13.3",
           help="equal hands with a qualified dealer: ante and play returned, or taken by the dealer"),
    Option("dealing", "shuffler", "choice", choices=("manual", "shuffler", "shuffler3"), article="F3-9.1, F3-11",
           help="manual: one card at a time; shuffler: three per box; shuffler3: three at a time, "
                "the top card of the community three burned"),
    Option("progressive_bet", 100, "int", lo=1, hi=10 ** 8, article="F3-16.3",
           help="the progressive stake in cents (awards are reported per unit of it)"),
    Option("pool", 10_000_000, "int", lo=0, hi=10 ** 12, article="F3-16.3, F3-15.6",
           help="the progressive pool in cents when the round is settled"),
    *progressive.poker_fixed_options("F3-16.3"),
    Option("progressive_stake_returned", False, "bool", article="F3-16.3",
           help="a winning progressive bet also gets its stake back (F3-16.3 is silent; by default the "
                "stake is always collected, as in caribbean_stud)"),
)

# F3-13.4: ante bonus by the player's three-card category, to 1.
ANTE_BONUS = {poker3.STRAIGHT_FLUSH: 5, poker3.THREE_OF_A_KIND: 4, poker3.STRAIGHT: 1}
# F3-16.1: Pair Plus by three-card category, to 1.
PAIR_PLUS = {poker3.STRAIGHT_FLUSH: 40, poker3.THREE_OF_A_KIND: 25, poker3.STRAIGHT: 5,
             poker3.FLUSH: 4, poker3.PAIR: 1}
# F3-16.2: Six Card Bonus by five-card category id (poker5.CATEGORY_IDS), to 1.
SIX_CARD_BONUS = {"royal_flush": 500, "straight_flush": 100, "four_of_a_kind": 50, "full_house": 20,
                  "flush": 15, "straight": 10, "three_of_a_kind": 7}
# F3-7.3: the progressive's classes, high to low.
PROGRESSIVE_CLASSES = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush")

BASE_BETS = ("ante", "pair_plus")  # F3-3.1
ADDITIONAL_BETS = ("six_card_bonus", "progressive")  # F3-3.2
BET_IDS = BASE_BETS + ADDITIONAL_BETS
DECISIONS = ("play", "fold")
QUEEN = 12


_RESOLVED = {}


def _opts(opts):
    """The full, validated option dict from None, a partial dict or a resolved one (memoised: the
    settlement helpers call it once per round in simulate)."""
    key = tuple(sorted((opts or {}).items()))
    try:
        known = key in _RESOLVED
    except TypeError:  # an unhashable value: let the option check say what is wrong
        return resolve_options(OPTIONS, opts)
    if not known:
        _RESOLVED[key] = resolve_options(OPTIONS, opts)
    return dict(_RESOLVED[key])


def _pays(table):
    return "/".join("%d:1" % p for p in sorted(table.values()))


def bets(opts=None):
    """Every bet id with its pays ('a:b', tiers low to high)."""
    return {
        "ante": "1:1",  # ante and play each 1:1; the ante bonus is `ante_bonus` in edge()
        "pair_plus": _pays(PAIR_PLUS),
        "six_card_bonus": _pays(SIX_CARD_BONUS),
        "progressive": "/".join(_progressive_pays(_opts(opts))),
    }


def _progressive_pays(opts):
    """Per class, low to high: the fixed award per unit staked, 'a for 1' (the stake is collected) or
    'a:1' (progressive_stake_returned), or 'max(fixed,10% pool)' (F3-16.3)."""
    share = {"straight_flush": "10%", "royal_flush": "100%"}
    form = "%s:1" if opts["progressive_stake_returned"] else "%s for 1"
    for name in reversed(PROGRESSIVE_CLASSES):
        fixed = form % Fraction(opts["fixed_" + name], opts["progressive_bet"])
        yield "max(%s,%s pool)" % (fixed, share[name]) if name in share else fixed


# ---------------------------------------------------------------------------------------------------
# Outcomes


class Round(namedtuple("Round", "player dealer community burn decision")):
    """One box's cards as dealt: player 3, dealer 3, community 2 (or ()), burned card (or None), decision."""
    __slots__ = ()


def parse_outcome(text, opts=None):
    """'As,Kd,Qh,2c,3d,9s[,burn],C1,C2,play' -> Round; RuleError saying what is wrong."""
    opts = _opts(opts)
    if isinstance(text, Round):
        return _checked_round(text, opts)
    tokens = [t for t in str(text).replace(",", " ").split() if t]
    decisions = [t.lower() for t in tokens if t.lower() in DECISIONS]
    if len(decisions) != 1:
        raise RuleError("a Fortune 3 outcome needs exactly one decision, play or fold, after the cards "
                        "(e.g. As,Kd,Qh,2c,3d,9s,play); got %d" % len(decisions))
    cards = [parse_card(t) for t in tokens if t.lower() not in DECISIONS]
    burned = opts["dealing"] == "shuffler3"
    with_community = 9 if burned else 8
    if len(cards) not in (6, with_community):
        raise RuleError(
            "a Fortune 3 outcome is the player's 3 and the dealer's 3 cards%s: 6 or %d cards, got %d"
            % (", then a burned card and 2 community cards (dealing=shuffler3, F3-11.4)" if burned
               else ", then 2 community cards if a progressive bet is on (F3-11.3)", with_community, len(cards)))
    community = tuple(cards[-2:]) if len(cards) > 6 else ()
    burn = cards[6] if len(cards) == 9 else None
    return _checked_round(Round(tuple(cards[:3]), tuple(cards[3:6]), community, burn, decisions[0]), opts)


def _checked_round(rnd, opts):
    if len(rnd.player) != 3 or len(rnd.dealer) != 3 or len(rnd.community) not in (0, 2):
        raise RuleError("a Fortune 3 round has 3 player, 3 dealer and 0 or 2 community cards")
    if rnd.decision not in DECISIONS:
        raise RuleError("decision must be play or fold, got %r" % (rnd.decision,))
    if rnd.community and (rnd.burn is not None) != (opts["dealing"] == "shuffler3"):
        raise RuleError("a burned card comes before the community cards exactly when dealing=shuffler3 (F3-11.4)")
    cards = list(rnd.player) + list(rnd.dealer) + list(rnd.community)
    cards += [rnd.burn] if rnd.burn is not None else []
    check_single_deck(cards)  # F3-2.1.1: one deck
    return rnd


def outcome_text(outcome):
    cards = list(outcome.player) + list(outcome.dealer)
    if outcome.community:
        cards += ([outcome.burn] if outcome.burn is not None else []) + list(outcome.community)
    return ",".join(str(c) for c in cards) + "," + outcome.decision


# ---------------------------------------------------------------------------------------------------
# Settlement


def dealer_qualifies(dealer_key, opts=None):
    """F3-13.1/13.2 for an evaluate() key of the dealer's hand (see the `qualify` option)."""
    cat, ranks = dealer_key
    if _opts(opts)["qualify"] == "high_card":
        return max(ranks) >= QUEEN or (cat in (poker3.STRAIGHT, poker3.STRAIGHT_FLUSH) and ranks == (3,))
    return cat > poker3.HIGH_CARD or ranks[0] >= QUEEN


def ante_parts(player_key, dealer_key, decision, opts=None):
    """(ante net, play net, bonus) per unit of ante, play = ante (F3-12.2, F3-13)."""
    opts = _opts(opts)
    if decision == "fold":
        return Fraction(-1), Fraction(0), Fraction(0)  # F3-12.2: the ante is given up, no bonus
    bonus = Fraction(ANTE_BONUS.get(player_key[0], 0))  # F3-13.4, whatever the dealer holds
    if not dealer_qualifies(dealer_key, opts):
        return Fraction(1), Fraction(0), bonus  # F3-13.1: ante 1:1, play returned
    if player_key > dealer_key:
        return Fraction(1), Fraction(1), bonus  # F3-13.3
    if player_key < dealer_key:
        return Fraction(-1), Fraction(-1), bonus  # F3-13.3
    side = 0 if opts["tie"] == "push" else -1  # F3-7.1 tie; F3-13.3 silent (option)
    return Fraction(side), Fraction(side), bonus


def pair_plus_net(player_key):
    """F3-13.5, F3-16.1: pays on the player's hand alone."""
    return Fraction(PAIR_PLUS.get(player_key[0], -1))


def six_card_class(player, dealer):
    """F3-14: the category id of the best five of the player's and dealer's six cards."""
    from .poker import poker5
    return poker5.CATEGORY_IDS[poker5.best_of(list(player) + list(dealer))[0]]


def six_card_bonus_net(player, dealer):
    """F3-13.6, F3-16.2: three of a kind or better, whatever the dealer holds."""
    return Fraction(SIX_CARD_BONUS.get(six_card_class(player, dealer), -1))


def progressive_class(player, community):
    """F3-13.7, F3-15.1, F3-7.3: the class won by the player's three and the two community cards, or None."""
    from .poker import poker5
    if len(community) != 2:
        raise RuleError("the progressive needs the two community cards (F3-11.3)")
    name = poker5.CATEGORY_IDS[poker5.evaluate(list(player) + list(community))[0]]
    return name if name in PROGRESSIVE_CLASSES else None


def progressive_award(hand_class, opts=None):
    """The award in cents for one box holding `hand_class` alone in its round, at the pool and fixed
    amounts of the options (progressive.settle decides it; F3-16.3), 0 for None."""
    from . import progressive
    opts = _opts(opts)
    if hand_class is None:
        return 0
    fixed = {name: opts["fixed_" + name] for name in PROGRESSIVE_CLASSES}
    payouts, _ = progressive.settle("fortune3", [(1, hand_class)], opts["pool"], 0, fixed)
    return payouts[0][2]


def progressive_net(hand_class, opts=None):
    """Net per unit of progressive stake: the award less the stake, which is collected win or lose
    (option progressive_stake_returned: the stake comes back to a winner), or -1."""
    opts = _opts(opts)
    if hand_class is None:
        return Fraction(-1)
    award = Fraction(progressive_award(hand_class, opts), opts["progressive_bet"])
    return award if opts["progressive_stake_returned"] else award - 1


def resolve(outcome, opts=None):
    """Net per unit staked of every bet for one box (see the module docstring for `ante`)."""
    opts = _opts(opts)
    rnd = parse_outcome(outcome, opts)
    player_key, dealer_key = poker3.evaluate(rnd.player), poker3.evaluate(rnd.dealer)
    net = {
        "ante": sum(ante_parts(player_key, dealer_key, rnd.decision, opts)),
        "pair_plus": pair_plus_net(player_key),  # F3-12.3/12.4: folding leaves Pair Plus and the side bets alone
        "six_card_bonus": six_card_bonus_net(rnd.player, rnd.dealer),
    }
    if rnd.community:
        net["progressive"] = progressive_net(progressive_class(rnd.player, rnd.community), opts)
    return net


def settle_box(stakes, outcome, opts=None):
    """Money result per bet for one box with stakes {bet_id: cents}; play = ante when played.

    The progressive award is the one for a stake of `progressive_bet` cents (F3-16.3 amounts do not
    depend on the stake), scaled in proportion when the stake differs.

    F3-4.2/4.3: an additional bet needs a base bet; F3-12.2: the play is the ante again. Returns
    {'ante', 'play', 'ante_bonus', 'pair_plus', 'six_card_bonus', 'progressive'} as Fractions (0 for a
    bet not placed). Bad stakes raise RuleError and settle nothing.
    """
    opts = _opts(opts)
    stakes = dict(stakes)
    for bet, amount in stakes.items():
        if bet not in BET_IDS:
            raise RuleError("unknown Fortune 3 bet %r (bets: %s)" % (bet, ", ".join(BET_IDS)))
        if not isinstance(amount, (int, Fraction)) or isinstance(amount, bool) or amount < 0:
            raise RuleError("stake on %s must be a non-negative amount, got %r" % (bet, amount))
    stake = {bet: Fraction(stakes.get(bet, 0)) for bet in BET_IDS}
    if not any(stake[b] for b in BASE_BETS):
        if any(stake[b] for b in ADDITIONAL_BETS):
            raise RuleError("six_card_bonus and progressive need a base bet, ante or pair_plus (F3-4.2, F3-4.3)")
        raise RuleError("no bet on this box: a box plays with ante or pair_plus (F3-3.1)")
    rnd = parse_outcome(outcome, opts)
    if stake["progressive"] and not rnd.community:
        raise RuleError("a progressive bet needs the two community cards in the outcome (F3-11.3)")
    player_key, dealer_key = poker3.evaluate(rnd.player), poker3.evaluate(rnd.dealer)
    result = dict.fromkeys(("ante", "play", "ante_bonus", "pair_plus", "six_card_bonus", "progressive"),
                           Fraction(0))
    if stake["ante"]:
        ante, play, bonus = ante_parts(player_key, dealer_key, rnd.decision, opts)
        result.update(ante=ante * stake["ante"], play=play * stake["ante"], ante_bonus=bonus * stake["ante"])
    if stake["pair_plus"]:
        result["pair_plus"] = pair_plus_net(player_key) * stake["pair_plus"]
    if stake["six_card_bonus"]:
        result["six_card_bonus"] = six_card_bonus_net(rnd.player, rnd.dealer) * stake["six_card_bonus"]
    if stake["progressive"]:
        hand_class = progressive_class(rnd.player, rnd.community)
        result["progressive"] = progressive_net(hand_class, opts) * stake["progressive"]
    return result


# ---------------------------------------------------------------------------------------------------
# Dealing and irregularities


def deal(shoe, boxes, progressive=False, opts=None):
    """Deal one round from a cards.Shoe to `boxes` (number of boxes with a bet, left to right).

    F3-11.1 manual: one card at a time to each box in turn until each has three, then the dealer's
    three; F3-11.2 shuffler: three cards to each box in turn, then the dealer's three; F3-11.3: two
    community cards when a progressive bet is on, after the dealer's; F3-11.4 (dealing=shuffler3): the
    shuffler delivers three and the top one is burned. Returns {'boxes': [3-card lists], 'dealer',
    'community', 'burn'}.
    """
    opts = _opts(opts)
    if not isinstance(boxes, int) or isinstance(boxes, bool) or not 1 <= boxes <= 7:
        raise RuleError("a Fortune 3 table has 1 to 7 player boxes (F3-5.2), got %r" % (boxes,))
    if opts["dealing"] == "manual":
        hands = [[] for _ in range(boxes)]
        for _ in range(3):
            for hand in hands:
                hand.append(shoe.draw())
    else:
        hands = [shoe.draw_n(3) for _ in range(boxes)]
    dealt = {"boxes": hands, "dealer": shoe.draw_n(3), "community": [], "burn": None}
    if progressive:
        if opts["dealing"] == "shuffler3":
            dealt["burn"] = shoe.draw()
        dealt["community"] = shoe.draw_n(2)
    return dealt


def _player_cards_exposed(exposed=1):
    irregularities.count("exposed", exposed, 1, 3, "how many of one player's 3 cards were exposed")
    if exposed == 1:
        return Ruling(False, False, False, False, "F3-17.4.1", "the round continues")
    return Ruling(True, True, False, False, "F3-17.1.3", "void; players may take back their bets")


RULINGS = {
    "dealing_breach": Ruling(True, True, True, False, "F3-17.1.1, F3-17.3",
                             "void; players may take back their bets; progressive bets stay for the next round"),
    "dealer_card_exposed": Ruling(True, True, False, False, "F3-17.1.2", "void; players may take back their bets"),
    "player_cards_exposed": _player_cards_exposed,
    "shuffler_fault": Ruling(True, True, True, False, "F3-17.2, F3-17.3",
                             "round stopped, cards reshuffled; progressive bets stay for the next round; if the "
                             "fault persists, another shuffler or a dealing box, else no new round"),
    "card_to_empty_box": Ruling(False, False, False, True, "F3-17.4.2, F3-17.5",
                                "the round continues; the cards dealt to the empty box are void"),
}
IRREGULARITIES = tuple(RULINGS)


def irregularity(kind, exposed=1):
    """F3-17: what an irregularity does to the round (a Ruling, see rulebook.irregularities).

    kind: 'dealing_breach' (F3-11.1-11.3 not followed), 'dealer_card_exposed', 'player_cards_exposed'
    (with `exposed` = how many of one player's cards were exposed during dealing), 'shuffler_fault',
    'card_to_empty_box'. Interpretation: a shuffler fault (F3-17.2) stops the round, so it is void like
    F3-17.1 and bets other than the progressive may be taken back.
    """
    return irregularities.rule(RULINGS, kind, exposed=exposed)


# ---------------------------------------------------------------------------------------------------
# Exact analysis

_DECK = tuple(deck())
_HANDS3 = tuple(combinations(range(52), 3))  # card indices into _DECK, all 22,100
DEALER_HANDS = comb(49, 3)  # dealer hands for one player hand: 18,424


def _suit_class(hand):
    """A key equal for hands that differ only by a renaming of suits (it may split a few such classes,
    which costs time, never accuracy)."""
    cards = sorted((_DECK[i] for i in hand), key=lambda c: (-c.rank, c.suit))
    seen = {}
    return tuple((c.rank, seen.setdefault(c.suit, len(seen))) for c in cards)


_ANTE_CACHE = {}


def _hand_tables():
    """Strength of every three-card set, and the sets through each card and each pair of cards."""
    if not _HAND_TABLES:
        strength = [poker3.strength([_DECK[i] for i in hand]) for hand in _HANDS3]
        through_card = [[] for _ in range(52)]
        through_pair = {}
        for h, (a, b, c) in enumerate(_HANDS3):
            s = strength[h]
            for card in (a, b, c):
                through_card[card].append(s)
            for pair in ((a, b), (a, c), (b, c)):
                through_pair.setdefault(pair, []).append(s)
        _HAND_TABLES.extend((strength, through_card, through_pair))
    return _HAND_TABLES


_HAND_TABLES = []


class _Tally:
    """Counts of a set of dealer hands by strength: not qualifying, and qualifying below / at a strength."""

    def __init__(self, strengths, qualifies):
        per = [0] * poker3.STRENGTH_COUNT
        for s in strengths:
            per[s] += 1
        self.unqualified = sum(n for s, n in enumerate(per) if not qualifies[s])
        self.qualified = len(strengths) - self.unqualified
        self.equal = [n if qualifies[s] else 0 for s, n in enumerate(per)]
        self.below, running = [], 0
        for n in self.equal:
            self.below.append(running)
            running += n

    def at(self, sp):
        return self.unqualified, self.below[sp], self.equal[sp], self.qualified


def ante_table(opts=None):
    """Exact ante/play analysis over every player hand and every dealer hand of the other 49 cards.

    Returns {'hands': {hand_class: (weight, player_key, (nq, lower, equal, higher), play_numerator)},
    'house_edge', 'play_probability', 'win_probability', 'distribution'}: the dealer counts are among
    the 18,424 dealer hands; play_numerator / 18,424 is the expected net of playing (ante bonus
    included); the decision that maximises it against folding's -1 is taken for every hand.
    The dealer hands that avoid the player's cards are counted by inclusion-exclusion: all hands, less
    those through each player card, plus those through each pair of them, less the player's own hand.
    """
    opts = _opts(opts)
    cache_key = (opts["qualify"], opts["tie"])
    if cache_key in _ANTE_CACHE:
        return _ANTE_CACHE[cache_key]
    strength, through_card, through_pair = _hand_tables()
    qualifies = [dealer_qualifies(key, opts) for key in poker3.KEYS_IN_ORDER]
    every = _Tally(strength, qualifies)
    by_card = [_Tally(strengths, qualifies) for strengths in through_card]
    tie_net = 0 if opts["tie"] == "push" else -2
    classes = {}
    for h, hand in enumerate(_HANDS3):
        key = _suit_class(hand)
        entry = classes.get(key)
        if entry is not None:
            entry[0] += 1
            continue
        sp = strength[h]
        nq, lower, equal, qualified = every.at(sp)
        for card in hand:
            c_nq, c_lower, c_equal, c_qualified = by_card[card].at(sp)
            nq, lower, equal, qualified = nq - c_nq, lower - c_lower, equal - c_equal, qualified - c_qualified
        a, b, c = hand
        for pair in ((a, b), (a, c), (b, c)):
            for s in through_pair[pair]:
                if not qualifies[s]:
                    nq += 1
                else:
                    qualified += 1
                    lower += s < sp
                    equal += s == sp
        if qualifies[sp]:  # the player's own hand, counted once in every term above
            qualified -= 1
            equal -= 1
        else:
            nq -= 1
        higher = qualified - lower - equal
        player_key = poker3.KEYS_IN_ORDER[sp]
        bonus = ANTE_BONUS.get(player_key[0], 0)
        play = nq + 2 * lower + tie_net * equal - 2 * higher + bonus * DEALER_HANDS
        classes[key] = [1, player_key, (nq, lower, equal, higher), play]
    total, played, won = 0, 0, 0
    dist = {}
    for weight, player_key, (nq, lower, equal, higher), play in classes.values():
        bonus = ANTE_BONUS.get(player_key[0], 0)
        if play > -DEALER_HANDS:  # play when strictly better than folding's -1
            total += weight * play
            played += weight
            for net, n in ((1 + bonus, nq), (2 + bonus, lower), (tie_net + bonus, equal), (-2 + bonus, higher)):
                dist[net] = dist.get(net, 0) + weight * n
                won += weight * n if net > 0 else 0
        else:
            total -= weight * DEALER_HANDS
            dist[-1] = dist.get(-1, 0) + weight * DEALER_HANDS
    pairings = len(_HANDS3) * DEALER_HANDS
    table = {
        "hands": {k: tuple(v) for k, v in classes.items()},
        "house_edge": Fraction(-total, pairings),
        "play_probability": Fraction(played, len(_HANDS3)),
        "win_probability": Fraction(won, pairings),
        "distribution": {net: Fraction(n, pairings) for net, n in sorted(dist.items())},
    }
    _ANTE_CACHE[cache_key] = table
    return table


def _representative(ranks):
    """Cards with these ranks (sorted, each at most 4 times) and no five of one suit: suits dealt round
    robin, so equal ranks get different suits and no suit gets more than two of six cards."""
    return [Card(r, "shcd"[i % 4]) for i, r in enumerate(ranks)]


def _flush_ways(n, multiplicity):
    """How many of the suit assignments of a rank multiset put five or more of its n cards in one suit."""
    distinct = len(multiplicity)
    if n == 5:
        return 4 if distinct == 5 else 0
    if distinct == 6:
        return 4 + 6 * 4 * 3  # all six in one suit, or five of them in one suit and one elsewhere
    if distinct == 5:
        return 4 * 3  # the five ranks in one suit, the paired rank's other card in another suit
    return 0


_COUNT_CACHE = {}


def best_hand_counts(n):
    """{five-card category id: number of n-card sets} for every n-card set of one deck (n = 5 or 6),
    judged by poker5 on the best five (F3-14, F3-15.1): rank multisets counted by their suit
    assignments, flushes counted apart, one representative per class evaluated."""
    if n in _COUNT_CACHE:
        return _COUNT_CACHE[n]
    if n not in (5, 6):
        raise RuleError("best_hand_counts takes 5 or 6 cards, got %r" % (n,))
    from .poker import poker5
    counts = {}

    def add(cards, ways):
        # poker5's unvalidated id-level evaluator: the representatives are distinct by construction
        ids = [poker5.card_id(c) for c in cards]
        best = max(poker5.class_of_ids(*five) for five in combinations(ids, 5))
        name = poker5.CATEGORY_IDS[poker5.CLASS_CATEGORY[best]]
        counts[name] = counts.get(name, 0) + ways

    for ranks in combinations_with_replacement(range(2, 15), n):
        multiplicity = {}
        for r in ranks:
            multiplicity[r] = multiplicity.get(r, 0) + 1
        if max(multiplicity.values()) > 4:
            continue
        ways = math.prod(comb(4, m) for m in multiplicity.values()) - _flush_ways(n, multiplicity)
        if ways:
            add(_representative(ranks), ways)
    for suited in combinations(range(2, 15), 5):
        flush = [Card(r, "s") for r in suited]
        # n = 6: a sixth card of another suit (39 of them) adds at most a pair or a straight to five
        # distinct suited ranks, both below the flush, so the five suited cards decide
        add(flush, 4 if n == 5 else 4 * 39)
    if n == 6:
        for suited in combinations(range(2, 15), 6):
            add([Card(r, "s") for r in suited], 4)
    _COUNT_CACHE[n] = counts
    return counts


def three_card_counts():
    """{three-card category: number of hands} over all 22,100 hands."""
    counts = [0] * len(poker3.CATEGORY_IDS)
    for hand in _HANDS3:
        counts[poker3.KEYS_IN_ORDER[poker3.strength([_DECK[i] for i in hand])][0]] += 1
    return counts


def edge(opts=None):
    """Exact figures of every bet; ante/play under the optimal play-or-fold decision per hand."""
    opts = _opts(opts)
    pays = bets(opts)
    table = ante_table(opts)
    house_edge = table["house_edge"]
    result = {"ante": {
        "pays": pays["ante"],
        "win_probability": table["win_probability"],
        "house_edge": house_edge,
        "distribution": table["distribution"],
        "ante_bonus": _pays(ANTE_BONUS),
        "play_probability": table["play_probability"],
        "element_of_risk": house_edge / (1 + table["play_probability"]),  # per unit actually staked
        "strategy": strategy_rule(opts),
    }}
    three = three_card_counts()
    result.update(analysis.edges(
        [(cat, n) for cat, n in enumerate(three)],
        lambda cat: {"pair_plus": Fraction(PAIR_PLUS.get(cat, -1))}, {"pair_plus": pays["pair_plus"]}))
    six = best_hand_counts(6)
    result.update(analysis.edges(
        list(six.items()), lambda name: {"six_card_bonus": Fraction(SIX_CARD_BONUS.get(name, -1))},
        {"six_card_bonus": pays["six_card_bonus"]}))
    five = best_hand_counts(5)
    total5 = comb(52, 5)
    class_probability = {name: Fraction(five.get(name, 0), total5) for name in PROGRESSIVE_CLASSES}
    losing = total5 - sum(five.get(name, 0) for name in PROGRESSIVE_CLASSES)
    prog = analysis.edges(
        [(name, five.get(name, 0)) for name in PROGRESSIVE_CLASSES] + [(None, losing)],
        lambda name: {"progressive": progressive_net(name, opts)}, {"progressive": pays["progressive"]})
    prog = prog["progressive"]
    prog["class_probability"] = class_probability
    prog["awards_cents"] = {name: progressive_award(name, opts) for name in PROGRESSIVE_CLASSES}
    prog["pool_cents"] = opts["pool"]
    result["progressive"] = prog
    return result


def flags(opts=None, edges=None):
    """Bets whose house edge is not positive, and the regulation's gaps worth a look."""
    edges = edges if edges is not None else edge(opts)
    opts = _opts(opts)
    reasons = {}
    if opts["qualify"] == "high_card":
        reasons["ante"] = ("qualify=high_card, the literal reading of F3-13.1, lets every dealer hand without a "
                           "Q, K or A (pairs and straights too) fail to qualify")
    lines = analysis.flag_lines(edges, reasons)
    for name in PROGRESSIVE_CLASSES[2:]:
        if not opts["fixed_" + name]:
            lines.append("progressive: %s wins a fixed amount (F3-16.3) but fixed_%s is 0" % (name, name))
    lines.append("progressive: F3-15 says nothing of two or more royal flushes in one round; they share "
                 "the pool as in Caribbean Stud (Interpretation)")
    return lines


def strategy_rule(opts=None):
    """The optimal decision in words, derived from ante_table (the lowest hand that is played)."""
    table = ante_table(opts)
    played = [v[1] for v in table["hands"].values() if v[3] > -DEALER_HANDS]
    lowest = min(played)
    folded_above = [v[1] for v in table["hands"].values() if v[3] <= -DEALER_HANDS and v[1] > lowest]
    rule = "play %s or better, fold the rest" % "-".join(str(Card(r, "s"))[0] for r in lowest[1])
    if folded_above:
        rule += " (card removal folds %d hand classes above it)" % len(folded_above)
    return rule


def strategy(opts=None):
    opts = _opts(opts)
    table = ante_table(opts)
    return ("Fortune 3 ante: %s. Optimal by exact enumeration of all 22,100 x 18,424 player/dealer "
            "hands (qualify=%s, tie=%s): house edge %s per ante, play rate %s. Pair Plus, Six Card Bonus "
            "and the progressive have no decisions; folding does not affect them (F3-12.4)."
            % (strategy_rule(opts), opts["qualify"], opts["tie"], analysis.percent(table["house_edge"]),
               analysis.percent(table["play_probability"])))


def play_value(player_cards, opts=None):
    """Exact expected net per ante of playing this hand (ante bonus included); folding is -1."""
    key = _suit_class([_DECK.index(c) for c in poker3.checked(player_cards)])
    return Fraction(ante_table(opts)["hands"][key][3], DEALER_HANDS)


def should_play(player_cards, opts=None):
    """The optimal decision for a player hand (exact, card removal included)."""
    return play_value(player_cards, opts) > -1


def simulate(rounds, seed, opts=None):
    """Deal `rounds` rounds of one box with random.Random(seed) (a fresh shuffled deck each round: player 3,
    dealer 3, [burn], community 2), play by the optimal decision, every bet staked one unit."""
    opts = _opts(opts)
    analysis.check_rounds(rounds, seed)
    rng = random.Random(seed)
    cards = list(_DECK)
    burn = 1 if opts["dealing"] == "shuffler3" else 0
    decision_of = {}
    tally = analysis.Tally(BET_IDS)
    for _ in range(rounds):
        dealt = rng.sample(cards, 8 + burn)
        player = dealt[:3]
        key = _suit_class([_DECK.index(c) for c in player])
        if key not in decision_of:
            decision_of[key] = "play" if should_play(player, opts) else "fold"
        rnd = Round(tuple(player), tuple(dealt[3:6]), tuple(dealt[6 + burn:]), dealt[6] if burn else None,
                    decision_of[key])
        for bet, net in resolve(rnd, opts).items():
            tally.add(bet, net)
    return tally.result()
