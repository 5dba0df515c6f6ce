"""docs/link.md's walkthrough as written: `make link`'s demo on the broker port it is given, a simulator,
the service key, the docs' own shell lines (read from the page, only the paths and the port put where
this test runs them), the confirmation code, and the table on the link: the server hears it."""
import pytest
import pathlib
import re
import subprocess
import sys
import time

from jackpot.rig import Demo, env

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
BIN = pathlib.Path(sys.executable).parent


def docs_lines():
    """The shell block after `make sim GAME=caribbean_stud` in docs/link.md: the password and configure."""
    text = (ROOT / "docs" / "link.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    block = [b for b in blocks if "PASSWORD=$(" in b and "service.configure(link=" in b]
    assert len(block) == 1, blocks
    return block[0]


def run_shell(script, tmp_path):
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60, cwd=str(tmp_path),
                          env=dict(env(), PATH="%s:/usr/bin:/bin" % BIN))
    return proc.returncode, proc.stdout + proc.stderr


def until(ok, what, timeout=60):
    deadline = time.monotonic() + timeout
    while True:
        got = ok()
        if got:
            return got
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def test_the_docs_walkthrough_puts_a_simulator_on_make_links_demo(start_sim, tmp_path, mpremote, dealer):
    demo = Demo(tmp_path / "build", tables=6).start()  # the docs' paths: build/link/... from here
    port, status = demo.broker_port, demo.status
    try:
        assert "yours    t07 on the link" in demo.output()  # the id the docs give the simulator
        sim = start_sim("caribbean_stud", pty_link=tmp_path / "build" / "sim-caribbean_stud.pty")
        dealer.key(sim, True)  # the page's service key switch, read by the board before the docs' configure
        script = docs_lines().replace("127.0.0.1:1883", "127.0.0.1:%d" % port)
        code, out = run_shell(script, tmp_path)
        # a new table holds its seed: the first configure is refused with the code to confirm it
        found = re.search(r"confirm='(\d{6})'", out)
        assert found and "aside" in out, out
        code, out = run_shell(script.replace("/pit1')", "/pit1', confirm='%s')" % found.group(1)), tmp_path)
        assert code == 0 and "link = 'mqtt://t07:***@127.0.0.1:%d/pit1' (now)" % port in out, out
        assert "REFUSED" not in out, out
        dealer.key(sim, False)  # read before the first LOCK (one sent but not yet read refuses it)
        heard = until(lambda: ((status() or {}).get("links", {}).get("pit1", {}).get("tables", {}).get("t07")),
                      "t07's heartbeat on the server")
        assert heard["last_at"]
        assert demo.credentials()["t07"] not in out  # the docs' configure shows the link without its password
        # rounds on the link, then the journal as the docs print a report: in the sim's heap, a line at a
        # time (print() of the whole report as one string failed every time once the journal was full)
        for s in range(1, 8):
            sim.link.send("seat %d 1" % s)
        for _ in range(30):
            dealer.wait_state(sim, "betting", 30)
            dealer.press(sim, "LOCK")
            dealer.wait_state(sim, "locked", 30)
            dealer.press(sim, "CONFIRM")
        for _ in range(3):
            code, out = mpremote(sim.pty, "resume", "exec", "import service; print(service.journal(35))")
            assert code == 0 and "journal (last 35 of" in out and "MemoryError" not in out, out[-400:]
    finally:
        demo.stop()  # SIGTERM: the demo stops its broker, tables and web side
