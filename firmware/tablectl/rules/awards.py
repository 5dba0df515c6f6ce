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

GAMES = ("caribbean_stud", "fortune3", "baccarat_a", "baccarat_b", "baccarat_c")  # those with a table


def table(game):
    """(class ids by class code, {class id: (kind, default percent_bp)}, shared) of one game, the
    same table as rulebook.progressive.GAMES."""
    if game in ("caribbean_stud", "fortune3"):  # CSP-10.2, F3-16.3
        return hands.CLASS_IDS, {
            "flush": ("fixed", 0), "full_house": ("fixed", 0), "four_of_a_kind": ("fixed", 0),
            "straight_flush": ("percent", 1000), "royal_flush": ("pool", 10000)}, False
    if game == "baccarat_a":  # BAC-17.6, 17.7, 17.8
        return hands.BACCARAT_CLASS_IDS["a"], {
            "royal": ("pool", 10000), "paradise_straight": ("percent", 1000), "four_of_a_kind": ("fixed", 0),
            "two_pairs": ("fixed", 0), "three_of_a_kind": ("fixed", 0), "one_pair": ("fixed", 0)}, True
    if game == "baccarat_b":  # BAC-17.6, 17.9
        return hands.BACCARAT_CLASS_IDS["b"], {
            "six_of_a_kind": ("pool", 10000), "five_of_a_kind": ("fixed", 0), "two_threes": ("fixed", 0),
            "four": ("fixed", 0), "three": ("fixed", 0)}, True
    if game == "baccarat_c":  # BAC-17.10, 17.11 (percentage not stated), 17.12; C.3 has no award
        return hands.BACCARAT_CLASS_IDS["c"], {
            "six_same_colour": ("pool", 10000), "six_of_a_kind": ("percent", None),
            "five_of_a_kind": ("none", 0), "two_threes": ("fixed", 0), "four": ("fixed", 0),
            "three": ("fixed", 0)}, True
    raise ValueError("progressive game must be one of %s, got %r" % (", ".join(GAMES), game))


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
            raise ValueError("%s %s pays max(fixed, a percentage of the pool) that the regulation "
                             "leaves to the house (BAC-17.11): give pct_bp[%r]" % (game, cid, cid))
        if kind == "fixed" and cid not in fixed_cents:
            raise ValueError("no fixed amount for %s %s" % (game, cid))
        awards[ids.index(cid)] = (kind, fixed_cents.get(cid, 0), bp)
    return {"seed_cents": seed_cents, "rate_bp": rate_bp, "limit_cents": limit_cents, "awards": awards,
            "shared": shared, "fixed_from_pool": fixed_from_pool, "royal_share_each": royal_share_each}
