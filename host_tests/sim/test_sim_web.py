"""The simulator's web side: page requests become link commands only when valid; the state is what the board sent."""
import json
import os
import select
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from sim.board_process import HEAP
from sim.web import command_for

ROLES = ["0", "1", "BELL", "VOID"]


@pytest.mark.parametrize("req, line", [
    ({"cmd": "press", "role": "BELL"}, "press BELL"),
    ({"cmd": "release", "role": "0"}, "release 0"),
    ({"cmd": "seat", "seat": 1, "on": True}, "seat 1 1"),
    ({"cmd": "seat", "seat": 7, "on": False}, "seat 7 0"),
    ({"cmd": "cover", "on": False}, "cover 0"),
])
def test_valid_requests_become_link_commands(req, line):
    assert command_for(req, ROLES, 7) == line


@pytest.mark.parametrize("req, why", [
    ({"cmd": "press", "role": "SHAKE"}, "no button 'SHAKE'"),   # not a button of this board
    ({"cmd": "press", "role": "BELL\npress VOID"}, "no button"),  # no second command smuggled in
    ({"cmd": "seat", "seat": 0, "on": True}, "seat must be 1..7"),
    ({"cmd": "seat", "seat": 8, "on": True}, "seat must be 1..7"),
    ({"cmd": "seat", "seat": True, "on": True}, "seat must be 1..7"),
    ({"cmd": "seat", "seat": "3", "on": True}, "seat must be 1..7"),
    ({"cmd": "reboot"}, "unknown cmd 'reboot'"),
    (["press", "BELL"], "JSON object"),
])
def test_bad_requests_are_refused_with_the_reason(req, why):
    with pytest.raises(ValueError, match=why):
        command_for(req, ROLES, 7)


def post(url, body):
    req = urllib.request.Request(url + "input", data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_http_inputs_reach_the_board_and_bad_ones_change_nothing(start_sim, dealer):
    sim = start_sim("caribbean_stud")
    with urllib.request.urlopen(sim.url + "state", timeout=10) as r:
        state = json.loads(r.read())
    assert state["connected"] and state["hello"]["game"] == "caribbean_stud"
    assert state["hello"]["layout"][:7] == ["seat_%d" % s for s in range(1, 8)]
    before = sim.link.snapshot()[1]["out"]
    assert post(sim.url, b'{"cmd": "seat", "seat": 9, "on": true}')[0] == 400
    assert post(sim.url, b"not json")[0] == 400
    assert sim.link.snapshot()[1]["out"] == before
    assert post(sim.url, b'{"cmd": "seat", "seat": 4, "on": true}') == (200, {"sent": "seat 4 1"})
    dealer.wait_out(sim, lambda out: out["seats"][3] == 1 and out["lamps"] != before["lamps"])
    with urllib.request.urlopen(sim.url, timeout=10) as r:
        assert b"table.js" in r.read()
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(sim.url + "../../etc/passwd", timeout=10)



def test_a_press_and_its_release_that_arrive_together_still_count(start_sim, dealer):
    """A busy board reads the host's press and release in one go: the press still counts (it is held on
    the board's clock as long as a press takes), as a real button's latched edges keep their times."""
    sim = start_sim("caribbean_stud")
    sim.link.send("seat 3 1")
    dealer.wait_state(sim, "betting", 30)
    sim.link.send("press LOCK\nrelease LOCK")  # one write: both lines reach the board at once
    dealer.wait_state(sim, "locked", 30)


def test_the_board_powers_off_when_the_simulator_is_killed(firmware_build, tmp_path):
    """Even a SIGKILLed simulator leaves no firmware running: the board ends when its link closes."""
    script = ("import sys, time\nfrom sim.simulator import Simulator\n"
              "s = Simulator('fantan', port=0, state_dir=%r, build=%r, heap=%r).start()\n"
              "print(s.board.proc.pid, flush=True)\ntime.sleep(60)\n" % (str(tmp_path / "b"), str(firmware_build), HEAP))
    host = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        board_pid = int(host.stdout.readline())
        pidfd = os.pidfd_open(board_pid)  # the board is not our child: its exit is waited on through this
    finally:
        host.kill()
        host.wait()
    try:
        # a generous bound, only so that a failure ends: the board's exit itself is what is waited on
        if not select.select([pidfd], [], [], 60)[0] and _alive(board_pid):
            why = _where(board_pid, tmp_path / "b" / "sim.log")
            os.kill(board_pid, signal.SIGKILL)
            pytest.fail("the firmware outlived its simulator:\n" + why)
    finally:
        os.close(pidfd)


def _where(pid, log):
    """What a board that did not exit was doing: its state and kernel wait, and its log's end."""
    parts = []
    for name in ("stat", "wchan", "stack"):
        try:
            with open("/proc/%d/%s" % (pid, name)) as f:
                parts.append("%s: %s" % (name, f.read().strip()))
        except OSError as e:
            parts.append("%s: %s" % (name, e))
    try:
        parts.append(log.read_text(errors="replace")[-2000:])
    except OSError:
        pass
    return "\n".join(parts)


def _alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has exited, unreaped
    except OSError:
        return False


def test_the_chips_and_the_cover_are_sent_again_to_a_board_that_connects(tmp_path):
    """The link server keeps the last of each physical input (in the folder's inputs.json) and sends them to
    every board that connects: the board after a power cut, or under a restarted simulator, reads the
    chips where they lie. A damaged file is a fresh table's inputs."""
    import socket
    from sim.hostlink_server import HostLinkServer

    def board_of(server):
        sock = socket.create_connection(server.address, timeout=5)
        deadline = time.monotonic() + 5
        while server.conn is None:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        return sock

    kept = tmp_path / "inputs.json"
    server = HostLinkServer(inputs_path=kept)
    board = board_of(server)
    for line in ("seat 2 1", "seat 5 1", "seat 2 0", "cover 0", "press BELL"):
        server.send(line)
    board.close()
    server.close()
    assert json.loads(kept.read_text()) == {"seat 2": "0", "seat 5": "1", "cover": "0"}  # no key press
    server = HostLinkServer(inputs_path=kept)  # the simulator started again on the folder
    board = board_of(server)
    got = b""
    while got.count(b"\n") < 4:
        got += board.recv(1024)
    # "sync" first (a board on a serial line cannot see the host arrive), then the inputs
    assert got.decode().splitlines() == ["sync", "cover 0", "seat 2 0", "seat 5 1"]
    board.close()
    server.close()
    kept.write_text("{not json")
    server = HostLinkServer(inputs_path=kept)
    assert server.inputs == {}
    server.close()


def test_the_board_powers_off_when_its_link_is_reset(firmware_build, tmp_path):
    """A simulator killed with data unread resets the connection (RST, not FIN): the board's read fails
    (ECONNRESET) rather than ends, and it must power off all the same."""
    import socket
    import struct
    from sim.board_process import BoardProcess
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    board = BoardProcess(tmp_path / "b", link=server.getsockname(), build=firmware_build, heap=HEAP, repl=False)
    board.first_boot("fantan")
    with board:
        conn, _ = server.accept()
        seen = b""
        while b'"t": "status"' not in seen:  # the board has sent all it had and now waits on its read
            seen += conn.recv(4096)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()  # linger 0: a reset, as the kernel sends for a killed process with data unread
        server.close()
        try:
            board.proc.wait(timeout=60)  # the exit itself is waited on; the bound only ends a failure
        except subprocess.TimeoutExpired:
            pytest.fail("the firmware outlived a reset link:\n" + board.log_tail())
