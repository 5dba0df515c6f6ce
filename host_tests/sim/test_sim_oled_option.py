"""python -m sim --oled: the sim board's graphic display is asked for through the board process's environment,
and refused in one line on the qemu board, which has the 16x2 display only."""
import os

from sim import __main__ as sim_main


def own_environment(monkeypatch):
    """os.environ as a copy this test may change (main() sets the variable itself)."""
    env = dict(os.environ)
    env.pop("TABLECTL_DISPLAY", None)
    monkeypatch.setattr(os, "environ", env)
    return env


def test_oled_on_the_qemu_board_is_refused_in_one_line_and_sets_nothing(capsys, monkeypatch):
    env = own_environment(monkeypatch)
    assert sim_main.main(["--oled", "--board", "qemu"]) == 2
    err = capsys.readouterr().err
    assert err == "sim: --oled is the sim board's (the qemu board has the 16x2 display only)\n"
    assert "TABLECTL_DISPLAY" not in env


def test_oled_asks_the_board_process_for_the_ssd1306(monkeypatch, tmp_path):
    own_environment(monkeypatch)
    started = []

    class Refused(Exception):
        pass

    class Stub:  # stands in for the Simulator: what matters is the environment it would start the board with
        def __init__(self, *a, **kw):
            started.append(os.environ.get("TABLECTL_DISPLAY"))
            raise Refused()

    monkeypatch.setattr(sim_main, "Simulator", Stub)
    try:
        sim_main.main(["--oled", "--state", str(tmp_path)])
    except Refused:
        pass
    assert started == ["SSD1306"]
