"""Command line of the reference engine: bets, options, edge, resolve, simulate, strategy for any game.

    python -m rulebook bets GAME [--set K=V]... [--json]
    python -m rulebook options GAME [--json]
    python -m rulebook edge GAME [--set K=V]... [--bet ID]... [--json]
    python -m rulebook resolve GAME OUTCOME [--set K=V]... [--bet ID]... [--json]
    python -m rulebook simulate GAME --rounds N --seed S [--set K=V]... [--json]
    python -m rulebook strategy GAME [--set K=V]...

JSON (a contract other tools rely on):
- edge:     {"game", "options", "bets": {id: {"pays", "win_probability", "house_edge", "house_edge_exact"}},
            "flags"}; probabilities and edges are floats, house_edge_exact is "p/q" (an integer as "0",
            "1", "-1"), or null for a Monte Carlo figure, which also carries "method", "rounds", "ci95"
            (a figure the game does not give, e.g. a Monte Carlo bet's win probability, is null).
- resolve:  {"game", "outcome", "net": {id: "p/q"}}, integers again written "1", "-1", "0".
- bets:     {"game", "options", "bets": {id: "a:b"}};  simulate: {"game", "options", "rounds", "seed",
            "bets": {id: {"rounds", "mean_net", "stderr"}}}.
Options are printed with JSON-friendly values: fractions as "p/q", booleans, whole numbers, names.
Bad input (RuleError or a bad command line): one line on stderr, exit code 2, no traceback.
"""
import argparse
import json
import os
import sys
from fractions import Fraction

from . import registry
from .errors import RuleError
from .options import parse_assignments, resolve_options

CONTRACT = ("NAME", "OPTIONS", "bets", "parse_outcome", "outcome_text", "resolve", "edge", "flags")
MONTE_CARLO_KEYS = ("method", "rounds", "ci95")


class UsageError(RuleError):
    """A command line argparse rejects: reported like any other bad input."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def exact(value):
    """Fraction or int -> 'p/q' text, integers without '/1' ('1', '-1', '0')."""
    return str(Fraction(value))


def option_value(value):
    if isinstance(value, Fraction):
        return exact(value)
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return str(value)


def load_game(name, needs=CONTRACT):
    """The game module, or a one-line RuleError when it, or part of the contract, does not exist yet."""
    try:
        module = registry.game(name)
    except ModuleNotFoundError as exc:
        if exc.name != registry.GAMES[name]:
            raise  # a module the game imports is missing: a bug, not bad input
        raise RuleError("game %r is not implemented yet (no module %s)" % (name, exc.name)) from None
    missing = [attr for attr in needs if not hasattr(module, attr)]
    if missing:
        raise RuleError("game %r does not provide %s yet" % (name, ", ".join(missing)))
    return module


def _game_and_options(args, needs=CONTRACT):
    module = load_game(args.game, needs)
    opts = resolve_options(module.OPTIONS, parse_assignments(args.set))
    return module, opts


def _options_json(opts):
    return {key: option_value(value) for key, value in opts.items()}


def _selected(all_bets, wanted, game):
    """Restrict to --bet ids, keeping the game's order; an unknown id is an error."""
    if not wanted:
        return list(all_bets)
    unknown = [bet for bet in wanted if bet not in all_bets]
    if unknown:
        raise RuleError("unknown bet %r for %s (list them with: rulebook bets %s)" % (unknown[0], game, game))
    return [bet for bet in all_bets if bet in wanted]


def edge_entry(figures):
    """One bet's edge figures in the JSON form of the contract. A figure a game does not give (e.g. the win
    probability of a Monte Carlo bet) is written null; house_edge_exact is null unless the edge is exact."""
    probability = figures.get("win_probability")
    edge = figures["house_edge"]
    entry = {
        "pays": figures["pays"],
        "win_probability": None if probability is None else float(probability),
        "house_edge": float(edge),
        "house_edge_exact": None,
    }
    if figures.get("method") and figures["method"] != "exact":
        for key in MONTE_CARLO_KEYS:
            value = figures.get(key)
            entry[key] = [float(v) for v in value] if key == "ci95" and value is not None else value
    elif isinstance(edge, (int, Fraction)):
        entry["house_edge_exact"] = exact(edge)
    return entry


def _edge_note(entry):
    if entry["house_edge_exact"] is not None:
        return entry["house_edge_exact"]
    if entry.get("method"):
        return "%s, %s rounds, ci95 %s" % (entry["method"], entry.get("rounds"), entry.get("ci95"))
    return "(inexact)"


def _emit(args, payload, text_lines):
    if args.json:
        print(json.dumps(payload, ensure_ascii=False))
    else:
        for line in text_lines:
            print(line)


def cmd_bets(args):
    module, opts = _game_and_options(args, ("OPTIONS", "bets"))
    pays = module.bets(opts)
    _emit(args, {"game": args.game, "options": _options_json(opts), "bets": pays},
          ["%-24s %s" % (bet, p) for bet, p in pays.items()])


def cmd_options(args):
    module = load_game(args.game, ("OPTIONS",))
    rows = {name: {"default": option_value(o.default), "values": o.describe(), "article": o.article, "help": o.help}
            for name, o in module.OPTIONS.items()}
    lines = ["%s = %s  (%s; %s) %s" % (name, r["default"], r["values"], r["article"], r["help"])
             for name, r in rows.items()]
    _emit(args, {"game": args.game, "options": rows}, lines or ["%s has no options" % args.game])


def cmd_edge(args):
    module, opts = _game_and_options(args)
    figures = module.edge(opts)
    chosen = _selected(figures, args.bet, args.game)
    entries = {bet: edge_entry(figures[bet]) for bet in chosen}
    flags = list(module.flags(opts, figures))
    lines = ["%-24s %-12s win %-9s house edge %8.4f%%  %s" % (
        bet, e["pays"], "-" if e["win_probability"] is None else "%.6f" % e["win_probability"], 100 * e["house_edge"],
        _edge_note(e))
        for bet, e in entries.items()]
    lines += ["FLAG " + flag for flag in flags]
    _emit(args, {"game": args.game, "options": _options_json(opts), "bets": entries, "flags": flags}, lines)


def cmd_resolve(args):
    module, opts = _game_and_options(args)
    outcome = module.parse_outcome(args.outcome, opts)
    nets = module.resolve(outcome, opts)
    chosen = _selected(nets, args.bet, args.game)
    net = {bet: exact(nets[bet]) for bet in chosen}
    text = module.outcome_text(outcome)
    _emit(args, {"game": args.game, "outcome": text, "net": net},
          ["outcome %s" % text] + ["%-24s %s" % (bet, n) for bet, n in net.items()])


def cmd_simulate(args):
    module, opts = _game_and_options(args, ("OPTIONS", "simulate"))
    results = module.simulate(args.rounds, args.seed, opts)
    _emit(args, {"game": args.game, "options": _options_json(opts), "rounds": args.rounds, "seed": args.seed,
                 "bets": results},
          ["%-24s mean net %+.6f  stderr %s  (%d rounds)" % (bet, r["mean_net"], r["stderr"], r["rounds"])
           for bet, r in results.items()])


def cmd_strategy(args):
    module, opts = _game_and_options(args, ("OPTIONS", "strategy"))
    print(module.strategy(opts))


def _whole_number(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text) from None


def build_parser():
    parser = _Parser(prog="rulebook", description="Reference engine of the Macau table-game regulations.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name, func, helptext, outcome=False, select=False, settable=True, json_flag=True):
        sub = commands.add_parser(name, help=helptext, description=helptext)
        sub.add_argument("game", metavar="GAME", help="one of: " + ", ".join(registry.GAMES))
        if outcome:
            sub.add_argument("outcome", metavar="OUTCOME",
                             help="dice 1,2,3; fan-tan 1-4 or count=N[,broken=K]; roulette 0-36; cards As,Kd,...")
        if settable:
            sub.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a game option")
        if select:
            sub.add_argument("--bet", action="append", default=[], metavar="ID", help="only this bet (repeatable)")
        if json_flag:
            sub.add_argument("--json", action="store_true", help="print one JSON object")
        sub.set_defaults(func=func)
        return sub

    command("bets", cmd_bets, "every bet id with its pays")
    command("options", cmd_options, "the game's options, defaults and allowed values", settable=False)
    command("edge", cmd_edge, "win probability and house edge of every bet, and the paytable flags", select=True)
    command("resolve", cmd_resolve, "net result per unit staked of every bet for one outcome",
            outcome=True, select=True)
    sim = command("simulate", cmd_simulate, "Monte Carlo rounds with the game's fixed strategy")
    sim.add_argument("--rounds", type=_whole_number, required=True, metavar="N")
    sim.add_argument("--seed", type=_whole_number, required=True, metavar="S")
    command("strategy", cmd_strategy, "the fixed strategy simulate plays", json_flag=False)
    return parser


def main(argv=None):
    try:
        args = build_parser().parse_args(argv)
        args.func(args)
    except RuleError as exc:
        message = " ".join(str(exc).split())
        print("rulebook: error: %s" % message, file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, and keep Python's exit-time flush from failing too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
