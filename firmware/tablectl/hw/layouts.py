"""Lamp-board wiring per table layout: the spot ids (games.md identifiers) in lamp-chain order.

Lamp index i of a board's chain is wired under the spot layout_for(game)[i]. The order follows the
printed layout row by row, so a chain can be cut short after the spots a casino prints; spots with no
lamp are simply not lit. 'progressive' is one lamp per seat (the bet-accepted light, CSP-10.1).
layout_for() yields the ids one at a time when asked for (at boot, to make the controller's spot -> lamp
table): the sic bo layout's 117 strings never sit in a board's heap at once."""


def _pairs(lo, hi):
    return [(a, b) for a in range(lo, hi + 1) for b in range(a + 1, hi + 1)]


def _dice():
    yield from ("small", "odd", "any_triple", "even", "big")
    for n in range(1, 7):
        yield "double_%d" % n
    for n in range(1, 7):
        yield "triple_%d" % n
    for t in range(4, 18):
        yield "total_%d" % t
    for p in _pairs(1, 6):
        yield "combo_%d_%d" % p
    for n in range(1, 7):
        yield "single_%d" % n
    for a in range(1, 7):
        for b in range(1, 7):
            if a != b:
                yield "double_single_%d_%d" % (a, b)
    for a, b in _pairs(1, 6):
        for c in range(b + 1, 7):
            yield "three_%d_%d_%d" % (a, b, c)
    for a, b in _pairs(1, 6):
        for c in range(b + 1, 7):
            for d in range(c + 1, 7):
                yield "four_%d_%d_%d_%d" % (a, b, c, d)


FACES = ("fish", "prawn", "gourd", "coin", "crab", "rooster")  # FPC-1.1: faces 1..6
COLOURS = ("red", "green", "blue")


def _fish_prawn_crab():
    yield from ("small", "big", "any_triple", "any_color3")
    for f in FACES:
        yield "triple_" + f
    for f in FACES:
        yield "single_" + f
    for k in (1, 2, 3):
        for c in COLOURS:
            yield "color%d_%s" % (k, c)
    for t in range(4, 18):
        yield "total_%d" % t


def _fantan():
    for n in range(1, 5):
        yield "fan_%d" % n
    yield from ("kwok_1_2", "kwok_2_3", "kwok_3_4", "kwok_1_4")
    for w in range(1, 5):
        for p in range(1, 5):
            if w != p:
                yield "nim_%d_%d" % (w, p)
    for a, b in _pairs(1, 4):
        for p in range(1, 5):
            if p not in (a, b):
                yield "nga_%d_%d_%d" % (a, b, p)
    for a, b in _pairs(1, 4):
        for c in range(b + 1, 5):
            yield "sam_hong_%d_%d_%d" % (a, b, c)


def _progressive():
    for s in range(1, 8):
        yield "seat_%d" % s


BUILDERS = {"sicbo": _dice, "fish_prawn_crab": _fish_prawn_crab, "fantan": _fantan, "progressive": _progressive}


def layout_for(game):
    """The spot ids, in lamp order, a controller of `game` lights (an iterator: dice and fan-tan their own,
    every progressive game its seats)."""
    return BUILDERS[game]() if game in BUILDERS else _progressive()
