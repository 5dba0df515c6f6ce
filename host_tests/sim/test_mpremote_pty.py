"""A technician's real mpremote against the simulated board's pseudo-terminal, while the controller runs."""
import os


def status_over_pty(mpremote, port):
    code, out = mpremote(port, "resume", "exec", "import service; print(service.status())")
    assert code == 0, out
    return out


def test_status_shows_the_live_controller(start_sim, mpremote, dealer):
    sim = start_sim("fantan")
    assert "game fantan, state idle, round 1" in status_over_pty(mpremote, sim.pty)
    dealer.press(sim, "SHAKE")  # FT-4: the heap covered, betting opens
    dealer.wait_state(sim, "betting")
    out = status_over_pty(mpremote, sim.pty)
    assert "game fantan, state betting, round 1.1 (round in progress)" in out, out
    # the REPL session did not disturb the controller: it still takes the dealer's buttons
    dealer.press(sim, "BELL")
    dealer.wait_state(sim, "closed")
    assert sim.board.alive()


def test_stable_link_eval_and_errors(start_sim, mpremote, tmp_path):
    sim = start_sim("fantan", pty_link=tmp_path / "sim-fantan.pty")
    assert os.readlink(tmp_path / "sim-fantan.pty") == sim.pty
    code, out = mpremote(tmp_path / "sim-fantan.pty", "resume", "eval", "6 * 7")
    assert (code, out.strip()) == (0, "42")
    # a failing statement: mpremote gets the traceback on the error channel and exits 1
    code, out = mpremote(sim.pty, "resume", "exec", "1 / 0")
    assert code == 1 and "ZeroDivisionError" in out, out
    # names persist between commands of one session, like a board's REPL
    code, out = mpremote(sim.pty, "resume", "exec", "x = 5", "+", "eval", "x + 1")
    assert (code, out.strip()) == (0, "6"), out
    assert sim.board.alive()


def test_fs_ls_cp_and_cat(start_sim, mpremote, tmp_path):
    sim = start_sim("fantan")
    payload = bytes(range(256)) * 9 + b"end\r\n\x04\x03\x01"  # every byte value, control characters too
    src = tmp_path / "payload.bin"
    src.write_bytes(payload)
    code, out = mpremote(sim.pty, "resume", "fs", "cp", str(src), ":payload.bin")
    assert code == 0, out
    assert (sim.state_dir / "payload.bin").read_bytes() == payload  # landed in the board's folder
    code, out = mpremote(sim.pty, "resume", "fs", "ls")
    assert code == 0, out
    assert "payload.bin" in out.split(), out  # (the unix port's ilistdir gives no sizes: ls shows 0)
    assert "simstate/" in out  # the controller's records folder
    back = tmp_path / "back.bin"
    code, out = mpremote(sim.pty, "resume", "fs", "cp", ":payload.bin", str(back))
    assert code == 0, out
    assert back.read_bytes() == payload
    (sim.state_dir / "note.txt").write_text("seat 3 sensor replaced\n")
    code, out = mpremote(sim.pty, "resume", "fs", "cat", "note.txt")
    assert code == 0 and "seat 3 sensor replaced" in out, out


def test_service_macros_of_tools_mpremote_config(start_sim, mpremote, mpremote_env, dealer):
    """tools/boardops/mpremote/config.py installed as mpremote's user config: the macros reach the live service."""
    sim = start_sim("fantan")

    def macro(*names):
        args = []
        for i, name in enumerate(names):
            args += (["+"] if i else []) + [name]
        return mpremote(sim.pty, *args, env=mpremote_env)

    dealer.press(sim, "SHAKE")
    dealer.wait_state(sim, "betting")
    code, out = macro("status", "journal", "config")
    assert code == 0, out
    assert "game fantan, state betting, round 1.1 (round in progress)" in out
    assert "journal (last" in out and "open" in out  # the betting-open event of this round
    assert "game" in out and "'fantan'" in out
    dealer.key(sim)  # the technician's key on: the round in progress is what refuses
    code, out = macro("lamptest")  # refused mid-round: the reason in one line, and the controller goes on
    assert code == 0 and out.startswith("REFUSED: lamp_test refused: round 1 in progress"), out
    assert out.count("\n") == 1 and "Traceback" not in out, out
    assert sim.link.snapshot()[1]["status"]["state"] == "betting" and sim.board.alive()


def test_a_person_at_the_terminal_gets_the_friendly_prompt(start_sim):
    """The pty as a terminal program sees it: '>>> ', echo, values shown, \\r\\n line ends, Ctrl-C harmless."""
    import termios
    import time
    import tty

    sim = start_sim("fantan")
    fd = os.open(sim.pty, os.O_RDWR | os.O_NOCTTY)
    try:
        tty.setraw(fd)
        termios.tcflush(fd, termios.TCIFLUSH)

        def typed(data, until=b">>> ", timeout=10):
            os.write(fd, data)
            got, deadline = b"", time.monotonic() + timeout
            while not got.endswith(until):
                assert time.monotonic() < deadline, got
                got += os.read(fd, 4096)
            return got

        typed(b"print('in' 'sync')\r", until=b"\r\ninsync\r\n>>> ")  # past the boot banner, however late
        assert typed(b"6 * 7\r") == b"6 * 7\r\n42\r\n>>> "
        assert typed(b"for i in (1, 2):\r  print(i)\r\r").endswith(b"... \r\n1\r\n2\r\n>>> ")
        assert typed(b"import service\r") == b"import service\r\n>>> "
        # a refusal is one line for the person reading it, not a traceback
        assert typed(b"service.history(0)\r") == b"service.history(0)\r\nREFUSED: n must be an integer 1..200, got 0\r\n>>> "
        assert b"game fantan, state idle, round 1" in typed(b"service.status()\r")
        assert b"KeyboardInterrupt (the controller keeps running)" in typed(b"while True: pass\x03")
        assert typed(b"_\r").startswith(b"_\r\nstatus\r\n")  # the last value shown is kept in _
    finally:
        os.close(fd)
    # the page's status is the board's next one (a status cut by a full heap is sent again at the next tick)
    version, picture = sim.link.snapshot()
    deadline = time.monotonic() + 30
    while "state" not in picture["status"] and time.monotonic() < deadline:
        version = sim.link.wait(version, 1)
        picture = sim.link.snapshot()[1]
    assert picture["status"].get("state") == "idle" and sim.board.alive(), picture["status"]


def test_with_the_service_key_off_a_technician_reads_but_changes_nothing(start_sim, mpremote, dealer):
    """Over the real mpremote: every call that changes the table is refused in one line with the key off;
    the key turned on (the page's switch) lets them through and is journalled."""
    sim = start_sim("sicbo")
    for call in ("configure(pay_5_16=20)", "lamp_test(0)", "display_test(0)", "shaker_test(1000)",
                 "ram_clear(service.ram_clear().data['code'])"):
        code, out = mpremote(sim.pty, "resume", "exec", "import service; print(service.%s)" % call)
        assert code == 0 and "REFUSED: " in out and "the service key is off" in out, (call, out)
        assert "Traceback" not in out, out
    code, out = mpremote(sim.pty, "resume", "exec", "import service; print(service.status())")
    assert "service key off" in out and "game sicbo, state idle" in out, out
    dealer.key(sim)
    code, out = mpremote(sim.pty, "resume", "exec", "import service; print(service.configure(pay_5_16=20))")
    assert code == 0 and "pay_5_16 = 20 (now)" in out, out
    code, out = mpremote(sim.pty, "resume", "exec", "import service; print(service.journal(5))")
    assert "key_on" in out and "pay_5_16 18->20" in out, out
    dealer.press(sim, "SHAKE")  # no round starts while the key is on
    assert sim.link.snapshot()[1]["status"]["state"] == "idle"
