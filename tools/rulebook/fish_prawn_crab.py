"""Fish-Prawn-Crab dice (Dispatch 59/2004): every bet, settlement of a throw, exact odds over 216 throws.

Faces (FPC-1.1): 1 fish red, 2 prawn green, 3 gourd blue, 4 coin blue, 5 crab green, 6 rooster red.
A throw is written with points (1,2,5) or names (fish,prawn,crab; Chinese names too).
Bet ids: small, big, single_S, color1_C, color2_C, color3_C, any_color3, triple_S, any_triple, total_T
(S = fish..rooster, C = red/green/blue).
Interpretations:
- FPC-5.4 color1_C wins when exactly one die shows the colour (the main clause); its note, "one, three
  or none lose", is read as a misprint of "two, three or none".
- FPC-5.5 color2_C wins on exactly two dice of the colour; option color2_at_least=true also pays it on
  three (the other reading of "two of the three dice").
"""
from .options import Option, resolve_options, spec
from . import analysis, sicbo
from .sicbo import won

NAME = "fish_prawn_crab"
PICTURES = {1: "fish", 2: "prawn", 3: "gourd", 4: "coin", 5: "crab", 6: "rooster"}  # FPC-1.1
ALIASES = {1: ("fish", "魚"), 2: ("prawn", "蝦"), 3: ("gourd", "葫蘆"), 4: ("coin", "金錢"),
           5: ("crab", "蟹"), 6: ("rooster", "雞")}
COLOUR = {1: "red", 2: "green", 3: "blue", 4: "blue", 5: "green", 6: "red"}  # FPC-1.1
COLOURS = ("red", "green", "blue")
TOTAL_PAYS = {4: 50, 17: 50, 5: 18, 16: 18, 6: 14, 15: 14, 7: 12, 14: 12, 8: 8, 13: 8,
              9: 6, 10: 6, 11: 6, 12: 6}  # FPC-6.10: fixed, no ranges unlike Sic Bo

OPTIONS = spec(
    Option("color2_at_least", False, "bool", article="FPC-5.5",
           help="color2 also wins when all three dice show the colour (default: exactly two)"),
)


def _colour_count(throw, colour):
    return sum(n for face, n in throw.counts.items() if COLOUR[face] == colour)


def _table(opts):
    at_least = opts["color2_at_least"]
    label = PICTURES.__getitem__
    triples, any_triple = sicbo.triple_bets(label)
    table = sicbo.small_big_bets() + sicbo.single_bets(label)
    # FPC-5.4/6.4 exactly one die of the colour 1:1
    table += [("color1_%s" % c, "1:1", lambda t, c=c: won(_colour_count(t, c) == 1, 1)) for c in COLOURS]
    # FPC-5.5/6.5 two dice of the colour 3:1
    table += [("color2_%s" % c, "3:1", lambda t, c=c: won(_colour_count(t, c) == 2 or
                                                         (at_least and _colour_count(t, c) == 3), 3))
              for c in COLOURS]
    # FPC-5.6/6.6 all three dice of the colour 20:1
    table += [("color3_%s" % c, "20:1", lambda t, c=c: won(_colour_count(t, c) == 3, 20)) for c in COLOURS]
    # FPC-5.7/6.7 all three dice one colour 7:1
    table.append(("any_color3", "7:1", lambda t: won(len({COLOUR[f] for f in t.counts}) == 1, 7)))
    return table + triples + any_triple + sicbo.total_bets(TOTAL_PAYS)


def bets(opts=None):
    return sicbo.pays_of(_table(resolve_options(OPTIONS, opts)))


def parse_outcome(text, opts=None):
    return sicbo.parse_dice(text, ALIASES)


def outcome_text(outcome):
    return sicbo.dice_text(outcome)


def resolve(outcome, opts=None):
    opts = resolve_options(OPTIONS, opts)
    return sicbo.settle(_table(opts), sicbo.parse_dice(outcome, ALIASES))


def edge(opts=None):
    return sicbo.throw_edges(_table(resolve_options(OPTIONS, opts)))


# A regulation anomaly flags() always reports, whatever the edges.
COLOR1_NOTE = ("color1_red/green/blue: FPC-5.4's note (one, three or none of the colour lose) contradicts its "
               "main clause (only one die of the colour wins); settled by the main clause")


def flags(opts=None, edges=None):
    opts = resolve_options(OPTIONS, opts)
    return analysis.flag_lines(edges if edges is not None else edge(opts)) + [COLOR1_NOTE]


def simulate(rounds, seed, opts=None):
    """Monte Carlo cross-check of edge(): one unit on every bet each round, throws from Random(seed)."""
    return sicbo.throw_simulate(_table(resolve_options(OPTIONS, opts)), rounds, seed)


def strategy(opts=None):
    return "No decisions: every Fish-Prawn-Crab bet is settled by the three dice alone (FPC-5.1-5.10, FPC-6.1-6.10, FPC-7)."
