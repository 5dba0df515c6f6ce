"""The rulebook command line, a contract other tools rely on: run as `.venv/bin/python -m rulebook ...`
from the repository root, JSON shapes per issue 2, one-line errors with exit code 2."""
import json
import os
import pathlib
import subprocess
import sys
import types
from fractions import Fraction

import pytest

from rulebook import cli, registry

ROOT = pathlib.Path(__file__).resolve().parents[2]
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"


def run(*args):
    """The command exactly as documented: the venv's python, repository root as working directory."""
    python = str(VENV_PYTHON) if VENV_PYTHON.exists() else sys.executable
    env = dict(os.environ)
    if not VENV_PYTHON.exists():
        env["PYTHONPATH"] = str(ROOT / "tools")
    return subprocess.run([python, "-m", "rulebook", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)


def run_json(*args):
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return json.loads(proc.stdout)


# One independently known figure per game: (game, bet, exact house edge)
KNOWN_EDGES = [
    ("sicbo", "small", "1/36"), ("sicbo", "single_5", "17/216"), ("sicbo", "odd", "0"),
    ("fish_prawn_crab", "color1_red", "1/9"), ("fantan", "fan_1", "3/80"), ("roulette", "split_0_3", "1/37"),
]


@pytest.mark.parametrize("game", ["sicbo", "fish_prawn_crab", "fantan", "roulette"])
def test_edge_json_shape_for_every_game(game):
    out = run_json("edge", game, "--json")
    assert list(out) == ["game", "options", "bets", "flags"]
    assert out["game"] == game
    module = registry.game(game)
    assert list(out["bets"]) == list(module.bets())
    for bet, entry in out["bets"].items():
        assert list(entry) == ["pays", "win_probability", "house_edge", "house_edge_exact"], bet
        assert isinstance(entry["win_probability"], float) and isinstance(entry["house_edge"], float)
        assert entry["house_edge"] == float(Fraction(entry["house_edge_exact"]))
        assert 0 < entry["win_probability"] < 1
    for known_game, bet, edge in KNOWN_EDGES:
        if known_game == game:
            assert out["bets"][bet]["house_edge_exact"] == edge
    assert all(isinstance(flag, str) for flag in out["flags"])


def test_edge_sicbo_flags_odd_even_and_options_are_json_values_SB_7():
    out = run_json("edge", "sicbo", "--json")
    assert out["options"] == {"pay_5_16": 18, "pay_6_15": 14, "odd_even_lose_on_triple": False,
                              "double_single_faces": "chosen", "three_faces": "distinct", "short_faces": "equal"}
    assert [flag.split()[0] for flag in out["flags"]] == ["odd", "even"]
    out = run_json("edge", "sicbo", "--set", "odd_even_lose_on_triple=true", "--set", "pay_5_16=30", "--json")
    assert out["flags"] == []
    assert out["options"]["pay_5_16"] == 30 and out["options"]["odd_even_lose_on_triple"] is True
    assert out["bets"]["odd"]["house_edge_exact"] == "1/36"
    assert out["bets"]["total_16"] == {"pays": "30:1", "win_probability": 6 / 216,
                                       "house_edge": 30 / 216, "house_edge_exact": "5/36"}


def test_edge_fantan_commission_as_fraction_text_FT_9():
    out = run_json("edge", "fantan", "--set", "commission=0", "--bet", "fan_2", "--bet", "nga_1_2_3", "--json")
    assert out["options"] == {"commission": "0", "kwok_pairs": "adjacent"}
    assert list(out["bets"]) == ["fan_2", "nga_1_2_3"]
    assert len(out["flags"]) == 36  # no commission: every bet is fair
    assert run_json("edge", "fantan", "--json")["options"]["commission"] == "1/20"


@pytest.mark.parametrize("game, outcome, shown, expected", [
    ("sicbo", "3,1,2", "3,1,2", {"small": "1", "big": "-1", "even": "1", "odd": "-1", "total_6": "14",
                                 "three_1_2_3": "30", "single_2": "1", "combo_1_3": "5", "double_1": "-1",
                                 "four_1_2_3_6": "7", "double_single_1_2": "-1"}),
    ("fish_prawn_crab", "fish,fish,fish", "1,1,1", {"triple_fish": "150", "any_triple": "24", "small": "-1",
                                                   "color3_red": "20", "single_fish": "3", "total_3": None}),
    ("fantan", "count=10", "2", {"fan_2": "57/20", "nim_1_2": "0", "nga_1_2_3": "19/40", "kwok_2_3": "19/20",
                                 "sam_hong_1_3_4": "-1"}),
    ("roulette", "0", "0", {"straight_0": "35", "split_0_1": "17", "street_0_2_3": "11", "red": "-1",
                            "even": "-1", "corner_0_1_2_3": "8"}),
])
def test_resolve_json_for_every_game(game, outcome, shown, expected):
    out = run_json("resolve", game, outcome, "--json")
    assert list(out) == ["game", "outcome", "net"]
    assert out["game"] == game and out["outcome"] == shown
    assert list(out["net"]) == list(registry.game(game).bets())
    for bet, net in expected.items():
        assert out["net"].get(bet) == net, bet


def test_bets_text_lists_every_bet_with_pays():
    proc = run("bets", "roulette")
    assert proc.returncode == 0
    rows = [line.split() for line in proc.stdout.splitlines()]
    assert len(rows) == 169
    assert ["split_0_1", "17:1"] in rows and ["nine_28", "3:1"] in rows and ["set12_b", "2:1"] in rows


def test_simulate_and_strategy():
    out = run_json("simulate", "roulette", "--rounds", "370", "--seed", "5", "--json")
    assert (out["rounds"], out["seed"]) == (370, 5)
    assert set(out["bets"]["red"]) == {"rounds", "mean_net", "stderr"}
    assert out == run_json("simulate", "roulette", "--rounds", "370", "--seed", "5", "--json")  # seeded
    proc = run("strategy", "fantan")
    assert proc.returncode == 0 and "No decisions" in proc.stdout


@pytest.mark.parametrize("args, words", [
    (["resolve", "roulette", "37"], "0 to 36"),
    (["resolve", "sicbo", "1,2,7"], "1 to 6"),
    (["resolve", "fantan", "0"], "1 to 4"),
    (["resolve", "fantan", "count=3,broken=3"], "no valid button"),
    (["edge", "sicbo", "--set", "pay_5_16=31"], "pay_5_16"),
    (["edge", "sicbo", "--set", "pay_6_15=13"], "pay_6_15"),
    (["edge", "fantan", "--set", "commission=abc"], "commission"),
    (["edge", "roulette", "--set", "bogus=1"], "unknown option"),
    (["edge", "sicbo", "--set", "novalue"], "KEY=VALUE"),
    (["edge", "nosuchgame"], "unknown game"),
    (["resolve", "sicbo", "1,2,3", "--bet", "triple_7"], "unknown bet"),
    (["resolve", "sicbo"], "required"),
    (["simulate", "sicbo", "--rounds", "0", "--seed", "1"], "rounds"),
    (["simulate", "sicbo", "--rounds", "many", "--seed", "1"], "whole number"),
    ([], "required"),
])
def test_bad_input_is_one_line_on_stderr_exit_2(args, words):
    proc = run(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulebook: error:") and words in lines[0], proc.stderr


# In-process checks of the generic paths the four games of chance do not exercise.

def test_game_without_module_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setitem(registry.GAMES, "ghost", "rulebook.ghost_game_not_written")
    assert cli.main(["edge", "ghost", "--json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not implemented yet" in err


def test_game_whose_import_fails_inside_is_a_bug_and_traces(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "ghost", "no_such_package_anywhere.ghost")
    with pytest.raises(ModuleNotFoundError):
        cli.main(["edge", "ghost"])


def fake_game(**extra):
    """A minimal game module: two bets, one Monte Carlo figure, no simulate()/strategy() unless given."""
    from rulebook.options import spec

    def edge(opts):
        return {"a": {"pays": "1:1", "win_probability": Fraction(1, 2), "house_edge": Fraction(0)},
                "b": {"pays": "3:2", "win_probability": 0.4, "house_edge": 0.012, "method": "monte_carlo",
                      "rounds": 1000, "ci95": (0.01, 0.014)},
                "c": {"pays": "2:1", "house_edge": 0.25}}  # no win probability, an inexact edge

    return types.SimpleNamespace(NAME="ghost", OPTIONS=spec(), bets=lambda opts: {"a": "1:1", "b": "3:2", "c": "2:1"},
                                 parse_outcome=lambda text, opts: text, outcome_text=str,
                                 resolve=lambda outcome, opts: {"a": Fraction(1), "b": Fraction(-1), "c": Fraction(2)},
                                 edge=edge, flags=lambda opts, edges: ["a (pays 1:1): house edge 0"], **extra)


def test_monte_carlo_edge_entry_and_missing_simulate(monkeypatch, capsys):
    monkeypatch.setattr(registry, "game", lambda name: fake_game())
    assert cli.main(["edge", "ghost", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bets"]["a"] == {"pays": "1:1", "win_probability": 0.5, "house_edge": 0.0, "house_edge_exact": "0"}
    assert out["bets"]["b"] == {"pays": "3:2", "win_probability": 0.4, "house_edge": 0.012, "house_edge_exact": None,
                                "method": "monte_carlo", "rounds": 1000, "ci95": [0.01, 0.014]}
    assert out["bets"]["c"] == {"pays": "2:1", "win_probability": None, "house_edge": 0.25, "house_edge_exact": None}
    for command in (["simulate", "ghost", "--rounds", "10", "--seed", "1"], ["strategy", "ghost"]):
        assert cli.main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "does not provide" in err


def test_simulate_and_strategy_of_a_game_that_has_them(monkeypatch, capsys):
    game = fake_game(simulate=lambda rounds, seed, opts: {"a": {"rounds": rounds, "mean_net": 0.0, "stderr": 0.1}},
                     strategy=lambda opts: "always bet a")
    monkeypatch.setattr(registry, "game", lambda name: game)
    assert cli.main(["simulate", "ghost", "--rounds", "10", "--seed", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bets"] == {"a": {"rounds": 10, "mean_net": 0.0, "stderr": 0.1}}
    assert cli.main(["strategy", "ghost"]) == 0
    assert capsys.readouterr().out == "always bet a\n"


def test_integers_are_written_without_denominator():
    assert [cli.exact(v) for v in (Fraction(1), Fraction(-1), Fraction(0), Fraction(57, 20), 3)] == \
        ["1", "-1", "0", "57/20", "3"]


def test_an_exact_figure_that_names_its_method_prints_its_fraction():
    # Caribbean Stud's ante/raise figures say "method": "exact"; the blackjack main game's say monte_carlo
    exact = cli.edge_entry({"pays": "1:1", "win_probability": Fraction(1, 2), "house_edge": Fraction(3, 100),
                            "method": "exact"})
    assert exact == {"pays": "1:1", "win_probability": 0.5, "house_edge": 0.03, "house_edge_exact": "3/100"}
    simulated = cli.edge_entry({"pays": "1:1", "win_probability": None, "house_edge": 0.005,
                                "method": "monte_carlo", "rounds": 1000, "ci95": [0.001, 0.009]})
    assert simulated["house_edge_exact"] is None and simulated["rounds"] == 1000
    assert simulated["ci95"] == [0.001, 0.009]


@pytest.mark.parametrize("game, article", [("roulette", "RL-2.2"), ("blackjack", "BJ-5.1.2"), ("baccarat", "BAC-10")])
def test_resolve_void_at_the_command_line_RL_2_2_BJ_5_1_2(game, article):
    out = run_json("resolve", game, "void", "--json")
    assert out["outcome"] == "void" and set(out["net"].values()) == {"0"}, article
    assert list(out["net"]) == list(registry.game(game).bets())
