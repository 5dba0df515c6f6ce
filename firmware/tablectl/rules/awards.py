"""The regulations' progressive award tables, by game: Pool keyword arguments from a table's config.

    cfg = config_for('caribbean_stud', seed_cents=500000, rate_bp=2000, limit_cents=10000000,
                     fixed_cents={'flush': 5000, 'full_house': 7500, 'four_of_a_kind': 10000})
    p = pool.Pool(**cfg)
    GAMES           the progressive games
    table(game) -> (class ids by class code, {class id: (kind, default percent_bp)}, shared)

Poker games (CSP-10.2, F3-16.3): flush, full house, four of a kind fixed; straight flush max(fixed,
10%); royal max(fixed, the pool); each box is paid its own award. Baccarat (BAC-17.6-17.12): each class
is one award split among the round's winners; A royal, B six of a kind and C six of one rank and
colour take the pool; A paradise straight max(fixed, 10%); C six of a kind max(fixed, X%) where the
regulation leaves X to the house (pct_bp must give it); C five of a kind is listed (BAC-13.1.4.4.C.3)
but Art. 17 gives it no award: kind 'none', 0 unless fixed_cents sets one. Kept apart from pool.py
so a board that only runs a pool does not hold these tables in RAM; a table is built when asked for
(a board runs one game: the others' tables are not kept).
"""
from . import hands
from . import PROGRESSIVE as GAMES  # the games with an award table


# Award kind and default percent_bp of each class code 1.. of a game, one letter a class (built into
# table()'s dict when asked: the letters cost a few bytes of heap, the dicts a few hundred):
# f fixed (CSP-10.2.3-10.2.5, F3-16.3, BAC-17.8/17.9/17.12), p max(fixed, 10%) (CSP-10.2.2, BAC-17.7),
# x max(fixed, X%) with X left to the house (BAC-17.11), P max(fixed, the pool) (CSP-10.2.1,
# BAC-17.6/17.10), n listed without an award (BAC-13.1.4.4.C.3 five of a kind)
_KINDS = ("fffpP", "fffpP", "ffffpP", "ffffP", "fffnxP")


def table(game):
    """(class ids by class code, {class id: (kind, default percent_bp)}, shared) of one game, the
    same table as rulebook.progressive.GAMES."""
    if game not in GAMES:
        raise ValueError("progressive game must be one of %s, got %r" % (", ".join(GAMES), game))
    g = GAMES.index(game)
    ids = hands.BACCARAT_CLASS_IDS[game[-1]] if g > 1 else hands.CLASS_IDS
    kinds = {"f": ("fixed", 0), "p": ("percent", 1000), "x": ("percent", None), "P": ("pool", 10000),
             "n": ("none", 0)}
    classes = {}
    k = 0
    for letter in _KINDS[g]:
        k += 1
        classes[ids[k]] = kinds[letter]
    return ids, classes, g > 1  # baccarat: each class one award shared by its winners (BAC-17)


def config_for(game, seed_cents, rate_bp, limit_cents, fixed_cents, pct_bp=None, fixed_from_pool=True,
               royal_share_each=False):
    """Pool keyword arguments for a game's award table; fixed_cents and pct_bp are keyed by class id
    (e.g. 'flush', 'six_of_a_kind'); every 'fixed' class needs its amount, others default to 0."""
    ids, classes, shared = table(game)
    fixed_cents = fixed_cents or {}
    pct_bp = pct_bp or {}
    for cid in fixed_cents:
        if cid not in classes:
            raise ValueError("%s has no class %r (classes: %s)" % (game, cid, ", ".join(ids[1:])))
    awards = {}
    for cid in classes:
        kind, bp = classes[cid]
        if cid in pct_bp:
            if kind != "percent":
                raise ValueError("%s %s is not a percentage award" % (game, cid))
            bp = pct_bp[cid]
        if bp is None:
            # max(fixed, X% of the pool): BAC-17.11 leaves X to the house
            raise ValueError("%s %s: give pct_bp[%r] (BAC-17.11)" % (game, cid, cid))
        if kind == "fixed" and cid not in fixed_cents:
            raise ValueError("no fixed amount for %s %s" % (game, cid))
        awards[ids.index(cid)] = (kind, fixed_cents.get(cid, 0), bp)
    return {"seed_cents": seed_cents, "rate_bp": rate_bp, "limit_cents": limit_cents, "awards": awards,
            "shared": shared, "fixed_from_pool": fixed_from_pool, "royal_share_each": royal_share_each}
