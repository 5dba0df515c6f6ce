"""Fan-Tan (Dispatch 58/2004): the result from a button count, every bet, settlement with commission, odds.

Outcome: the result 1..4. parse_outcome takes '1'..'4', or 'count=N' / 'count=N,broken=K' for the
buttons under the cover (FT-3.1, FT-3.2, FT-5.3). The regulation fixes no distribution of the heap, so the
analysis assumes the four results equally likely.
Bet ids: fan_N, nim_W_P (W wins, P pushes), kwok_A_B, nga_A_B_P (A<B win, P pushes), sam_hong_A_B_C.
Commission (FT-9): the house keeps `commission` (default 5%) of every win's pay, not of the stake;
a push (FT-8) returns the stake untouched.
Interpretations:
- FT-6.1 kwok "on two numbers" names no pairs: the layout's corners, the adjacent pairs 1_2, 2_3, 3_4,
  1_4, are taken; option kwok_pairs=any adds 1_3 and 2_4.
- FT-3.1/FT-5.3: a count names every button under the cover, broken ones included; the broken ones are
  void and the remainder is taken over the rest, which must be at least one button.
"""
from fractions import Fraction
from itertools import combinations, permutations

from . import analysis
from .analysis import LOSS, PUSH
from .errors import RuleError
from .options import Option, resolve_options, spec

NAME = "fantan"
RESULTS = (1, 2, 3, 4)

OPTIONS = spec(
    Option("commission", Fraction(1, 20), "fraction", lo=0, hi=1, article="FT-9",
           help="share of each win's pay kept by the house (FT-9 fixes 5%; other values are what-ifs)"),
    Option("kwok_pairs", "adjacent", "choice", choices=("adjacent", "any"), article="FT-6.1",
           help="which two-number kwok bets the layout offers"),
)


def _whole(value, what):
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("%s must be a whole number, got %r" % (what, value))
    return value


def result_from_count(count, broken=0):
    """The round's result from the buttons under the cover: four at a time, the remainder wins,
    a remainder of 0 is 4 (FT-3.1, FT-3.2); broken buttons are void (FT-5.3)."""
    _whole(count, "the button count")
    _whole(broken, "the broken-button count")
    if broken < 0 or count < 0:
        raise RuleError("button counts cannot be negative (count=%d, broken=%d)" % (count, broken))
    valid = count - broken
    if valid < 1:
        raise RuleError("no valid button left to count (count=%d, broken=%d): no result" % (count, broken))
    return valid % 4 or 4


def _parse_int(text, what):
    raw = text.strip()
    if not raw.isdigit():
        raise RuleError("%s must be a whole number, got %r" % (what, text))
    return int(raw)


def parse_outcome(text, opts=None):
    """'3' -> 3; 'count=N' or 'count=N,broken=K' -> result_from_count(N, K)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return _check_result(text)
    if not isinstance(text, str):
        raise RuleError("a fan-tan outcome is 1 to 4 or count=N[,broken=K], got %r" % (text,))
    if "=" not in text:
        return _check_result(_parse_int(text, "a fan-tan result"))
    fields = {}
    for part in text.replace(" ", ",").split(","):
        if not part:
            continue
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in ("count", "broken") or key in fields:
            raise RuleError("a fan-tan outcome is 1 to 4 or count=N[,broken=K], got %r" % text)
        fields[key] = _parse_int(value, key)
    if "count" not in fields:
        raise RuleError("count=N is missing in %r" % text)
    return result_from_count(fields["count"], fields.get("broken", 0))


def _check_result(result):
    if result not in RESULTS:
        raise RuleError("a fan-tan result is 1 to 4 (a remainder of 0 is announced as 4, FT-3.2), got %r" % result)
    return result


def outcome_text(outcome):
    return str(outcome)


def _table(opts):
    """[(bet_id, pays, winners, pushers)] in the order of docs/rulebook.md."""
    kwok = list(combinations(RESULTS, 2))
    if opts["kwok_pairs"] == "adjacent":
        kwok = [(a, b) for a, b in kwok if b - a == 1 or (a, b) == (1, 4)]
    table = [("fan_%d" % n, "3:1", {n}, set()) for n in RESULTS]  # FT-6.2.1, FT-7.1.1
    table += [("nim_%d_%d" % (w, p), "2:1", {w}, {p}) for w, p in permutations(RESULTS, 2)]  # FT-6.2.2, 7.1.2
    table += [("kwok_%d_%d" % pair, "1:1", set(pair), set()) for pair in kwok]  # FT-6.1, FT-7.2
    table += [("nga_%d_%d_%d" % (a, b, p), "1:2", {a, b}, {p})  # FT-6.2.3, FT-7.1.3
              for a, b in combinations(RESULTS, 2) for p in RESULTS if p not in (a, b)]
    table += [("sam_hong_%d_%d_%d" % abc, "1:3", set(abc), set()) for abc in combinations(RESULTS, 3)]  # FT-6.2.4
    return table


def bets(opts=None):
    opts = resolve_options(OPTIONS, opts)
    return {bet: pays for bet, pays, _, _ in _table(opts)}


def _settle(table, result, keep):
    nets = {}
    for bet, pays, winners, pushers in table:
        if result in winners:
            nets[bet] = analysis.ratio(pays) * keep  # FT-7 pay, less FT-9 commission on it
        else:
            nets[bet] = PUSH if result in pushers else LOSS  # FT-8: a tie returns the stake
    return nets


def resolve(outcome, opts=None):
    opts = resolve_options(OPTIONS, opts)
    return _settle(_table(opts), parse_outcome(outcome), 1 - opts["commission"])


def edge(opts=None):
    opts = resolve_options(OPTIONS, opts)
    table = _table(opts)
    return analysis.edges(analysis.equally_likely(RESULTS), lambda r: _settle(table, r, 1 - opts["commission"]),
                          bets(opts))


def flags(opts=None, edges=None):
    opts = resolve_options(OPTIONS, opts)
    why = "commission %s leaves the house nothing on this bet with equally likely results" % opts["commission"]
    figures = edges if edges is not None else edge(opts)
    return analysis.flag_lines(figures, {bet: why for bet in figures})


def simulate(rounds, seed, opts=None):
    """Monte Carlo cross-check of edge(): one unit on every bet each round, results drawn uniformly."""
    opts = resolve_options(OPTIONS, opts)
    table = _table(opts)
    return analysis.simulate(lambda rng: rng.choice(RESULTS), lambda r: _settle(table, r, 1 - opts["commission"]),
                             [row[0] for row in table], rounds, seed)


def strategy(opts=None):
    return "No decisions: every Fan-Tan bet is settled by the result 1-4 alone (FT-6.1, FT-6.2.1-6.2.4, FT-7, FT-8, FT-9)."
