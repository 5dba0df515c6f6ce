"""Sic Bo (Dispatch 57/2004): every bet of the layout, settlement of a throw, exact odds over 216 throws.

Also the shaker-and-dice machinery Fish-Prawn-Crab shares (same three dice, same small/big/triple/total
rules): parse_dice, Throw, and the shared bet builders.

Bet ids (docs/rulebook.md): small, big, odd, even, single_N, triple_N, any_triple, total_T (4..17),
double_single_A_B (ordered: double A, single B), three_A_B_C, combo_A_B, double_N, four_A_B_C_D.
Interpretations (default first; the option named selects the other reading, whose edges flags() checks):
- SB-5.9 double_single_A_B: the player chooses both faces; wins on exactly A,A,B
  (double_single_faces=any: every double_single box wins on any throw of a pair and one other face).
- SB-5.10 three_A_B_C: three different chosen faces; wins on exactly A,B,C
  (three_faces=any: chosen faces may repeat, adding three_A_A_B-style ids, A<=B<=C).
- SB-5.12 short double_N: two equal chosen faces, as Macau layouts print them; wins when at least two
  dice show N, so also on the triple N (short_faces=any adds double_A_B, A<B: both faces show).
- SB-5.13 four_A_B_C_D: wins when the dice show three different faces, all among the four chosen.
- SB-7 names only small and big as losing on a triple, so odd/even still win on one (0% house edge,
  flagged); odd_even_lose_on_triple=true selects the common layout rule.
"""
from collections import Counter, namedtuple
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, permutations, product

from . import analysis
from .analysis import LOSS
from .errors import RuleError
from .options import Option, resolve_options, spec

NAME = "sicbo"
FACES = (1, 2, 3, 4, 5, 6)  # SB-1.1
THROWS = tuple(product(FACES, repeat=3))  # SB-1.1, FPC-1.2: balanced dice, every ordered throw equally likely

OPTIONS = spec(
    Option("pay_5_16", 18, "int", lo=18, hi=30, article="SB-6.6", help="totals 5 and 16 pay this to 1"),
    Option("pay_6_15", 14, "int", lo=14, hi=18, article="SB-6.6", help="totals 6 and 15 pay this to 1"),
    Option("odd_even_lose_on_triple", False, "bool", article="SB-7",
           help="odd and even lose on a triple (the layout rule; SB-7 itself names only small and big)"),
    Option("double_single_faces", "chosen", "choice", choices=("chosen", "any"), article="SB-5.9",
           help="double_single_A_B needs the chosen faces, or any pair and one other face wins"),
    Option("three_faces", "distinct", "choice", choices=("distinct", "any"), article="SB-5.10",
           help="three_A_B_C takes three different faces, or faces that may repeat"),
    Option("short_faces", "equal", "choice", choices=("equal", "any"), article="SB-5.12",
           help="short bets are on two equal faces (double_N), or also on two different ones (double_A_B)"),
)

# SB-6.6; totals 5/16 and 6/15 are ranges the house picks from (options above).
FIXED_TOTAL_PAYS = {4: 50, 17: 50, 7: 12, 14: 12, 8: 8, 13: 8, 9: 6, 10: 6, 11: 6, 12: 6}
SINGLE_PAYS = "1:1/2:1/3:1"  # SB-6.3: the face on one, two, three dice


class Throw(namedtuple("Throw", "dice counts total triple")):
    """Three dice plus what every bet looks at: count of each face, total, whether a triple."""
    __slots__ = ()

    @classmethod
    def of(cls, dice):
        counts = Counter(dice)
        return cls(tuple(dice), counts, sum(dice), len(counts) == 1)


def parse_dice(text, names=None):
    """'1,2,3' (or spaces; or face names from `names` {face: [aliases]}) -> a tuple of three faces."""
    if isinstance(text, str):
        parts = [p for p in text.replace(",", " ").split() if p]
    elif isinstance(text, (tuple, list)):
        parts = list(text)
    else:
        raise RuleError("a throw is three dice, e.g. 1,2,3; got %r" % (text,))
    if len(parts) != 3:
        raise RuleError("a throw is three dice, e.g. 1,2,3; got %d value(s) in %r" % (len(parts), text))
    dice = []
    for part in parts:
        face = None
        if isinstance(part, int) and not isinstance(part, bool):
            face = part
        elif isinstance(part, str):
            word = part.strip().lower()
            if word.isdigit():
                face = int(word)
            else:
                for f, aliases in (names or {}).items():
                    if word in aliases:
                        face = f
        if face not in FACES:
            known = " or a face name (%s)" % ", ".join(a[0] for a in names.values()) if names else ""
            raise RuleError("a die shows 1 to 6%s, got %r" % (known, part))
        dice.append(face)
    return tuple(dice)


def dice_text(dice):
    return ",".join(str(d) for d in dice)


def won(condition, pays):
    """Net of a bet paying pays:1 (an int) that wins when condition holds."""
    return Fraction(pays) if condition else LOSS


def small_big_bets():
    """SB-5.1/5.2, SB-6.1/6.2 (FPC-5.1/5.2): 1:1, and a triple loses both (SB-7, FPC-7)."""
    return [
        ("small", "1:1", lambda t: won(4 <= t.total <= 10 and not t.triple, 1)),
        ("big", "1:1", lambda t: won(11 <= t.total <= 17 and not t.triple, 1)),
    ]


def single_bets(label):
    """SB-5.3/6.3 (FPC-5.3/6.3): pays 1, 2 or 3 to 1 as the face shows on one, two or three dice."""
    return [("single_%s" % label(f), SINGLE_PAYS, lambda t, f=f: Fraction(t.counts[f]) if t.counts[f] else LOSS)
            for f in FACES]


def triple_bets(label):
    """SB-5.4/6.4 specific triple 150:1, SB-5.5/6.5 any triple 24:1 (FPC-5.8/5.9, 6.8/6.9)."""
    bets = [("triple_%s" % label(f), "150:1", lambda t, f=f: won(t.counts[f] == 3, 150)) for f in FACES]
    return bets, [("any_triple", "24:1", lambda t: won(t.triple, 24))]


def total_bets(pays_by_total):
    """SB-5.6/6.6 (FPC-5.10/6.10): totals 4 to 17 (3 and 18 are triples and are not offered)."""
    return [("total_%d" % total, "%d:1" % pays, lambda t, total=total, pays=pays: won(t.total == total, pays))
            for total, pays in sorted(pays_by_total.items())]


def settle(table, dice):
    throw = Throw.of(dice)
    return {bet: rule(throw) for bet, _, rule in table}


def pays_of(table):
    return {bet: pays for bet, pays, _ in table}


def throw_edges(table):
    """Exact figures of every bet of a dice table over the 216 equally likely throws."""
    return analysis.edges(analysis.equally_likely(THROWS), lambda dice: settle(table, dice), pays_of(table))


def throw_simulate(table, rounds, seed):
    """Monte Carlo cross-check of throw_edges(): one unit on every bet each round, dice from Random(seed)."""
    return analysis.simulate(lambda rng: (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)),
                             lambda dice: settle(table, dice), list(pays_of(table)), rounds, seed)


def _table(opts):
    """[(bet_id, pays, rule(throw) -> net)] in the order of docs/rulebook.md."""
    pays_by_total = dict(FIXED_TOTAL_PAYS)
    for total in (5, 16):
        pays_by_total[total] = opts["pay_5_16"]
    for total in (6, 15):
        pays_by_total[total] = opts["pay_6_15"]
    triple_loses = opts["odd_even_lose_on_triple"]
    triples, any_triple = triple_bets(str)
    table = small_big_bets() + [
        # SB-5.7/5.8, SB-6.7/6.8; SB-7 names only small and big, hence the option
        ("odd", "1:1", lambda t: won(t.total % 2 == 1 and not (triple_loses and t.triple), 1)),
        ("even", "1:1", lambda t: won(t.total % 2 == 0 and not (triple_loses and t.triple), 1)),
    ]
    table += single_bets(str) + triples + any_triple + total_bets(pays_by_total)
    # SB-5.9/6.9: exactly A,A,B with A and B as chosen (or, read loosely, any pair and one other face)
    chosen = opts["double_single_faces"] == "chosen"
    table += [("double_single_%d_%d" % (a, b), "50:1",
               lambda t, a=a, b=b: won(t.counts[a] == 2 and t.counts[b] == 1 if chosen else len(t.counts) == 2, 50))
              for a, b in permutations(FACES, 2)]
    # SB-5.10/6.10: exactly the chosen faces, three different ones unless three_faces=any
    distinct = opts["three_faces"] == "distinct"
    table += [("three_%d_%d_%d" % abc, "30:1", lambda t, abc=abc: won(sorted(t.dice) == list(abc), 30))
              for abc in combinations_with_replacement(FACES, 3) if len(set(abc)) == 3 or not distinct]
    # SB-5.11/6.11 long: both faces show
    table += [("combo_%d_%d" % (a, b), "5:1", lambda t, a=a, b=b: won(t.counts[a] >= 1 and t.counts[b] >= 1, 5))
              for a, b in combinations(FACES, 2)]
    # SB-5.12/6.12 short: at least two dice show the face
    table += [("double_%d" % n, "8:1", lambda t, n=n: won(t.counts[n] >= 2, 8)) for n in FACES]
    if opts["short_faces"] == "any":  # two different chosen faces, each on a die
        table += [("double_%d_%d" % (a, b), "8:1", lambda t, a=a, b=b: won(t.counts[a] >= 1 and t.counts[b] >= 1, 8))
                  for a, b in combinations(FACES, 2)]
    # SB-5.13/6.13: three different faces, all among the four chosen
    table += [("four_%d_%d_%d_%d" % abcd, "7:1",
               lambda t, chosen=frozenset(abcd): won(len(t.counts) == 3 and chosen.issuperset(t.counts), 7))
              for abcd in combinations(FACES, 4)]
    return table


def bets(opts=None):
    return pays_of(_table(resolve_options(OPTIONS, opts)))


def parse_outcome(text, opts=None):
    return parse_dice(text)


def outcome_text(outcome):
    return dice_text(outcome)


def resolve(outcome, opts=None):
    opts = resolve_options(OPTIONS, opts)
    return settle(_table(opts), parse_dice(outcome))


def edge(opts=None):
    return throw_edges(_table(resolve_options(OPTIONS, opts)))


def flags(opts=None, edges=None):
    opts = resolve_options(OPTIONS, opts)
    figures = edges if edges is not None else edge(opts)
    why = ("SB-7 makes a triple lose only small and big, so %s also wins on the triples; "
           "odd_even_lose_on_triple=true applies the layout rule")
    reasons = {"odd": why % "odd", "even": why % "even"}
    for bet in figures:
        if bet.startswith("double_single_"):
            reasons[bet] = "double_single_faces=any pays 50:1 on every pair-and-single throw (SB-5.9 read loosely)"
        elif bet.startswith("double_") and bet.count("_") == 2:
            reasons[bet] = "short_faces=any pays 8:1 on two different faces, which long pays 5:1 (SB-5.12 read loosely)"
    return analysis.flag_lines(figures, reasons)


def simulate(rounds, seed, opts=None):
    """Monte Carlo cross-check of edge(): one unit on every bet each round, throws from Random(seed)."""
    return throw_simulate(_table(resolve_options(OPTIONS, opts)), rounds, seed)


def strategy(opts=None):
    return "No decisions: every Sic Bo bet is settled by the three dice alone (SB-5.1-5.13, SB-6.1-6.13, SB-7)."
