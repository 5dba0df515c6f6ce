"""A real board ships no jackpot amounts (BAC-17.13: the DICJ approves them, the technician sets them):
tablectl.config loaded without a virtual board's demo_amounts module, on CPython."""
import importlib.util
import pathlib

import pytest

from tablectl import config as sim_config

CONFIG = pathlib.Path(sim_config.__file__)


@pytest.fixture
def real(monkeypatch):
    """tablectl.config as a Pico or an ESP32 loads it: no demo_amounts module on the board."""
    monkeypatch.setitem(__import__("sys").modules, "demo_amounts", None)  # import raises ImportError
    spec = importlib.util.spec_from_file_location("config_on_a_real_board", CONFIG)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_real_board_ships_no_fixed_amount_BAC_17_13(real):
    assert sim_config.DEMO and all(sim_config.DEFAULTS[k] == v for k, v in sim_config.DEMO.items())
    assert set(real.DEMO) == set(sim_config.DEMO)
    assert all(real.DEFAULTS[k] == 0 for k in real.DEMO)
    others = [k for k in real.DEFAULTS if k not in real.DEMO]
    assert all(real.DEFAULTS[k] == sim_config.DEFAULTS[k] for k in others)


@pytest.mark.parametrize("game", sim_config.PROGRESSIVE)
def test_a_new_real_table_refuses_a_progressive_game_until_its_amounts_are_set_BAC_17_13(real, game):
    cfg = real.Config(None)
    with pytest.raises(ValueError, match="fixed_.*a fixed amount the casino posts"):
        cfg.change(0, game=game)
    assert cfg["game"] == "sicbo"  # nothing changed
    needed = [k for k in real.keys_for(game) if k in real.DEMO]
    amounts = dict((k, 1000 + i) for i, k in enumerate(needed))
    refused = 0
    for k in needed:  # each fixed award left at 0 is refused by name (a max(fixed, pool) award may be 0)
        try:
            real.validate(dict(amounts, game=game, **{k: 0}))
        except ValueError as e:
            assert str(e).startswith(k + ":"), e
            refused += 1
    assert refused >= 3
    cfg.change(0, game=game, **amounts)
    assert cfg["game"] == game and real.placeholders(cfg.values) == []


@pytest.mark.parametrize("game", sim_config.PROGRESSIVE)
def test_the_virtual_boards_demo_amounts_are_named_until_changed_BAC_17_13(game):
    values = sim_config.validate({"game": game})
    shown = sim_config.placeholders(values)
    assert shown == sorted(k for k in sim_config.keys_for(game) if k in sim_config.DEMO)
