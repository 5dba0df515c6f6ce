"""Blackjack basic strategy for the 56/2004 rules, from exact infinite-deck expectations (Fractions).

Infinite deck: every card is an ace, 2..9 with probability 1/13 each and a ten-value with 4/13, drawn
independently, so a hand's value depends only on its total, softness and card count. Rules modelled:
no hole card (the dealer's Blackjack shows after the players act), dealer hits soft 17 by option,
original-stake-only losses to a dealer Blackjack (BJ-16.6, 17.3; doubles on 11 only by option under
`double`=`eleven`), doubling per `double` (after splits too, not on split aces), splits to
`max_split_hands` with aces re-split and other pairs re-split `resplit_non_aces` times (the player
always re-splits when splitting was right), surrender (BJ-18, not against an ace, so it is also worth
half a stake against a dealer Blackjack behind a ten), the five-card payout (BJ-19).
Left out of the expectations (the simulation includes them): the suited 6-7-8 / 7-7-7 bonus (BJ-15),
the five-card payout's worth inside a split box against a dealer Blackjack, and card removal.

Values are E[net per unit of the original stake]; an action's value is kept as (against a dealer
Blackjack, against any other dealer hand) so the no-hole-card risk is weighed exactly.
"""
from fractions import Fraction

from .round import dealer_hits

P_CARD = {v: Fraction(4 if v == 10 else 1, 13) for v in range(1, 11)}   # value 1 = ace
UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
PAIRS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)   # value of the pair's rank (10: two of one ten rank)
P_RANK = Fraction(1, 13)                   # chance the next card has one given rank
HALF = Fraction(1, 2)


def best(hard, ace):
    """(total, soft) for a hard sum with or without an ace."""
    if ace and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def up_label(v):
    return "A" if v == 1 else "T" if v == 10 else str(v)


def dealer_distribution(up, opts):
    """{17..21, 'bust', 'bj': probability} of the dealer's final hand from face-up value `up`."""
    memo = {}

    def play(hard, ace, n):
        key = (hard, ace, n)
        if key in memo:
            return memo[key]
        total, soft = best(hard, ace)
        if total > 21:
            out = {"bust": Fraction(1)}
        elif not dealer_hits(total, soft, n, opts):
            out = {total: Fraction(1)}
        else:
            out = {}
            for v, p in P_CARD.items():
                for k, q in play(hard + v, ace or v == 1, n + 1).items():
                    out[k] = out.get(k, 0) + p * q
        memo[key] = out
        return out

    dist = {}
    for v, p in P_CARD.items():
        hard, ace = up + v, up == 1 or v == 1
        branch = {"bj": Fraction(1)} if best(hard, ace)[0] == 21 else play(hard, ace, 2)
        for k, q in branch.items():
            dist[k] = dist.get(k, 0) + p * q
    return dist


class UpCard:
    """Every action's value against one dealer face-up card."""

    def __init__(self, up, opts, five_card=True):
        self.up, self.opts = up, opts
        dist = dealer_distribution(up, opts)
        self.p_bj = dist.pop("bj", Fraction(0))
        rest = 1 - self.p_bj
        self.dealer = {k: p / rest for k, p in dist.items()}   # no dealer Blackjack
        self.stand_memo, self.unsplit_memo, self.split_memo, self.acts_memo = {}, {}, {}, {}
        self.five_ok = five_card and up != 1   # BJ-19.1 (five_card=False: to value the rule)
        self.refund_double = opts["double"] != "eleven" or opts["dealer_bj_refunds_double"]  # BJ-17.3

    def combined(self, pair):
        return self.p_bj * pair[0] + (1 - self.p_bj) * pair[1]

    def stand(self, total):
        """E[net] of standing on `total` against a dealer without Blackjack."""
        if total > 21:
            return Fraction(-1)
        if total not in self.stand_memo:
            ev = Fraction(0)
            for k, p in self.dealer.items():
                if k == "bust" or k < total:
                    ev += p
                elif k > total:
                    ev -= p
            self.stand_memo[total] = ev
        return self.stand_memo[total]

    def double_allowed(self, hard, ace, split=False):
        rule = self.opts["double"]  # BJ-17.1.1-17.1.3
        return rule == "any" or (rule == "first_two" and not split) or (rule == "eleven" and best(hard, ace)[0] == 11)

    # -- a hand that was not split: values as (vs dealer BJ, vs other) ------------------------
    def _memo(self, kind, key, make):
        key = (kind,) + key
        if key not in self.acts_memo:
            self.acts_memo[key] = make()
        return dict(self.acts_memo[key])

    def unsplit_actions(self, hard, ace, n):
        """{action: (vs BJ, vs other)} for an unsplit hand of n >= 2 cards (double only at n == 2)."""
        return self._memo("unsplit", (hard, ace, min(n, 6)), lambda: self._unsplit_actions(hard, ace, n))

    def _unsplit_actions(self, hard, ace, n):
        total = best(hard, ace)[0]
        acts = {"stand": (Fraction(-1), self.stand(total))}
        if total < 21:
            hit_bj, hit_other = Fraction(0), Fraction(0)
            for v, p in P_CARD.items():
                a, b = self.unsplit_value(hard + v, ace or v == 1, n + 1)
                hit_bj += p * a
                hit_other += p * b
            acts["hit"] = (hit_bj, hit_other)
            if n == 2 and self.double_allowed(hard, ace):
                other = sum(p * 2 * self.stand(best(hard + v, ace or v == 1)[0]) for v, p in P_CARD.items())
                acts["double"] = (Fraction(-1 if self.refund_double else -2), other)
        if n == 5 and total <= 21 and self.five_ok:
            acts["five"] = (HALF, HALF)
        return acts

    def unsplit_value(self, hard, ace, n):
        if best(hard, ace)[0] > 21:
            return (Fraction(-1), Fraction(-1))
        key = (hard, ace, min(n, 6))
        if key not in self.unsplit_memo:
            acts = self.unsplit_actions(hard, ace, n)
            if n == 2:
                acts.pop("double", None)   # reached by hitting: value after two cards never doubles
            self.unsplit_memo[key] = max(acts.values(), key=self.combined)
        return self.unsplit_memo[key]

    # -- a hand of a split box: values against a dealer without Blackjack -----------------------
    def split_actions(self, hard, ace, n):
        """{action: value vs other dealer hands} for a hand of a split box."""
        return self._memo("split", (hard, ace, min(n, 6)), lambda: self._split_actions(hard, ace, n))

    def _split_actions(self, hard, ace, n):
        total = best(hard, ace)[0]
        acts = {"stand": self.stand(total)}
        if total < 21:
            acts["hit"] = sum(p * self.split_value(hard + v, ace or v == 1, n + 1) for v, p in P_CARD.items())
            if n == 2 and self.double_allowed(hard, ace, split=True):
                acts["double"] = sum(p * 2 * self.stand(best(hard + v, ace or v == 1)[0]) for v, p in P_CARD.items())
        if n == 5 and total <= 21 and self.five_ok:
            acts["five"] = HALF
        return acts

    def split_value(self, hard, ace, n):
        if best(hard, ace)[0] > 21:
            return Fraction(-1)
        key = (hard, ace, min(n, 6))
        if key not in self.split_memo:
            acts = self.split_actions(hard, ace, n)
            if n == 2:
                acts.pop("double", None)
            self.split_memo[key] = max(acts.values())
        return self.split_memo[key]

    def split_hand_start(self, hard, ace):
        """Best value of a split hand's first two cards (double allowed by the table's rule)."""
        return max(self.split_actions(hard, ace, 2).values())

    def split_ev(self, pair):
        """E[net] of splitting a pair of value `pair` (vs BJ the box loses its original stake)."""
        aces = pair == 1
        limit = self.opts["max_split_hands"] if aces else min(self.opts["max_split_hands"],
                                                               2 + self.opts["resplit_non_aces"])
        q = P_RANK
        memo = {}

        def hands(pending, count):
            """(expected finished hands holding pair + other card, expected hands stuck on the pair)."""
            if pending == 0:
                return (Fraction(0), Fraction(0))
            key = (pending, count)
            if key not in memo:
                if count < limit:
                    a = hands(pending + 1, count + 1)
                    pair_part = (q * a[0], q * a[1])
                else:
                    a = hands(pending - 1, count)
                    pair_part = (q * a[0], q * (a[1] + 1))
                b = hands(pending - 1, count)
                memo[key] = (pair_part[0] + (1 - q) * (b[0] + 1), pair_part[1] + (1 - q) * b[1])
            return memo[key]

        other_hands, stuck_hands = hands(2, 2)
        if aces:
            other = sum(P_CARD[v] * self.stand(best(1 + v, True)[0]) for v in P_CARD if v != 1) / (1 - q)
            stuck = self.stand(12)
        else:
            other = Fraction(0)
            for v, p in P_CARD.items():
                if v == pair:
                    p -= q   # the pair's own rank is a re-split, not an "other" card
                other += p * self.split_hand_start(pair + v, pair == 1 or v == 1)
            other /= (1 - q)
            stuck = self.split_hand_start(2 * pair, False)
        return (Fraction(-1), other_hands * other + stuck_hands * stuck)

    def first_two(self, hard, ace, pair=None):
        """{action: E[net]} for a box's first two cards (pair: value of a pair's rank, or None)."""
        return self._memo("first", (hard, ace, pair), lambda: self._first_two(hard, ace, pair))

    def _first_two(self, hard, ace, pair):
        total = best(hard, ace)[0]
        if total == 21:
            acts = {"stand": (1 - self.p_bj) * Fraction(3, 2)}
            if self.up in (1, 10):
                acts["even"] = Fraction(1)
            return acts
        acts = {name: self.combined(v) for name, v in self.unsplit_actions(hard, ace, 2).items()}
        if self.opts["surrender"] and self.up != 1:
            acts["surrender"] = -HALF
        if pair is not None and self.opts["max_split_hands"] >= 2:
            acts["split"] = self.combined(self.split_ev(pair))
        return acts


class Strategy:
    """Basic strategy and the infinite-deck expectation for one set of options."""

    def __init__(self, opts, five_card=True):
        self.opts = opts
        self.by_up = {up: UpCard(up, opts, five_card) for up in UPS}

    def first_two_best(self, up, hard, ace, pair=None):
        acts = self.by_up[up].first_two(hard, ace, pair)
        return max(acts, key=acts.get), acts

    def expectation(self):
        """Exact infinite-deck E[net per original stake] of the main bet under this basic strategy."""
        total = Fraction(0)
        for up in UPS:
            for a in P_CARD:
                for b in P_CARD:
                    p = P_CARD[a] * P_CARD[b]
                    hard, ace = a + b, a == 1 or b == 1
                    if a == b:
                        # same value: same rank with chance (1/13)/P(value); tens come in four ranks
                        same = P_RANK / P_CARD[a]
                        acts = self.by_up[up].first_two(hard, ace, a)
                        split_best = max(acts.values())
                        acts.pop("split", None)
                        total += P_CARD[up] * p * (same * split_best + (1 - same) * max(acts.values()))
                    else:
                        total += P_CARD[up] * p * max(self.by_up[up].first_two(hard, ace).values())
        return total

    # -- decisions for the simulation -------------------------------------------------------------
    def choose(self, up, hand_cards, legal, split_box, values):
        """The best legal decision for a hand (values: card values, 1 = ace) under this strategy."""
        hard, ace, n = sum(values), 1 in values, len(values)
        book = self.by_up[up]
        if split_box:
            acts = book.split_actions(hard, ace, n)
            if "split" in legal:
                return "split"           # re-split whenever the table allows (as the expectation assumes)
        elif n == 2:
            pair = values[0] if hand_cards[0].rank == hand_cards[1].rank else None
            acts = book.first_two(hard, ace, pair)
        else:
            acts = {k: book.combined(v) for k, v in book.unsplit_actions(hard, ace, n).items()}
        options = [a for a in acts if a in legal]
        return max(options, key=acts.get) if options else "stand"

    # -- the printed table ----------------------------------------------------------------------
    def code(self, up, hard, ace, pair=None):
        act, acts = self.first_two_best(up, hard, ace, pair)
        fallback = max(("hit", "stand"), key=lambda a: acts.get(a, Fraction(-2)))
        if act == "split":
            return "P"
        if act == "double":
            return "D" if fallback == "hit" else "Ds"
        if act == "surrender":
            return "R" + fallback[0]
        return {"hit": "H", "stand": "S", "even": "S"}[act]

    def table(self):
        head = "       " + " ".join("%3s" % up_label(u) for u in UPS)
        lines = ["Basic strategy, first two cards (dealer's face-up card across)", "", "hard", head]
        for total in range(5, 21):
            lines.append("%6d " % total + " ".join("%3s" % self.code(u, total, False) for u in UPS))
        lines += ["", "soft", head]
        for other in range(2, 10):
            lines.append("%6s " % ("A,%d" % other) + " ".join("%3s" % self.code(u, 1 + other, True) for u in UPS))
        lines += ["", "pairs", head]
        for pv in PAIRS:
            label = "%s,%s" % (up_label(pv), up_label(pv))
            lines.append("%6s " % label + " ".join("%3s" % self.code(u, 2 * pv, pv == 1, pv) for u in UPS))
        lines += ["", "H hit, S stand, D double (else hit), Ds double (else stand), P split,",
                  "Rh / Rs surrender (else hit / stand). Never insure; decline even money."]
        return "\n".join(lines)
