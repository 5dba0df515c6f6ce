"""Blackjack's main bet, exact for a finite shoe under composition-dependent play (numpy, float64).

Every value is a combinatorial sum over the cards left in the shoe, no simulation: the dealer's outcome
distribution is pushed forward over the multisets of cards the dealer can draw (a draw's probability
depends only on what has left the shoe, so paths to one multiset merge), for a whole batch of shoes at
once; the player's stand / hit / double / split values are then a recursion over the player's card
multisets, the best action chosen for the exact cards held (composition-dependent play, CDP).
Splits follow the convention the published table (APPENDIX_9) states: a split hand's shoe has the
pair cards dealt so far removed (split_count='created': those out when the hand was made), not the
other split hands' cards; its whole-game figures are matched to 4e-6 (8 decks, double after split,
with 'created': to the printed 6 decimals), its per-hand values to their printed 6 decimals. Rules: no hole card (the dealer's
second card after the players, BJ-5.2), the dealer's Blackjack takes everything staked (doubles and
splits too) or, obo=True, only the original stake (BJ-16.6, BJ-17.3); docs/blackjack_exact.md.
"""
from functools import lru_cache

import numpy as np

from ..errors import RuleError

VALUES = tuple(range(1, 11))  # card value by rank index: 0 = ace ... 9 = a ten-value card
ACE, TEN = 0, 9
OUTCOMES = ("17", "18", "19", "20", "21", "bust", "bj")
_BUST, _BJ = 5, 6
_KEY = 32 ** np.arange(10, dtype=np.int64)  # a removal's counts (each < 32) as one integer


def full_shoe(decks):
    """Cards per rank index of `decks` decks."""
    return np.array([4 * decks] * 9 + [16 * decks], dtype=np.int64)


def _best(hard, ace):
    return hard + 10 if ace and hard <= 11 else hard


@lru_cache(maxsize=40)
def _dealer_levels(up, hits_soft17):
    """The dealer's draw DAG from face-up rank index `up`: per number of cards drawn, the live states
    ({drawn counts tuple: (hard total, holds an ace)}) and the draws that end there (drawn, rank, outcome)."""
    levels, finished = [], []
    live = {(0,) * 10: (VALUES[up], up == ACE)}
    k = 0
    while live:
        levels.append(live)
        finished.append([])
        nxt = {}
        for drawn, (hard, ace) in live.items():
            for r in range(10):
                d = drawn[:r] + (drawn[r] + 1,) + drawn[r + 1:]
                h, a = hard + VALUES[r], ace or r == ACE
                total = _best(h, a)
                if k == 0 and total == 21:
                    finished[k].append((drawn, r, _BJ))
                elif total > 21:
                    finished[k].append((drawn, r, _BUST))
                elif total > 17 or (total == 17 and not (hits_soft17 and a and h <= 11)):
                    finished[k].append((drawn, r, total - 17))
                else:
                    nxt[d] = (h, a)
        live, k = nxt, k + 1
    return levels, finished


def dealer_outcomes(up, shoes, hits_soft17=True):
    """(shoes, 7) probabilities of the dealer's 17..21, bust, Blackjack from face-up rank `up`, each
    row's shoe (counts per rank, the up card already out) the cards the dealer draws from."""
    shoes = np.asarray(shoes, dtype=np.float64)
    total = shoes.sum(axis=1)
    levels, finished = _dealer_levels(up, hits_soft17)
    out = np.zeros((len(shoes), 7))
    mass = {(0,) * 10: np.ones(len(shoes))}  # one level at a time: the chance of drawing each multiset
    for k in range(len(levels)):
        for drawn, r, outcome in finished[k]:
            out[:, outcome] += mass[drawn] * (shoes[:, r] - drawn[r]) / np.maximum(total - k, 1)
        if k + 1 == len(levels):
            break
        here = {}
        for drawn in levels[k + 1]:
            acc = None
            for r in range(10):
                if drawn[r]:
                    prev = drawn[:r] + (drawn[r] - 1,) + drawn[r + 1:]
                    m = mass.get(prev)
                    if m is not None:
                        term = m * (shoes[:, r] - prev[r]) / np.maximum(total - k, 1)
                        acc = term if acc is None else acc + term
            here[drawn] = acc
        mass = here
    return out


@lru_cache(maxsize=1)
def _compositions():
    """Every multiset of one or more cards with hard total <= 21: (counts (C, 10), hard, soft-ace flag,
    best total, child (C, 10): the index of the multiset with one more card of each rank, -1 past 21)."""
    comps = []

    def grow(r, counts, hard):
        if r == 10:
            if any(counts):
                comps.append(tuple(counts))
            return
        n = 0
        while hard + n * VALUES[r] <= 21:
            grow(r + 1, counts + [n], hard + n * VALUES[r])
            n += 1
    grow(0, [], 0)
    counts = np.array(comps, dtype=np.int64)
    hard = counts @ np.array(VALUES)
    ace = counts[:, ACE] > 0
    total = np.where(ace & (hard <= 11), hard + 10, hard)
    index = {c: i for i, c in enumerate(comps)}
    child = np.full((len(comps), 10), -1, dtype=np.int64)
    for i, c in enumerate(comps):
        for r in range(10):
            child[i, r] = index.get(c[:r] + (c[r] + 1,) + c[r + 1:], -1)
    return counts, hard, ace, total, child, index


class _AgainstUp:
    """Every player multiset's values against one face-up card, for the shoe left after it."""

    def __init__(self, up, shoe, rules):
        self.up, self.rules = up, rules
        self.shoe = shoe  # the up card already out
        counts = self.counts = _compositions()[0]
        wanted = [counts] + [counts[counts[:, pair] > 0] + extra * np.eye(10, dtype=np.int64)[pair]
                             for pair in range(10) for extra in range(1, 4)]
        wanted = np.concatenate(wanted)
        wanted = wanted[(wanted <= shoe).all(axis=1)]
        self.keys, first = np.unique(wanted @ _KEY, return_index=True)
        removed = wanted[first]
        dealer = dealer_outcomes(up, shoe - removed, rules["hits_soft17"])
        # stand value by the player's total: below 17, then 17..21 (a Blackjack beats every non-natural)
        self.p_bj = dealer[:, _BJ]
        made = dealer[:, :5]
        below = np.concatenate([np.zeros((len(made), 1)), np.cumsum(made, axis=1)[:, :-1]], axis=1)
        above = made.sum(axis=1, keepdims=True) - np.cumsum(made, axis=1)
        self.stand_by_total = np.hstack([(2 * dealer[:, _BUST] - 1)[:, None],
                                         dealer[:, _BUST, None] + below - above - self.p_bj[:, None]])
        self.left = shoe.sum()
        self._values = {}

    def refund(self):
        """Per multiset, what obo gives a doubled hand back: the dealer's Blackjack costs one stake, not
        two, and its chance after the double's card is on average its chance now (BJ-17.3); 0 without obo."""
        if not self.rules["obo"]:
            return np.zeros(len(self.counts))
        rows = self.rows(self.counts)
        return np.where(rows >= 0, self.p_bj[np.maximum(rows, 0)], np.nan)

    def rows(self, removed):
        """Row of each removal (rows of rank counts) in the tables, -1 where the shoe lacks the cards."""
        keys = np.asarray(removed) @ _KEY
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        return np.where(self.keys[at] == keys, at, -1)

    def values(self, pair=None, extra=0):
        """(stand, hit, best of the two, double) per multiset, with `extra` more cards of rank `pair` out
        of the shoe (other split hands' first cards); NaN where the multiset lacks that rank or the shoe
        has not the cards. A dealer Blackjack takes every stake here (obo is added by the callers)."""
        if (pair, extra) not in self._values:
            self._values[pair, extra] = self._compute(pair, extra)
        return self._values[pair, extra]

    def _compute(self, pair, extra):
        counts, hard, ace, total, child, index = _compositions()
        gone = counts.copy()
        if extra:
            gone[:, pair] += extra
        rows = self.rows(gone)
        ok = rows >= 0
        if pair is not None:
            ok &= counts[:, pair] > 0
        tcat = np.clip(total - 16, 0, 5)
        stand = np.where(ok, self.stand_by_total[rows, tcat], np.nan)
        left = self.shoe[None, :] - gone
        p = np.where(ok[:, None], left / np.maximum(self.left - gone.sum(axis=1), 1)[:, None], 0.0)
        hit = np.full(len(counts), np.nan)
        best = np.full(len(counts), np.nan)
        dbl = np.full(len(counts), np.nan)
        # children have higher hard totals: fill from 21 down
        for h in range(21, 0, -1):
            at = np.flatnonzero(ok & (hard == h))
            if not len(at):
                continue
            kids = child[at]
            kid_best = np.where(kids >= 0, best[np.maximum(kids, 0)], -1.0)
            kid_stand = np.where(kids >= 0, stand[np.maximum(kids, 0)], -1.0)
            pk = p[at]
            kid_best = np.where(pk > 0, kid_best, 0.0)
            kid_stand = np.where(pk > 0, kid_stand, 0.0)
            hit[at] = (pk * kid_best).sum(axis=1)
            best[at] = np.maximum(stand[at], hit[at])
            dbl[at] = 2 * (pk * kid_stand).sum(axis=1)
        return stand, hit, best, dbl

    def split(self, pair):
        """A box's value after splitting a pair of rank index `pair`: each hand's second card and play
        from the shoe less the up card and the pair cards dealt so far; a second pair card re-splits
        up to max_hands hands (aces: ace_hands, one card each). obo: each hand is played for its value
        without the dealer's Blackjack, which then costs the box one stake."""
        index = _compositions()[5]
        rules, shoe = self.rules, self.shoe
        one = [0] * 10
        one[pair] = 1
        hand_at = [index[tuple(one[:x] + [one[x] + 1] + one[x + 1:])] for x in range(10)]
        top = rules["ace_hands"] if pair == ACE else rules["max_hands"]
        das = rules["das"] and pair != ACE

        def hand_value(m, x):  # the hand (pair, x) with the other m - 1 pair cards out
            stand, hit, best, dbl = self.values(pair, m - 1)
            i = hand_at[x]
            bj = self.p_bj[self.rows([self.counts[i] + (m - 1) * np.eye(10, dtype=np.int64)[pair]])[0]]
            if not rules["obo"]:
                bj = 0.0
            if pair == ACE:
                return stand[i] + bj
            return max(best[i] + bj, dbl[i] + 2 * bj) if das else best[i] + bj

        created = rules["split_count"] == "created"
        memo = {}

        def waiting(m, queue):
            """The value of the hands still to get their second card (`queue`: the pair cards out when
            each was made, the next one first), m pair cards out. A hand is played from the shoe less
            m pair cards ('dealt') or less the pair cards out when it was made ('created')."""
            if not queue:
                return 0.0
            key = (m, queue if created else len(queue))
            if key in memo:
                return memo[key]
            left = shoe.astype(np.float64)
            left[pair] -= m
            if left[pair] < 0:
                raise RuleError("more pair cards split than the shoe holds")
            p = left / left.sum()
            out = queue[0] if created else m
            if m < top:  # a pair card makes a new hand, played after this one, which draws again
                value = p[pair] * waiting(m + 1, (queue[0], m + 1) + queue[1:])
                value += (1 - p[pair]) * waiting(m, queue[1:])
                value += sum(p[x] * hand_value(out, x) for x in range(10) if x != pair and p[x] > 0)
            else:
                value = sum(p[x] * hand_value(out, x) for x in range(10) if p[x] > 0) + waiting(m, queue[1:])
            memo[key] = value
            return value
        box_bj = self.p_bj[self.rows([2 * np.eye(10, dtype=np.int64)[pair]])[0]] if rules["obo"] else 0.0
        return waiting(2, (2, 2)) - box_bj


RANKS = "A23456789T"
# Wizard of Odds, Blackjack Appendix 9 (6 and 8 decks, dealer hits soft 17, no hole card): a dealer
# Blackjack takes everything staked, double any two cards and after splits, re-split to four hands but
# not aces, one card to each split ace, no surrender
APPENDIX_9 = {"hits_soft17": True, "das": True, "max_hands": 4, "ace_hands": 2, "obo": False,
              "surrender": False, "split_count": "dealt"}
# the seed's rules as the rulebook's defaults read them (blackjack.OPTIONS): BJ-6.1 hits soft 17, BJ-16.6
# / BJ-17.3 only the original stake to a dealer Blackjack, BJ-17.1 double any two and after splits,
# BJ-16.5 other pairs re-split once (3 hands), aces to BJ-16.1's four, BJ-18 surrender (not against an ace)
MACAU = {"hits_soft17": True, "das": True, "max_hands": 3, "ace_hands": 4, "obo": True, "surrender": True,
         "split_count": "dealt"}
SPLIT_COUNTS = ("dealt", "created")  # which pair cards a split hand's shoe lacks: docs/blackjack_exact.md


def _rules(given):
    rules = dict(MACAU)
    for key, value in given.items():
        if key not in rules:
            raise RuleError("unknown blackjack_exact rule %r (rules: %s)" % (key, ", ".join(sorted(rules))))
        rules[key] = value
    if not (2 <= rules["max_hands"] <= 4 and 2 <= rules["ace_hands"] <= 4):
        raise RuleError("max_hands and ace_hands are 2 to 4")
    if rules["split_count"] not in SPLIT_COUNTS:
        raise RuleError("split_count is one of %s, not %r" % (", ".join(SPLIT_COUNTS), rules["split_count"]))
    return rules


@lru_cache(maxsize=10)  # one rule set's ten up cards (~5 MB each)
def _against(up, decks, rules):
    if up not in RANKS or not 1 <= decks <= 8:
        raise RuleError("an up card is one of %s, decks 1 to 8" % RANKS)
    r = RANKS.index(up)
    shoe = full_shoe(decks)
    shoe[r] -= 1
    return _AgainstUp(r, shoe, dict(rules))


def against(up, decks=6, **rules):
    """The values against face-up rank `up` (a character of RANKS) from a full shoe of `decks` decks."""
    return _against(up, decks, tuple(sorted(_rules(rules).items())))


def hand_values(up, cards, decks=6, **rules):
    """{'stand', 'hit', 'double'} per unit staked for the player's `cards` (a string of RANKS) against
    `up`, each action followed by the best play for the exact cards then held (a two-card 21 is valued
    as any 21 here; edge() pays it as a Blackjack)."""
    counts = [0] * 10
    for c in cards:
        if c not in RANKS:
            raise RuleError("cards are characters of %s, not %r" % (RANKS, c))
        counts[RANKS.index(c)] += 1
    i = _compositions()[5].get(tuple(counts))
    if i is None:
        raise RuleError("%r totals more than 21" % cards)
    table = against(up, decks, **rules)
    stand, hit, _, dbl = table.values()
    if np.isnan(stand[i]):
        raise RuleError("the shoe does not hold %r and the up card" % cards)
    return {"stand": float(stand[i]), "hit": float(hit[i]), "double": float(dbl[i] + table.refund()[i])}


def edge(decks=6, **rules):
    """The player's expected return per unit of the main bet from a full shoe, the best action for each
    first two cards and up card (a Blackjack pays 3:2, BJ-10.2; a pair may be split, BJ-16)."""
    full = full_shoe(decks)
    index = _compositions()[5]
    ev = 0.0
    for up in range(10):
        table = against(RANKS[up], decks, **rules)
        stand, hit, best, dbl = table.values()
        dbl = dbl + table.refund()
        shoe = table.shoe
        surrender = table.rules["surrender"] and up != ACE  # BJ-18: final, half the stake
        n = shoe.sum()
        for a in range(10):
            for b in range(a, 10):
                c = [0] * 10
                c[a] += 1
                c[b] += 1
                i = index[tuple(c)]
                p_bj = table.p_bj[table.rows([c])[0]]
                p = shoe[a] * (shoe[b] - (a == b)) / (n * (n - 1)) * (1 if a == b else 2)
                if (a, b) == (ACE, TEN):
                    value = 1.5 * (1 - p_bj)
                else:
                    value = max(stand[i], hit[i], dbl[i])
                    if a == b:
                        value = max(value, table.split(a))
                    if surrender:
                        value = max(value, -0.5)
                ev += full[up] / full.sum() * p * value
    return ev
