"""Progressive jackpot awards of Caribbean Stud, Fortune 3 and baccarat A/B/C: one round's hits -> payouts.

settle(game, hits, pool_cents, seed_cents, fixed_cents, ...) -> (payouts, new_pool_cents) is a pure
function over integer cents, the oracle the firmware's pool is tested against. `hits` are
(seat, class_id) pairs, seats numbered 1.. from the dealer's left; `payouts` is the ordered list of
(seat, class_id, amount_cents). settle_detail() returns the same plus the accounting.

What the articles say, and how each gap is filled (every choice below is a keyword argument):
- Order: boxes are paid from the dealer's left (CSP-10.4, F3-15.3); a straight flush is paid before a
  royal flush of the same round (CSP-10.7, F3-15.5), so a royal waits until every straight flush of
  the round is paid and otherwise keeps its seat's place. Baccarat's Art. 17 states no order: seats
  from the dealer's left are used.
- Straight flush (CSP-10.2.2, CSP-10.6, F3-15.4): each gets max(fixed, 10% of the pool); "each gets
  10%" is read as 10% of one base, the pool when the round's first straight flush is paid.
- Royal flush (CSP-10.2.1, CSP-10.5): max(fixed, the whole pool); two or more royals "share the pool or
  the fixed amount, whichever is higher": royal_share='split_higher' (default) splits max(fixed, pool),
  'each_higher' gives each max(fixed, pool / n). Fortune 3 states a single royal only (F3-15 and
  F3-16.3.1); several royals are settled as Caribbean Stud (Interpretation, flagged).
- Baccarat (BAC-17.6 to 17.12): every award is split equally among that round's winners of it; royal
  (A), six of a kind (B) and six of one rank and colour (C) take the whole pool; paradise straight (A)
  takes max(fixed, 10%); C's six of a kind takes max(fixed, X%) where X is not stated (pct_bp must
  give it); C's five of a kind has no award in Art. 17 (BAC-17.12): it pays 0 unless fixed_cents
  gives one.
- The pool "falls accordingly" after each payout and, "once fully paid out", restarts from the minimum
  (CSP-10.8, F3-15.6). Neither text exempts the fixed amounts, so by default they are paid out of the
  pool too (fixed_from_pool=True); fixed_from_pool=False has the house pay every fixed amount (and the
  fixed side of a max(fixed, %) award) without touching the pool. An award larger than the pool
  empties it; the excess is paid by the house (house_funded) and the pool restarts from the seed.
- Cents: a percentage or a share that is not whole is rounded down; the cents left over stay in the
  pool (after a whole-pool award they are carried into the restarted pool: new pool = seed + rest).

Accounting, exactly: sum(amounts) + new_pool = pool + reseeds * seed + house_funded.
The regulations state no contribution rate; contribute() is the design's carried-remainder rule.
"""
from .errors import RuleError
from .options import Option

POOL, PERCENT, FIXED, NONE = "pool", "percent", "fixed", "none"

# class -> (kind, default basis points of the pool for PERCENT); `shared`: one award split per round
_POKER = {
    "royal_flush": (POOL, None),  # CSP-10.2.1 / F3-16.3.1
    "straight_flush": (PERCENT, 1000),  # CSP-10.2.2 / F3-16.3.2
    "four_of_a_kind": (FIXED, None),  # CSP-10.2.3 / F3-16.3.3
    "full_house": (FIXED, None),  # CSP-10.2.4 / F3-16.3.4
    "flush": (FIXED, None),  # CSP-10.2.5 / F3-16.3.5
}
GAMES = {
    "caribbean_stud": {"classes": _POKER, "shared": False},
    "fortune3": {"classes": _POKER, "shared": False},
    "baccarat_a": {"shared": True, "classes": {
        "royal": (POOL, None),  # BAC-17.6
        "paradise_straight": (PERCENT, 1000),  # BAC-17.7
        "four_of_a_kind": (FIXED, None),  # BAC-17.8
        "two_pairs": (FIXED, None),
        "three_of_a_kind": (FIXED, None),
        "one_pair": (FIXED, None),
    }},
    "baccarat_b": {"shared": True, "classes": {
        "six_of_a_kind": (POOL, None),  # BAC-17.6
        "five_of_a_kind": (FIXED, None),  # BAC-17.9
        "two_threes": (FIXED, None),
        "four": (FIXED, None),
        "three": (FIXED, None),
    }},
    "baccarat_c": {"shared": True, "classes": {
        "six_same_colour": (POOL, None),  # BAC-17.10
        "six_of_a_kind": (PERCENT, None),  # BAC-17.11: the percentage is not stated
        "five_of_a_kind": (NONE, None),  # BAC-13.1.4.4.C.3 lists it, BAC-17.12 pays nothing
        "two_threes": (FIXED, None),  # BAC-17.12
        "four": (FIXED, None),
        "three": (FIXED, None),
    }},
}
ROYAL_SHARES = ("split_higher", "each_higher")
_FIXED_HELP = {
    "royal_flush": "fixed amount in cents; the royal flush takes the higher of it and the whole pool",
    "straight_flush": "fixed amount in cents; a straight flush takes the higher of it and 10% of the pool",
}
_FIXED_DEFAULTS = {"royal_flush": 0, "straight_flush": 0, "four_of_a_kind": 10_000, "full_house": 7_500,
                   "flush": 5_000}


def poker_fixed_options(article):
    """The options fixed_<class> (cents) of a poker progressive's five classes, which CSP-10.2.1-10.2.5
    and F3-16.3.1-16.3.5 number in the same order: `article` is the paragraph they are numbered under."""
    return [Option("fixed_" + cls, _FIXED_DEFAULTS[cls], "int", lo=0, hi=10 ** 12, article="%s.%d" % (article, i),
                   help=_FIXED_HELP.get(cls, "fixed amount in cents"))
            for i, cls in enumerate(_POKER, 1)]


def _money(name, value):
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RuleError("%s must be a whole number of cents >= 0, got %r" % (name, value))
    return value


def _check(game, hits, pool_cents, seed_cents, fixed_cents, pct_bp, royal_share):
    if game not in GAMES:
        raise RuleError("unknown progressive game %r (games: %s)" % (game, ", ".join(GAMES)))
    classes = GAMES[game]["classes"]
    _money("pool_cents", pool_cents)
    _money("seed_cents", seed_cents)
    if royal_share not in ROYAL_SHARES:
        raise RuleError("royal_share must be one of %s, got %r" % (", ".join(ROYAL_SHARES), royal_share))
    fixed = dict(fixed_cents or {})
    for cls, amount in fixed.items():
        if cls not in classes:
            raise RuleError("fixed amount for %r, which is not a %s class (%s)" % (cls, game, ", ".join(classes)))
        _money("fixed amount of %s" % cls, amount)
    bp = {c: d for c, (kind, d) in classes.items() if kind == PERCENT}
    for cls, value in (pct_bp or {}).items():
        if cls not in bp:
            raise RuleError("%r is not a percentage award of %s" % (cls, game))
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 10000:
            raise RuleError("percentage of %s must be 0..10000 basis points, got %r" % (cls, value))
        bp[cls] = value
    seats = set()
    checked = []
    for hit in hits:
        try:
            seat, cls = hit
        except (TypeError, ValueError):
            raise RuleError("a hit is (seat, class), got %r" % (hit,)) from None
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 1:
            raise RuleError("seat must be a whole number from 1 (dealer's left), got %r" % (seat,))
        if seat in seats:
            raise RuleError("seat %d has two hits in one round: a box holds one hand" % seat)
        if cls not in classes:
            raise RuleError("%r is not a %s progressive class (%s)" % (cls, game, ", ".join(classes)))
        kind = classes[cls][0]
        if kind == FIXED and cls not in fixed:
            raise RuleError("no fixed amount given for %s %s (fixed_cents[%r])" % (game, cls, cls))
        if kind == PERCENT and bp[cls] is None:
            raise RuleError("%s %s pays max(fixed, a percentage of the pool) that the regulation leaves "
                            "to the house: give pct_bp[%r]" % (game, cls, cls))
        seats.add(seat)
        checked.append((seat, cls))
    return classes, fixed, bp, sorted(checked)


def _events(game, classes, hits):
    """Award events in payment order: (class, [seats]); shared classes are one event per class."""
    shared = GAMES[game]["shared"]
    events, index_of = [], {}
    for seat, cls in hits:  # seat order: from the dealer's left (CSP-10.4, F3-15.3)
        group = shared or classes[cls][0] == POOL  # several royals share (CSP-10.5)
        if group and cls in index_of:
            events[index_of[cls]][1].append(seat)
            continue
        if group:
            index_of[cls] = len(events)
        events.append((cls, [seat]))
    if not shared:  # CSP-10.7 / F3-15.5: the straight flushes before the royal
        last_sf = max((i for i, (cls, _) in enumerate(events) if cls == "straight_flush"), default=-1)
        royal = [i for i, (cls, _) in enumerate(events) if cls == "royal_flush" and i < last_sf]
        if royal:
            moved = events.pop(royal[0])
            events.insert(last_sf, moved)  # last_sf shifted down by the pop: lands right after it
    return events


def settle_detail(game, hits, pool_cents, seed_cents, fixed_cents=None, pct_bp=None,
                  fixed_from_pool=True, royal_share="split_higher"):
    """settle() with the accounting: {"payouts", "pool", "reseeds", "house_funded"} (see the module)."""
    classes, fixed, bp, hits = _check(game, hits, pool_cents, seed_cents, fixed_cents, pct_bp, royal_share)
    pool, reseeds, house, payouts, bases = pool_cents, 0, 0, [], {}
    for cls, seats in _events(game, classes, hits):
        kind = classes[cls][0]
        n = len(seats)
        fix = fixed.get(cls, 0)
        if kind == POOL:
            if royal_share == "each_higher" and not GAMES[game]["shared"]:
                share = max(fix, pool // n)
            else:
                share = max(fix, pool) // n
            paid = share * n
            take = min(paid, pool)
            house += paid - take
            pool = seed_cents + (pool - take)  # the whole pool is won: restart from the seed (CSP-10.8)
            reseeds += 1
        else:
            if kind == PERCENT:
                base = bases.setdefault(cls, pool)  # every straight flush of a round: one base (CSP-10.6)
                pct = base * bp[cls] // 10000
                total = max(fix, pct)
                from_pool = fixed_from_pool or pct >= fix
            elif kind == FIXED:
                total, from_pool = fix, fixed_from_pool
            else:
                total, from_pool = fix, fixed_from_pool  # NONE: 0 unless the house set an amount
            share = total if not GAMES[game]["shared"] else total // n
            paid = share * n
            take = min(paid, pool) if from_pool else 0
            house += paid - take
            if from_pool and paid:
                pool -= take
                if pool == 0:  # fully paid out: restart from the minimum (CSP-10.8, F3-15.6)
                    pool = seed_cents
                    reseeds += 1
        for seat in seats:
            payouts.append((seat, cls, share))
    return {"payouts": payouts, "pool": pool, "reseeds": reseeds, "house_funded": house}


def settle(game, hits, pool_cents, seed_cents, fixed_cents=None, pct_bp=None,
           fixed_from_pool=True, royal_share="split_higher"):
    """(payouts, new_pool_cents) of one round; see the module docstring for every rule and choice."""
    out = settle_detail(game, hits, pool_cents, seed_cents, fixed_cents, pct_bp, fixed_from_pool, royal_share)
    return out["payouts"], out["pool"]


def contribute(pool_cents, carry, bet_cents, rate_bp):
    """(new_pool_cents, new_carry): add rate_bp basis points of a bet, carrying the fraction of a cent
    (in 1/10000 cent units) so that pool + paid = seed + sum of contributions exactly (docs/rulebook.md)."""
    _money("pool_cents", pool_cents)
    _money("bet_cents", bet_cents)
    if not isinstance(carry, int) or isinstance(carry, bool) or not 0 <= carry < 10000:
        raise RuleError("carry must be 0..9999 (ten-thousandths of a cent), got %r" % (carry,))
    if not isinstance(rate_bp, int) or isinstance(rate_bp, bool) or not 0 <= rate_bp <= 10000:
        raise RuleError("rate must be 0..10000 basis points, got %r" % (rate_bp,))
    whole, carry = divmod(bet_cents * rate_bp + carry, 10000)
    return pool_cents + whole, carry
