"""Single-zero roulette (Dispatch 60/2004): the layout's bets built from its grid, settlement, exact odds.

The layout is 0 above twelve rows of three (row r holds 3r+1, 3r+2, 3r+3); every multi-number bet is a
shape on that grid, so the bets are generated, not listed. Outcome: the pocket 0..36 (RL-1.2, RL-4).
Interpretations (the regulation gives the bets' sizes and pays, not their shapes, RL-6.1-6.6):
- the standard single-zero layout: 0 is adjacent to 1, 2 and 3 (split_0_1/0_2/0_3, street_0_1_2,
  street_0_2_3, corner_0_1_2_3); red = 1-10 and 19-28 odd, 11-18 and 29-36 even; columns by n mod 3;
- a nine-number bet (RL-6.6) is three consecutive streets, i.e. a 3x3 block of the grid;
- RL-8, "bets on 0 win, all other bets lose": option zero_rule=covering (default) counts every bet
  whose numbers include 0 as a bet on 0; zero_rule=straight_only lets only straight_0 win on 0.
"""

from . import analysis
from .analysis import LOSS
from .errors import RuleError
from .irregularities import VOID, Ruling, is_void  # RL-2.2: a void spin
from .options import Option, resolve_options, spec

NAME = "roulette"
POCKETS = tuple(range(37))  # RL-1.2, RL-1.3: 37 pockets, 0 included, equally likely
ROWS = tuple(tuple(3 * r + c for c in (1, 2, 3)) for r in range(12))  # the layout grid, left to right
SET12_A = (1, 3, 5, 13, 15, 17, 20, 22, 24, 32, 34, 36)  # RL-6.7, as the regulation lists them
SET12_B = (2, 4, 6, 14, 16, 18, 19, 21, 23, 31, 33, 35)

OPTIONS = spec(
    Option("zero_rule", "covering", "choice", choices=("covering", "straight_only"), article="RL-8",
           help="on 0, do bets covering 0 with other numbers win (covering) or lose (straight_only)"),
)

PAYS_BY_SIZE = {1: "35:1", 2: "17:1", 3: "11:1", 4: "8:1", 6: "5:1", 9: "3:1", 12: "2:1", 18: "1:1"}  # RL-7


def is_red(n):
    """RL-1.4 gives no colours: the standard wheel's reds (odd in 1-10 and 19-28, even in 11-18 and 29-36)."""
    if n == 0:
        return False  # RL-1.5
    return (n % 2 == 1) == (n <= 10 or 19 <= n <= 28)


def _ids(numbers):
    return "_".join(str(n) for n in sorted(numbers))


def layout():
    """{bet_id: frozenset of numbers}, in the order of RL-6.1-6.17, derived from the grid."""
    bets = {"straight_%d" % n: {n} for n in POCKETS}  # RL-6.1
    splits = [{0, 1}, {0, 2}, {0, 3}]  # RL-6.2
    for r, row in enumerate(ROWS):
        splits += [{row[c], row[c + 1]} for c in (0, 1)]
        if r + 1 < len(ROWS):
            splits += [{row[c], ROWS[r + 1][c]} for c in (0, 1, 2)]
    for pair in sorted(splits, key=sorted):
        bets["split_" + _ids(pair)] = pair
    bets["street_0_1_2"], bets["street_0_2_3"] = {0, 1, 2}, {0, 2, 3}  # RL-6.3
    for row in ROWS:
        bets["street_%d" % row[0]] = set(row)
    bets["corner_0_1_2_3"] = {0, 1, 2, 3}  # RL-6.4
    for r in range(len(ROWS) - 1):
        for c in (0, 1):
            bets["corner_%d" % ROWS[r][c]] = {ROWS[r][c], ROWS[r][c + 1], ROWS[r + 1][c], ROWS[r + 1][c + 1]}
    for size, name in ((2, "six_line"), (3, "nine")):  # RL-6.5, RL-6.6: 2 or 3 consecutive streets
        for r in range(len(ROWS) - size + 1):
            bets["%s_%d" % (name, ROWS[r][0])] = set().union(*ROWS[r:r + size])
    bets["set12_a"], bets["set12_b"] = set(SET12_A), set(SET12_B)  # RL-6.7
    for c in (1, 2, 3):
        bets["column_%d" % c] = {row[c - 1] for row in ROWS}  # RL-6.8
    for d in (1, 2, 3):
        bets["dozen_%d" % d] = set().union(*ROWS[4 * (d - 1):4 * d])  # RL-6.9-6.11
    numbers = range(1, 37)
    bets["low"] = set(range(1, 19))  # RL-6.14
    bets["high"] = set(range(19, 37))  # RL-6.15
    bets["red"] = {n for n in numbers if is_red(n)}  # RL-6.16
    bets["black"] = {n for n in numbers if not is_red(n)}  # RL-6.17
    bets["odd"] = {n for n in numbers if n % 2}  # RL-6.13
    bets["even"] = {n for n in numbers if n % 2 == 0}  # RL-6.12
    return {bet: frozenset(nums) for bet, nums in bets.items()}


LAYOUT = layout()


def bets(opts=None):
    resolve_options(OPTIONS, opts)
    return {bet: PAYS_BY_SIZE[len(nums)] for bet, nums in LAYOUT.items()}


def parse_outcome(text, opts=None):
    if is_void(text):
        return VOID
    if isinstance(text, int) and not isinstance(text, bool):
        pocket = text
    elif isinstance(text, str) and text.strip().isdigit() and text.strip() == str(int(text.strip())):
        pocket = int(text.strip())
    else:
        raise RuleError("a roulette outcome is one pocket 0 to 36 (single zero, RL-1.2) or void (RL-2.2), "
                        "got %r" % (text,))
    if pocket not in POCKETS:
        raise RuleError("a roulette outcome is one pocket 0 to 36 (single zero, RL-1.2), got %r" % (text,))
    return pocket


def outcome_text(outcome):
    return str(outcome)


def _settle(pocket, straight_only):
    nets = {}
    for bet, nums in LAYOUT.items():
        wins = pocket in nums and not (pocket == 0 and straight_only and len(nums) > 1)  # RL-8
        nets[bet] = analysis.ratio(PAYS_BY_SIZE[len(nums)]) if wins else LOSS  # RL-7
    return nets


def resolve(outcome, opts=None):
    """{bet_id: net per unit}; a void spin (RL-2.2) settles nothing: every net 0, the bets stand."""
    opts = resolve_options(OPTIONS, opts)
    pocket = parse_outcome(outcome)
    if pocket == VOID:
        return {bet: analysis.PUSH for bet in LAYOUT}
    return _settle(pocket, opts["zero_rule"] == "straight_only")


def edge(opts=None):
    opts = resolve_options(OPTIONS, opts)
    straight_only = opts["zero_rule"] == "straight_only"
    return analysis.edges(analysis.equally_likely(POCKETS), lambda p: _settle(p, straight_only), bets(opts))


def flags(opts=None, edges=None):
    opts = resolve_options(OPTIONS, opts)
    return analysis.flag_lines(edges if edges is not None else edge(opts))


def simulate(rounds, seed, opts=None):
    """Monte Carlo cross-check of edge(): one unit on every bet each spin, pockets drawn uniformly."""
    opts = resolve_options(OPTIONS, opts)
    straight_only = opts["zero_rule"] == "straight_only"
    return analysis.simulate(lambda rng: rng.randrange(37), lambda p: _settle(p, straight_only), list(LAYOUT),
                             rounds, seed)


def void_spin(previous):
    """RL-2.2, RL-2.3: a chip or other object fell into the wheel while the ball rolled (若有籌碼或任何
    其他物件跌入輪盤內). The round is void and settles nothing (resolve 'void'); the bets stand for the
    throw again, made from the pocket of the previous round's winning number, `previous` (0-36)."""
    if previous == VOID:
        raise RuleError("the ball restarts from the previous winning number (RL-2.3), not from a void spin")
    pocket = parse_outcome(previous)
    return Ruling(True, False, False, False, "RL-2.2, RL-2.3",
                  "void spin: the object is removed, the ball put in pocket %d (the previous winning number) "
                  "and thrown again; the bets stand" % pocket)


def strategy(opts=None):
    return "No decisions: every roulette bet is settled by the winning pocket alone (RL-4, RL-7, RL-8)."

