"""Blackjack side bets (BJ-13, 14): settlement from a box's first cards, exact odds for a shoe of 1-8 decks.

any_pair 11:1 (BJ-13.1, 14.1): the box's first two cards have the same rank (J-J yes, J-Q no).
  BJ-13.1.2: after a split, a split hand whose first two cards form another pair is also a pair; the
  bet is paid 11:1 again for each (Interpretation, option any_pair_split_pairs; false pays once).
sevens (BJ-13.2, 14.2), the highest combination only: two 7s of different suits 50:1, of one suit 150:1;
  after those two are split, the next card dealt to the box also a 7: three 7s 500:1, three of one suit
  5000:1. Option sevens_three_mixed: `not_all_same` (Interpretation of 三張不同花: any three 7s not all
  of one suit) or `all_different` (three suits; two of one suit then pay as a pair of 7s).
over13 / under13 (BJ-13.3, 14.3) 1:1: the first two cards total above / below 13; 13 loses both.
  Option over13_ace: an ace counts 1 (Interpretation) or 11.
The odds are exact over ordered draws from a full shoe of `decks` decks; the dealer's face-up card is
dealt between the box's first and second cards, but unseen it changes no probability, so it is only
enumerated where the player's split of 7,7 depends on it.
"""
from fractions import Fraction

from ..cards import SUITS
from .cards import ACE, card_value

PAYS = {"any_pair": "11:1", "sevens": "50:1/150:1/500:1/5000:1", "over13": "1:1", "under13": "1:1"}
WIN, LOSS = Fraction(1), Fraction(-1)


def sevens_net(first_two, third, opts):
    """Net per unit of the sevens bet (BJ-14.2: only the highest combination is paid)."""
    a, b = first_two
    if a.rank != 7 or b.rank != 7:
        return LOSS
    net = Fraction(150) if a.suit == b.suit else Fraction(50)
    if third is not None and third.rank == 7:
        suits = {a.suit, b.suit, third.suit}
        if len(suits) == 1:
            net = Fraction(5000)
        elif opts["sevens_three_mixed"] == "not_all_same" or len(suits) == 3:
            net = Fraction(500)
    return net


def two_card_sum(first_two, opts):
    """BJ-13.3: the first two cards' points, an ace counting opts['over13_ace'] (1 or 11)."""
    return sum(opts["over13_ace"] if c.rank == ACE else card_value(c) for c in first_two)


def side_nets(first_two, sevens_third, opts, split_pairs=0):
    """{side bet: net per unit} for a box's first two cards, the card after a split of 7,7 (or None)
    and the number of split hands whose first two cards were a pair again."""
    points = two_card_sum(first_two, opts)
    pairs = 1 + (split_pairs if opts["any_pair_split_pairs"] else 0)
    return {
        "any_pair": Fraction(11 * pairs) if first_two[0].rank == first_two[1].rank else LOSS,
        "sevens": sevens_net(first_two, sevens_third, opts),
        "over13": WIN if points > 13 else LOSS,
        "under13": WIN if points < 13 else LOSS,
    }


# ---- exact odds -------------------------------------------------------------------------------
def _figures(pays, distribution):
    """The edge() entry from {net: probability}."""
    return {
        "pays": pays,
        "win_probability": sum((p for net, p in distribution.items() if net > 0), Fraction(0)),
        "house_edge": -sum((net * p for net, p in distribution.items()), Fraction(0)),
        "distribution": dict(sorted(distribution.items())),
    }


def _ranks():
    return [(rank, suit) for suit in SUITS for rank in range(2, 15)]


def two_card_edges(opts):
    """any_pair, over13, under13: every ordered pair of card kinds with its exact weight."""
    from ..cards import Card
    decks = opts["decks"]
    kinds = [Card(r, s) for r, s in _ranks()]
    dists = {bet: {} for bet in ("any_pair", "over13", "under13")}
    for a in kinds:
        for b in kinds:
            weight = decks * (decks - 1 if a == b else decks)
            if not weight:
                continue
            nets = side_nets((a, b), None, opts)
            for bet, dist in dists.items():
                dist[nets[bet]] = dist.get(nets[bet], 0) + weight
    total = 52 * decks * (52 * decks - 1)
    return {bet: _figures(PAYS[bet], {net: Fraction(w, total) for net, w in dist.items()})
            for bet, dist in dists.items()}


def sevens_distribution(opts, split_against):
    """{net: probability} of the sevens bet when the player splits 7,7 against a face-up card whose
    value (1 for an ace .. 10) is in split_against, given the draws box 1st, dealer up, box 2nd, then
    the first card after the split."""
    from ..cards import Card
    decks = opts["decks"]
    n = 52 * decks
    sevens = [Card(7, s) for s in SUITS]
    kinds = [Card(r, s) for r, s in _ranks()]
    dist = {}
    sevens_weight = 0
    for a in sevens:
        for b in sevens:
            for up in kinds:
                used = [a, up, b]
                weight = 1
                for i, card in enumerate(used):
                    weight *= decks - used[:i].count(card)
                if weight <= 0:
                    continue
                sevens_weight += weight
                if card_value(up) not in split_against:
                    net = sevens_net((a, b), None, opts)
                    dist[net] = dist.get(net, 0) + weight * (n - 3)
                    continue
                rest = n - 3
                for third in sevens:
                    left = decks - used.count(third)
                    if left > 0:
                        net = sevens_net((a, b), third, opts)
                        dist[net] = dist.get(net, 0) + weight * left
                        rest -= left
                net = sevens_net((a, b), None, opts)
                dist[net] = dist.get(net, 0) + weight * rest
    total = n * (n - 1) * (n - 2) * (n - 3)
    # every sequence not starting 7,?,7 loses; sevens_weight counted (first, up, second) triples
    dist[LOSS] = dist.get(LOSS, 0) + total - sevens_weight * (n - 3)
    return {net: Fraction(w, total) for net, w in dist.items() if w}


def split_limit(pair, opts):
    """Most hands a box split on this pair value can make (BJ-16.1, 16.3, 16.5)."""
    if pair == 1:
        return opts["max_split_hands"]
    return min(opts["max_split_hands"], 2 + opts["resplit_non_aces"])


def extra_pairs(left, cards, limit):
    """{k: probability} of k split hands drawing the pair's rank as their second card, with `left` of
    that rank among `cards` unseen, starting from two hands, re-splitting while under `limit` hands.
    The split hands' second cards are distributed as consecutive draws from the unseen cards whatever
    the hits in between (predictable sampling of an exchangeable sequence), so only they are followed."""
    memo = {}

    def go(pending, hands, left, cards):
        if pending == 0:
            return {0: Fraction(1)}
        key = (pending, hands, left, cards)
        if key not in memo:
            out = {}
            hit = Fraction(left, cards)
            if left:
                nxt = go(pending + 1, hands + 1, left - 1, cards - 1) if hands < limit \
                    else go(pending - 1, hands, left - 1, cards - 1)
                for k, q in nxt.items():
                    out[k + 1] = out.get(k + 1, 0) + hit * q
            for k, q in go(pending - 1, hands, left, cards - 1).items():
                out[k] = out.get(k, 0) + (1 - hit) * q
            memo[key] = out
        return memo[key]

    return go(2, 2, left, cards)


def any_pair_distribution(opts, splits):
    """{net: probability} of any_pair paid again for pairs after splits (BJ-13.1.2); the player splits
    a pair of value v against the face-up values in splits[v] and always re-splits when allowed."""
    decks = opts["decks"]
    n, per_rank = 52 * decks, 4 * decks
    dist = {}
    p_pair = Fraction(0)
    for rank in range(2, 15):
        pair = 1 if rank == ACE else min(rank, 10)
        for up in range(2, 15):
            same = up == rank
            p = Fraction(per_rank * (per_rank - same), n * (n - 1)) * Fraction(per_rank - 1 - same, n - 2)
            p_pair += p
            up_value = 1 if up == ACE else min(up, 10)
            if up_value not in splits.get(pair, ()):
                dist[Fraction(11)] = dist.get(Fraction(11), 0) + p
                continue
            for k, q in extra_pairs(per_rank - 2 - same, n - 3, split_limit(pair, opts)).items():
                net = Fraction(11 * (1 + k))
                dist[net] = dist.get(net, 0) + p * q
    dist[LOSS] = 1 - p_pair
    return dist


def _policy(against):
    return ",".join("A" if v == 1 else "T" if v == 10 else str(v) for v in sorted(against)) or "nothing"


def side_edges(opts, splits):
    """Exact edge() entries of the four side bets. splits: {pair value: face-up values the player
    splits it against} (the basic strategy); sevens also with always-split and never-split figures."""
    out = two_card_edges(opts)
    if opts["any_pair_split_pairs"]:
        out["any_pair"] = _figures(PAYS["any_pair"], any_pair_distribution(opts, splits))
        out["any_pair"]["policy"] = "basic strategy splits, always re-splitting"
    every = set(range(1, 11))
    split_sevens_against = splits.get(7, set())
    out["sevens"] = _figures(PAYS["sevens"], sevens_distribution(opts, set(split_sevens_against)))
    out["sevens"]["policy"] = "split 7,7 against %s (the basic strategy)" % _policy(split_sevens_against)
    for label, against in (("always_split", every), ("never_split", set())):
        figures = _figures(PAYS["sevens"], sevens_distribution(opts, against))
        out["sevens"]["house_edge_" + label] = figures["house_edge"]
    return {bet: out[bet] for bet in PAYS}
