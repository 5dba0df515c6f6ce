"""The contract the service relies on (tablectl.games.Contract): every controller, a tilted table's too, has
its names, so the service asks them directly; the calls that use them answer on each kind of table."""
# mp-heap: 336K
from harness.service_table import corrupt, done, new_app, reboot  # noqa: F401 (done: the scratch folders, after each test)
from tablectl import service
from tablectl.games import DEFAULTS, Contract
from tablectl.games.tilt import TiltController
from mptest import raises

GAMES = ("sicbo", "fish_prawn_crab", "fantan", "caribbean_stud", "fortune3", "baccarat_a", "baccarat_b",
         "baccarat_c")
NAMES = ("game", "round_no", "pool", "figures", "electric", "redraw_digits", "state", "busy", "status", "history",
         "reason", "handle", "tick", "redraw")


def teardown_function(function):
    done()


def has_contract(ctl):
    for name in NAMES:
        assert hasattr(ctl, name), (ctl, name)
    for name in DEFAULTS:  # Contract's own, copied into the controllers' classes (not a base: keeps_contract)
        assert hasattr(Contract, name) and name in NAMES, name
    # no class more in its chain than its game needs: on a progressive's (properties) each attribute stored is
    # looked up in every class of it first, and Contract as the base cost a void's ENTER 49,000 instructions
    cls = type(ctl)
    while cls is not object:
        assert cls is not Contract, type(ctl)
        cls = cls.__bases__[0]


def test_every_games_controller_keeps_the_contract_and_says_if_it_has_a_shaker_and_a_pool_SB_2_1():
    for game in GAMES:
        app = new_app(game)
        ctl = app.controller
        has_contract(ctl)
        assert ctl.game == game and ctl.round_no == 1 and ctl.figures is None  # not linked
        assert ctl.electric() == (game in ("sicbo", "fish_prawn_crab")), game  # the dice games' default shaker
        assert (ctl.pool is None) == (game in ("sicbo", "fish_prawn_crab", "fantan")), game
        assert service.status().data["game"] == game
        done()


def test_a_tilted_table_keeps_the_contract_and_the_service_answers_on_it():
    app = new_app("caribbean_stud")
    corrupt(app, "round")
    app = reboot(app)
    ctl = app.controller
    assert isinstance(ctl, TiltController) and app.tilt
    has_contract(ctl)
    assert ctl.pool is None and ctl.figures is None and ctl.electric() is False
    msg = raises(ValueError, service.shaker_test)
    assert msg == "shaker_test refused: caribbean_stud has no electric shaker (in tilt)", msg
    rep = service.display_test(step_ms=0)  # the digits' redraw is the tilt's no-op
    assert "jackpot digits" in repr(rep), repr(rep)
    assert service.status().data["game"] == "caribbean_stud"
    assert "unavailable in tilt" in repr(service.meters())
