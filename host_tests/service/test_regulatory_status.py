"""What status() tells a technician a lab would ask: the fixed jackpot amounts still at the firmware's
placeholders (BAC-17.13 wants the approved ones) and sic bo's reading of odd/even on a triple (SB-7)."""
# mp-heap: 288K
# (boots an App per test, as test_service does)
import gc

import board  # boards/sim

from harness.ramblockdev import flash_file, remove_dir, scratch_dir
from tablectl import app as appmod
from tablectl import config, service
from tablectl.config import DEFAULTS, Config, placeholders, validate
from tablectl.storage import Log
from tablectl.store import Store

ROOTS = []


def new_app(game, **cfg):
    gc.collect()
    root = scratch_dir("rs")
    ROOTS.append(root)
    flash = flash_file(root)
    Config(Store(Log(flash))).change(0, game=game, **cfg)
    app = appmod.App(board.make(virtual_clock=True, flash=flash), root)
    app.tick()
    appmod.current = app
    return app


def teardown_function(function):
    appmod.current = None
    service.use(None)
    while ROOTS:
        remove_dir(ROOTS.pop())


def test_placeholders_are_the_games_fixed_amounts_left_at_the_default_BAC_17_13():
    for game in config.PROGRESSIVE:
        keys = config.keys_for(game)
        shipped = placeholders(validate({"game": game}))
        assert shipped and all(k in keys and DEFAULTS[k] for k in shipped), (game, shipped)
        approved = dict((k, DEFAULTS[k] + 1) for k in shipped)
        assert placeholders(validate(dict(approved, game=game))) == []
        one = dict(approved)
        one[shipped[0]] = DEFAULTS[shipped[0]]
        assert placeholders(validate(dict(one, game=game))) == [shipped[0]]
    for game in ("sicbo", "fantan", "fish_prawn_crab"):
        assert placeholders(validate({"game": game})) == []


def test_status_names_the_placeholder_amounts_until_they_are_set_BAC_17_13():
    app = new_app("caribbean_stud")
    rep = service.status()
    assert rep.data["placeholders"] == placeholders(app.config.values) != []
    assert "demo amounts, not the approved ones (BAC-17.13): set fixed_" in repr(rep)
    approved = dict((k, app.config[k] + 100) for k in rep.data["placeholders"])
    app.config.change(0, **approved)  # a live pool: the amounts apply after the next hit (CSP-10.3)
    assert service.status().data["placeholders"] == sorted(approved)
    teardown_function(None)
    new_app("caribbean_stud", **approved)  # the amounts set with the game, as on a new table
    left = service.status()
    assert "placeholders" not in left.data and "demo amounts" not in repr(left), left.data


def test_status_shows_sicbo_odd_even_on_a_triple_SB_7():
    app = new_app("sicbo", pay_5_16=18)
    assert app.controller.status()["odd_even_on_triple"].startswith("win (SB-7 read literally")
    assert "odd_even_on_triple: win (SB-7 read literally: 0% house edge)" in repr(service.status())
    teardown_function(None)
    app = new_app("sicbo", odd_even_lose_on_triple=True)
    assert service.status().data["details"]["odd_even_on_triple"] == "lose (the layout rule)"


def test_fish_prawn_crab_status_has_no_odd_even_line_FPC_5():
    app = new_app("fish_prawn_crab")
    assert "odd_even_on_triple" not in app.controller.status()
