"""boards/sim/simrepl.py, the sim board's REPL, fed byte by byte as mpremote and a person send them (on CPython;
test_mpremote_pty.py runs it for real on the unix port)."""
import importlib.util
import pathlib
import sys

import pytest

PATH = pathlib.Path(__file__).resolve().parent.parent.parent / "boards" / "sim" / "simrepl.py"


@pytest.fixture
def repl(capsys):
    spec = importlib.util.spec_from_file_location("simrepl_under_test", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    r = mod.Repl(write=lambda s: sys.stdout.write(s))  # exec'd print() writes to sys.stdout too

    def feed(data):
        capsys.readouterr()
        r.feed(data)
        return capsys.readouterr().out

    r.send = feed
    return r


def test_raw_mode_framing_as_mpremote_expects(repl):
    assert repl.send(b"\r\x03\r\x01").endswith("raw REPL; CTRL-B to exit\r\n>")
    assert repl.send(b"print(6 * 7)") == ""  # raw mode does not echo
    assert repl.send(b"\x04") == "OK42\r\n\x04\x04>"
    out = repl.send(b"1 / 0\x04")
    assert out.startswith("OK\x04") and out.endswith("\x04>")
    assert "ZeroDivisionError" in out.split("\x04")[1] and "\r\n" in out  # the traceback on the error channel


def test_raw_paste_request_is_declined_so_mpremote_falls_back(repl):
    repl.send(b"\x01")
    assert repl.send(b"\x05A\x01") == "R\x00"
    assert repl.send(b"x = 3\x04") == "OK\x04\x04>"  # then plain raw input works
    assert repl.send(b"print(x)\x04") == "OK3\r\n\x04\x04>"


def test_ctrl_c_only_drops_the_line(repl):
    repl.send(b"\x01")
    assert repl.send(b"raise SystemExit\x03print(1)\x04") == "OK1\r\n\x04\x04>"  # the typed text was dropped
    out = repl.send(b"\x02")  # Ctrl-B: back to the friendly prompt
    assert out.startswith("\r\n") and out.endswith(">>> ")
    out = repl.send(b"1 + \x03")
    assert "KeyboardInterrupt (the controller keeps running)" in out and out.endswith(">>> ")
    assert "SystemExit ignored" in repl.send(b"raise SystemExit\r")  # nothing typed stops the board


def test_friendly_line_editing_and_cooked_line_ends(repl):
    out = repl.send(b"print(2 * 22\x7f1, 'a\\nb')\r")  # a typo mended with backspace
    assert out == "print(2 * 22\b \b1, 'a\\nb')\r\n42 a\r\nb\r\n>>> "
    assert repl.send(b"print('x', end='')\r") == "print('x', end='')\r\nx>>> "


def test_soft_reset_forgets_the_names_and_says_so(repl):
    repl.send(b"\x01")
    repl.send(b"y = 1\x04")
    assert repl.send(b"\x04") == "\r\nMPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>"
    assert "NameError" in repl.send(b"print(y)\x04")


def test_a_block_is_collected_until_an_empty_line(repl):
    assert repl.send(b"for i in range(3):\r") == "for i in range(3):\r\n... "
    assert repl.send(b"  print(i * 10)\r") == "  print(i * 10)\r\n... "
    assert repl.send(b"\r") == "\r\n0\r\n10\r\n20\r\n>>> "
    assert repl.send(b"if 1:\r\x03").endswith("KeyboardInterrupt (the controller keeps running)\r\n>>> ")
    assert repl.send(b"print('fresh')\n") == "print('fresh')\r\nfresh\r\n>>> "  # a bare \n ends a line too
