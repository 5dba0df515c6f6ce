"""Lamp-board wiring per table layout: the spot ids (games.md identifiers) in lamp-chain order.

Lamp index i of a board's chain is wired under the spot layout_for(game)[i]. The order follows the
printed layout row by row, so a chain can be cut short after the spots a casino prints; spots with no
lamp are simply not lit. 'progressive' is one lamp per seat (the bet-accepted light, CSP-10.1).
A layout is built when asked for (at boot, to make the controller's spot -> lamp table) and then
dropped: a few hundred strings are not worth keeping in a board's heap."""


def _pairs(lo, hi):
    return [(a, b) for a in range(lo, hi + 1) for b in range(a + 1, hi + 1)]


def _dice():
    ids = ["small", "odd", "any_triple", "even", "big"]
    ids += ["double_%d" % n for n in range(1, 7)]
    ids += ["triple_%d" % n for n in range(1, 7)]
    ids += ["total_%d" % t for t in range(4, 18)]
    ids += ["combo_%d_%d" % p for p in _pairs(1, 6)]
    ids += ["single_%d" % n for n in range(1, 7)]
    ids += ["double_single_%d_%d" % (a, b) for a in range(1, 7) for b in range(1, 7) if a != b]
    ids += ["three_%d_%d_%d" % (a, b, c) for a, b in _pairs(1, 6) for c in range(b + 1, 7)]
    ids += ["four_%d_%d_%d_%d" % (a, b, c, d) for a, b in _pairs(1, 6) for c in range(b + 1, 7)
            for d in range(c + 1, 7)]
    return tuple(ids)


FACES = ("fish", "prawn", "gourd", "coin", "crab", "rooster")  # FPC-1.1: faces 1..6
COLOURS = ("red", "green", "blue")


def _fish_prawn_crab():
    ids = ["small", "big", "any_triple", "any_color3"]
    ids += ["triple_" + f for f in FACES]
    ids += ["single_" + f for f in FACES]
    for k in (1, 2, 3):
        ids += ["color%d_%s" % (k, c) for c in COLOURS]
    ids += ["total_%d" % t for t in range(4, 18)]
    return tuple(ids)


def _fantan():
    ids = ["fan_%d" % n for n in range(1, 5)]
    ids += ["kwok_1_2", "kwok_2_3", "kwok_3_4", "kwok_1_4"]
    ids += ["nim_%d_%d" % (w, p) for w in range(1, 5) for p in range(1, 5) if w != p]
    ids += ["nga_%d_%d_%d" % (a, b, p) for a, b in _pairs(1, 4) for p in range(1, 5) if p not in (a, b)]
    ids += ["sam_hong_%d_%d_%d" % (a, b, c) for a, b in _pairs(1, 4) for c in range(b + 1, 5)]
    return tuple(ids)


def _progressive():
    return tuple("seat_%d" % s for s in range(1, 8))


BUILDERS = {"sicbo": _dice, "fish_prawn_crab": _fish_prawn_crab, "fantan": _fantan, "progressive": _progressive}


def layout_for(game):
    """The layout a controller of `game` lights: dice and fan-tan their own, every progressive game its seats."""
    return BUILDERS[game]() if game in BUILDERS else _progressive()
