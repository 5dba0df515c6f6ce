"""One simulator per board folder (a second is refused in one line, a killed one's lock does not stay), the folder's own
game kept across restarts (the page's pool is not reset), and a busy port refused before anything runs."""
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

import board  # boards/sim
from harness.ramblockdev import flash_file
from sim.board_process import HEAP, BoardError
from sim.locks import InUse, folder_lock
from sim.simulator import PortBusy, Simulator
from tablectl.journal import Journal
from tablectl.storage import Log
from tablectl.store import Store


def log_of(state_dir):
    """The log on a board folder's flash, read from CPython (the flash is a file)."""
    return Log(flash_file(str(state_dir / "simstate"), board.FLASH_BLOCKS))


def folder_files(folder):
    """Every file of a board folder with its bytes, the lock file aside (its holder rewrites it)."""
    out = {}
    for dirpath, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(dirpath, name)
            if name != "sim.lock":
                with open(path, "rb") as f:
                    out[os.path.relpath(path, folder)] = f.read()
    return out


def journal(state_dir):
    return Journal(log_of(state_dir)).records(100000)


def _alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_second_simulator_on_a_folder_is_refused_and_a_killed_ones_lock_goes_with_it(
        firmware_build, tmp_path, start_sim, mpremote):
    folder, link = tmp_path / "fantan", tmp_path / "sim-fantan.pty"
    script = ("import json, time\nfrom sim.simulator import Simulator\n"
              "s = Simulator('fantan', port=0, state_dir=%r, pty_link=%r, build=%r, heap=%r).start()\n"
              "print(json.dumps([s.board.proc.pid, s.url, s.pty]), flush=True)\ntime.sleep(60)\n"
              % (str(folder), str(link), str(firmware_build), HEAP))
    host = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    board_pid = None
    try:
        board_pid, url, pty = json.loads(host.stdout.readline())
        before = folder_files(folder)
        # `make sim` in a second shell: refused in one line naming the running one, exit 2
        proc = subprocess.run([sys.executable, "-m", "sim", "--game", "fantan", "--state", str(folder),
                               "--port", "0", "--pty-link", str(link)],
                              capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and proc.stdout == "", proc.stderr
        assert lines[0].startswith("sim: %s is in use by another simulator (pid %d, page %s, terminal %s): "
                                   % (folder, host.pid, url, link)), lines
        # and it touched nothing: the running board's folder and terminal link are as they were
        assert folder_files(folder) == before
        assert os.readlink(link) == pty
        code, out = mpremote(link, "resume", "exec", "import service; print(service.status())")
        assert code == 0 and "game fantan, state idle, round 1" in out, out
        with pytest.raises(InUse, match="pid %d" % host.pid):  # the same from the Simulator API
            Simulator("fantan", port=0, state_dir=folder, pty_link=link, build=firmware_build, heap=HEAP).start()
        assert os.readlink(link) == pty  # the refused one's stop() left the other's link alone
        # another folder but the same terminal link: refused too, before its firmware runs
        with pytest.raises(InUse) as e:
            Simulator("fantan", port=0, state_dir=tmp_path / "other", pty_link=link, build=firmware_build,
                      heap=HEAP).start()
        assert ("%s is in use by another simulator (pid %d, page %s, folder %s)" % (link, host.pid, url, folder)
                in str(e.value)) and "its own terminal link with --pty-link" in str(e.value)
        assert not (tmp_path / "other" / "simstate").exists() and os.readlink(link) == pty
    finally:
        host.kill()  # SIGKILL: no clean-up runs in the simulator
        host.wait()
    deadline = time.monotonic() + 10
    while board_pid is not None and _alive(board_pid):
        if time.monotonic() > deadline:
            os.kill(board_pid, signal.SIGKILL)
            pytest.fail("the firmware outlived its simulator")
        time.sleep(0.1)
    # the killed simulator's lock files are still there, naming a dead pid, and block nothing
    assert json.loads((folder / "sim.lock").read_text())["pid"] == host.pid
    assert json.loads((tmp_path / "sim-fantan.pty.lock").read_text())["pid"] == host.pid
    sim = start_sim("fantan", state_dir=folder, pty_link=link)
    assert os.readlink(link) == sim.pty
    seqs = [r[0] for r in journal(folder)]
    assert len(seqs) == len(set(seqs)) and seqs == sorted(seqs)


def test_a_restart_keeps_the_game_the_folder_was_configured_for(start_sim, dealer, tmp_path):
    """Configured baccarat_a -> baccarat_c over the service path, restarted as `make sim GAME=baccarat_a`:
    the folder stays baccarat_c (no config change, no pool closed), and the simulator says so."""
    folder = tmp_path / "baccarat_a"
    sim = start_sim("baccarat_a", state_dir=folder)
    assert (sim.game, sim.notes) == ("baccarat_a", [])  # a new folder takes the game asked for
    # the link calls service.configure(game=...), as a technician would (the key switch on): closing the
    # baccarat_a jackpot is refused with the code that confirms it, then confirmed with that code
    dealer.key(sim)
    sim.link.send("game baccarat_c")
    deadline = time.monotonic() + 10
    while not sim.link.snapshot()[1]["errors"]:
        assert time.monotonic() < deadline, sim.link.snapshot()[1]
        time.sleep(0.05)
    refusal = sim.link.snapshot()[1]["errors"][-1]
    assert "closes the baccarat_a jackpot" in refusal, refusal
    sim.link.send("game baccarat_c " + refusal.split("confirm='")[1][:6])
    deadline = time.monotonic() + 10
    while sim.link.snapshot()[1]["hello"].get("game") != "baccarat_c":
        assert time.monotonic() < deadline, sim.link.snapshot()[1]
        time.sleep(0.05)
    jackpot = sim.link.snapshot()[1]["out"]["jackpot"]
    sim.stop()
    config = Store(log_of(folder)).load("config")
    assert config["v"]["game"] == "baccarat_c"
    events = [r[2:] for r in journal(folder)]

    sim = start_sim("baccarat_a", state_dir=folder)
    after = [r[2:] for r in journal(folder)][len(events):]
    assert after and not [e for e in after if e[0] in ("config", "pool_closed", "cfg_pending")], after
    assert Store(log_of(folder)).load("config") == config
    assert sim.link.snapshot()[1]["hello"]["game"] == "baccarat_c"
    assert sim.link.snapshot()[1]["out"]["jackpot"] == jackpot  # the baccarat_c pool, not a fresh seed
    assert sim.game == "baccarat_c" and sim.requested == "baccarat_a"
    assert len(sim.notes) == 2
    assert "holds a baccarat_c table" in sim.notes[0] and "running baccarat_c, not baccarat_a" in sim.notes[0]
    assert "service.configure(game='baccarat_a')" in sim.notes[1] and str(folder.name) in sim.notes[1]


def test_a_busy_port_is_refused_naming_both_ways_to_choose_and_before_the_firmware_runs(firmware_build, tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    folder = tmp_path / "sicbo"
    try:
        sim = Simulator("sicbo", port=port, state_dir=folder, build=firmware_build, heap=HEAP)
        with pytest.raises(PortBusy) as e:
            sim.start()
        assert "127.0.0.1:%d" % port in str(e.value)
        assert "make sim SIM_PORT=" in str(e.value) and "python -m sim --port " in str(e.value)
        assert not (folder / "simstate").exists() and not (folder / "sim.log").exists()  # no firmware ran
        folder_lock(folder).acquire().release()  # and the refused one let the folder go
    finally:
        taken.close()


def test_folder_lock_refusal_names_what_the_holder_wrote(tmp_path):
    holder = folder_lock(tmp_path / "f").acquire()
    try:
        with pytest.raises(InUse, match=r"in use by another simulator \(pid %d\): stop that one" % os.getpid()):
            folder_lock(tmp_path / "f").acquire()
        holder.describe(url="http://127.0.0.1:8017/", pty="build/sim-sicbo.pty", state="build/simroot/sicbo")
        with pytest.raises(InUse) as e:
            folder_lock(tmp_path / "f").acquire()
        assert "(pid %d, page http://127.0.0.1:8017/, terminal build/sim-sicbo.pty)" % os.getpid() in str(e.value)
        assert "--state" in str(e.value) and "\n" not in str(e.value)
    finally:
        holder.release()
    again = folder_lock(tmp_path / "f").acquire()  # released: free again
    again.release()
    with pytest.raises(BoardError, match="without the lock"):
        again.describe(pid=1)


def test_folder_lock_held_by_a_starting_process_still_refuses(tmp_path):
    """A holder that has locked but written nothing yet (or garbage) is still 'another simulator'."""
    import fcntl
    (tmp_path / "f").mkdir()
    fd = os.open(str(tmp_path / "f" / "sim.lock"), os.O_RDWR | os.O_CREAT)
    try:
        os.write(fd, b"{not json")
        fcntl.flock(fd, fcntl.LOCK_EX)  # another open file description: flock conflicts within one process too
        with pytest.raises(InUse, match=r"in use by another simulator: stop that one first"):
            folder_lock(tmp_path / "f").acquire()
    finally:
        os.close(fd)
    folder_lock(tmp_path / "f").acquire().release()


def test_a_folder_with_a_damaged_configuration_boots_into_the_tilt_and_says_so(start_sim, tmp_path):
    """The simulator neither repairs nor overwrites a damaged record (the firmware's tilt reports it): here the
    configuration an older firmware left as files, which the first boot of this one takes into its log."""
    (tmp_path / "fantan" / "simstate").mkdir(parents=True)
    (tmp_path / "fantan" / "simstate" / "config.0").write_bytes(b"1 00000000 {\"v\": {}}\n")  # a wrong CRC
    sim = start_sim("fantan")
    assert len(sim.notes) == 1 and "configuration record is damaged" in sim.notes[0], sim.notes
    assert (tmp_path / "fantan" / "simstate" / "config.0").read_bytes() == b"1 00000000 {\"v\": {}}\n"
    deadline = time.monotonic() + 5
    assert sim.game is None
    status = sim.link.snapshot()[1]["status"]
    while status.get("state") != "tilt" or "record config has no valid copy" not in status.get("why", ""):
        assert time.monotonic() < deadline, status
        time.sleep(0.05)
        status = sim.link.snapshot()[1]["status"]


def test_the_notes_on_a_folder_of_another_game_name_a_jackpot_only_where_it_has_one(tmp_path):
    """A fan-tan folder started as sic bo: the way back names no jackpot (fan-tan has none); a baccarat A
    folder's says that closing its jackpot asks for a code."""
    sim = Simulator("sicbo", port=0, state_dir=tmp_path / "sicbo")
    fantan = " ".join(sim._other_game_notes("fantan"))
    assert "jackpot" not in fantan and "service.configure(game='sicbo') between rounds (journalled)" in fantan
    assert "closing the baccarat_a jackpot asks for the confirmation code" in " ".join(sim._other_game_notes("baccarat_a"))
