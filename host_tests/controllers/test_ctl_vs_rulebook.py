"""The controllers against the reference engine, outcome by outcome: every one of the 216 dice throws and
the 4 fan-tan numbers are played as a round through handle(), and the lamps the sim board shows must be
exactly the winning spots of rulebook (net > 0), with fan-tan's pushes (FT-8, net 0) on the push colour."""
import pytest

from harness.tables import cleanup, drive, new_app
from rulebook import fantan as rulebook_fantan  # a differential test never skips
from rulebook import fish_prawn_crab as rulebook_fpc
from rulebook import sicbo as rulebook_sicbo

THROWS = [(a, b, c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)]


def play_all(app, reference, opts):
    """Play every throw; returns the throws whose lamps differ from the reference's winners."""
    wrong = []
    for d in THROWS:
        drive(app, "SHAKE")
        app.board.clock.advance(app.config["shake_ms"])
        app.tick()
        assert drive(app, "BELL", str(d[0]), str(d[1]), str(d[2]), "ENTER") == [True] * 5
        lit = app.board.lit()
        want = set(k for k, net in reference.resolve(d, opts).items() if net > 0)
        if set(lit) != want or set(lit.values()) - {1}:
            wrong.append((d, sorted(set(lit) ^ want)))
        drive(app, "CONFIRM")
    return wrong


@pytest.mark.parametrize("cfg,opts", [
    ({}, {}),
    ({"pay_5_16": 30, "pay_6_15": 18, "odd_even_lose_on_triple": True},
     {"pay_5_16": 30, "pay_6_15": 18, "odd_even_lose_on_triple": True}),
])
def test_sicbo_lamps_are_the_reference_winners_for_all_216_throws_SB_5_SB_6_SB_7(cfg, opts):
    app = new_app("sicbo", **cfg)
    assert play_all(app, rulebook_sicbo, opts) == []
    assert app.controller.round_no == 217 and len(app.controller.history()) == 20
    cleanup()


def test_fish_prawn_crab_lamps_are_the_reference_winners_for_all_216_throws_FPC_5_FPC_7():
    app = new_app("fish_prawn_crab")
    assert play_all(app, rulebook_fpc, {}) == []
    cleanup()


def test_fantan_lamps_are_the_reference_winners_and_pushes_FT_6_1_to_6_2_4_FT_8():
    app = new_app("fantan")
    for count in range(1, 13):  # every remainder three times over
        drive(app, "SHAKE", "BELL", *list(str(count)))
        assert drive(app, "ENTER") == [True]
        number = app.controller.number
        ref = rulebook_fantan.resolve(number, {})
        lit = app.board.lit()
        assert set(k for k in lit if lit[k] == 1) == set(k for k, n in ref.items() if n > 0), count
        assert set(k for k in lit if lit[k] == 2) == set(k for k, n in ref.items() if n == 0), count
        assert number == rulebook_fantan.parse_outcome("count=%d" % count), count
        drive(app, "CONFIRM")
    cleanup()
