"""The firmware frozen into the qemu board's image (boards/qemu, tools/building/qemu_image.py), ARMv6-M code on qemu-system-arm's
Cortex-M3: it builds, boots main.py, plays every controller through the sim board's virtual buttons with
the same lamps, display and digits as the unix port for the same keys, answers the real mpremote while
the table runs, resumes exactly after a power cut (SIGKILL), and plays a long session with the
technician's reports in 64 KB. The image is built once (tools/building/qemu_image.py's stamp keeps it)."""
import concurrent.futures
import functools
import re
import time

import pytest

from building import build_mpy
from building import qemu_image as fwbuild
from sim.mcu import McuProcess, run_main
from sim.simulator import Simulator

ROOT = build_mpy.ROOT
pytestmark = pytest.mark.qemu

GAMES = ("sicbo", "fish_prawn_crab", "fantan", "caribbean_stud", "fortune3", "baccarat_a")


@pytest.fixture(scope="module")
def image():
    return fwbuild.build()


@pytest.fixture
def start_qemu(image, tmp_path):
    """start_qemu(game) -> a running Simulator whose board is the qemu board; stopped after."""
    started = []

    def start(game, **kw):
        kw.setdefault("state_dir", tmp_path / ("qemu-" + game))
        sim = Simulator(game, port=0, board=McuProcess, **kw)
        started.append(sim)
        return sim.start(timeout=60)

    yield start
    for sim in started:
        sim.stop()


def picture(sim):
    """What the page would show: every output the board reported, and the controller's status."""
    state = sim.link.snapshot()[1]
    status = {k: state["status"].get(k) for k in ("game", "state", "round", "entry", "message", "locked")}
    return {"out": state["out"], "status": status}


def settled(sims, same=True, quiet=0.4, timeout=15):
    """Wait until no board's picture has changed for `quiet` s (and, with `same`, all are equal); the pictures."""
    deadline = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while True:
        now = [picture(s) for s in sims]
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet and (not same or all(p == now[0] for p in now)):
            return now
        if time.monotonic() > deadline:
            return now
        time.sleep(0.05)


def act(sims, step):
    """One step of a script on every board at once: a key (pressed and released), or a seat sensor."""
    if step.startswith("seat"):
        for s in sims:
            s.link.send(step)
        return
    for s in sims:
        s.link.send("press " + step)
    time.sleep(0.15)  # past the 30 ms debounce
    for s in sims:
        s.link.send("release " + step)


def script(game):
    if game in ("sicbo", "fish_prawn_crab"):
        return ["SHAKE", "wait", "BELL", "2", "2", "5", "ENTER", "CONFIRM", "SHAKE", "wait", "BELL", "6", "6",
                "6", "ENTER", "HISTORY"]
    if game == "fantan":
        return ["SHAKE", "BELL", "1", "3", "ENTER", "CONFIRM", "SHAKE", "BELL", "4", "ENTER", "CONFIRM", "HISTORY"]
    if game.startswith("baccarat"):  # a baccarat hit is the coup's cards (issue 21): two rounds without one here
        return ["seat 2 1", "seat 5 1", "LOCK", "CONFIRM", "seat 2 0", "LOCK", "CONFIRM"]
    return ["seat 2 1", "seat 5 1", "LOCK", "HIT", "5", "ENTER", "1", "ENTER"] + list("021041061081101") + [
            "ENTER", "CONFIRM", "CONFIRM",
            "seat 2 0", "LOCK", "CONFIRM"]


def test_the_image_is_the_mps2_board_with_the_firmware_frozen(image):
    head = image.read_bytes()[:20]
    assert head[:4] == b"\x7fELF" and int.from_bytes(head[18:20], "little") == 40  # EM_ARM
    text, data, bss = fwbuild.sizes(image)
    assert bss >= fwbuild.heap_array() and text > 150000, (text, data, bss)
    # the frozen firmware is in it: its modules' names are in the image's strings
    blob = image.read_bytes()
    for name in (b"tablectl/games/dice.py", b"tablectl/rules/pool.py", b"service.py", b"simrepl.py", b"_boot.py"):
        assert name in blob, name


@pytest.mark.parametrize("game", GAMES)
def test_every_controller_shows_on_qemu_what_it_shows_on_the_unix_port(game, start_qemu, start_sim):
    qemu = start_qemu(game)
    unix = start_sim(game)
    boards = [unix, qemu]
    first = settled(boards)
    assert first[0] == first[1] and first[1]["status"]["game"] == game, first
    for step in script(game):
        if step == "wait":  # the electric shaker runs its configured time (real time on both boards)
            deadline = time.monotonic() + 10
            while any(picture(s)["status"]["state"] != "betting" for s in boards):
                assert time.monotonic() < deadline, [picture(s)["status"] for s in boards]
                time.sleep(0.1)
            continue
        act(boards, step)
        now = settled(boards)
        assert now[1] == now[0], "after %s: qemu %s != unix %s" % (step, now[1], now[0])
    assert qemu.board.alive() and unix.board.alive()
    assert picture(qemu)["status"]["round"] >= 2  # the rounds really were played


@pytest.fixture
def run_mpremote(mpremote):
    # the emulated Cortex-M3 answers more slowly than the unix port
    return functools.partial(mpremote, timeout=60)


def test_service_answers_the_real_mpremote_while_the_table_runs(start_qemu, run_mpremote, mpremote_env, tmp_path):
    sim = start_qemu("fantan", pty_link=tmp_path / "mcu.pty")
    act([sim], "SHAKE")
    assert settled([sim])[0]["status"]["state"] == "betting"
    code, out = run_mpremote(tmp_path / "mcu.pty", "status", env=mpremote_env)
    assert code == 0 and "game fantan, state betting, round 1.1 (round in progress)" in out, out
    for macro, expect in (("meters", "rounds"), ("journal", "open"), ("config", "game"), ("history", "history"),
                          ("selftest", "all OK")):
        code, out = run_mpremote(sim.pty, macro, env=mpremote_env)
        assert code == 0 and expect in out, (macro, out)
    code, out = run_mpremote(sim.pty, "resume", "eval", "6 * 7")
    assert (code, out.strip()) == (0, "42"), out
    # the firmware is frozen: imported from the image (a frozen module's __file__ has no folder), nothing of
    # it on the filesystem but main.py
    code, out = run_mpremote(sim.pty, "resume", "exec", "import board, os, tablectl.app as a\n"
                             "print(board.__file__, a.__file__, type(board.make()).__name__, sorted(os.listdir('/')))")
    assert code == 0 and out.split()[:3] == ["board.py", "tablectl/app.py", "QemuBoard"], out
    assert "'main.py'" in out and "board.py'" not in out and "'tablectl'" not in out, out
    # the table's log is on the board's raw records region (the App's log device), which programs
    # whole 256-byte pages only, as a Pico's flash: a stray write of another size is refused, nothing written
    code, out = run_mpremote(sim.pty, "resume", "exec", "import flashmap, mps2, tablectl.app as a\n"
                             "f = mps2.Flash(*flashmap.RECORDS)\n"
                             "print(f.prog, type(a.current.log.dev).__name__, a.current.log.dev.ioctl(4, 0))\n"
                             "try:\n f.writeblocks(0, bytes(16), 16)\nexcept ValueError as e:\n print(e)\n")
    assert code == 0 and out.splitlines()[:2] == ["256 Flash %d" % (256 * 1024 // 4096),
                                                  "program of 16 bytes at 16: whole pages of 256 only"], out
    payload = bytes(range(256)) * 4 + b"\r\n\x04\x03\x01"
    (tmp_path / "payload.bin").write_bytes(payload)
    code, out = run_mpremote(sim.pty, "resume", "fs", "cp", str(tmp_path / "payload.bin"), ":payload.bin", "+",
                             "fs", "ls", "+", "fs", "cp", ":payload.bin", str(tmp_path / "back.bin"))
    assert code == 0 and "payload.bin" in out and "main.py" in out, out
    assert (tmp_path / "back.bin").read_bytes() == payload
    code, out = run_mpremote(sim.pty, "resume", "fs", "cat", ":main.py")
    assert code == 0 and out == (ROOT / "firmware" / "main.py").read_text(), out
    # the technician's session disturbed nothing: the dealer's next key still works
    act([sim], "BELL")
    assert settled([sim])[0]["status"]["state"] == "closed"


def test_make_deploy_copies_main_py_and_the_board_reboots_into_it(start_qemu, dealer, run_mpremote, mpremote_env,
                                                                   tmp_path):
    from boardops import deploy
    sim = start_qemu("fantan", pty_link=tmp_path / "mcu.pty")
    with pytest.raises(deploy.DeployError, match="service key is off"):  # the key off: the table is not changed
        deploy.deploy("qemu", str(tmp_path / "mcu.pty"), out=tmp_path / "deploy")
    dealer.key(sim)  # the technician's key switch, as on the page
    files, removed, warnings = deploy.deploy("qemu", str(tmp_path / "mcu.pty"), out=tmp_path / "deploy")
    assert files == ["main.py", build_mpy.FWMANIFEST] and removed == [] and warnings == []
    # machine.reset() restarted the machine (not qemu): the link says hello again, the table is back
    assert sim.board.alive()
    settled([sim])
    assert picture(sim)["status"]["game"] == "fantan"
    code, out = run_mpremote(sim.pty, "selftest", env=mpremote_env)
    assert code == 0 and "1 files checked" in out and "all OK" in out, out


@pytest.mark.parametrize("game, keys", [("fantan", ["SHAKE", "BELL", "3"]), ("fantan", ["SHAKE", "BELL", "3", "ENTER"]),
                                        ("caribbean_stud", ["seat 3 1", "seat 6 1", "LOCK"])])
def test_a_power_cut_resumes_exactly_as_on_the_unix_port(game, keys, start_qemu, start_sim, tmp_path):
    qemu = start_qemu(game)
    unix = start_sim(game)
    for k in keys:
        act([unix, qemu], k)
    before = settled([unix, qemu])
    assert before[0] == before[1], before
    qemu.board.kill()  # SIGKILL: the power cut
    unix.board.proc.kill()
    unix.board.proc.wait()
    qemu.stop()
    unix.stop()
    qemu2 = start_qemu(game, state_dir=qemu.state_dir)
    unix2 = start_sim(game, state_dir=unix.state_dir)
    after = settled([unix2, qemu2])
    assert after[1] == after[0], "after the cut: qemu %s != unix %s" % (after[1], after[0])
    # the round in progress came back (an entry typed but not entered is lost, as on the unix port)
    assert after[1]["status"]["round"] == before[1]["status"]["round"]
    assert after[1]["out"]["lamps"] == before[1]["out"]["lamps"] and after[1]["out"]["jackpot"] == before[1]["out"]["jackpot"]


def session_64k(game):
    # icount: the machine's clock is its instruction count, not the host's
    return run_main("import mcusession\nmcusession.run(%r, 200)\n" % game, "64K", icount=True)


@pytest.fixture(scope="module")
def sessions_64k(image):
    with concurrent.futures.ThreadPoolExecutor(2) as pool:  # one qemu a core
        return dict(zip(GAMES, pool.map(session_64k, GAMES)))


@pytest.mark.parametrize("game", GAMES)
def test_every_controller_plays_200_rounds_and_the_reports_in_a_64K_heap_frozen(game, sessions_64k):
    out = sessions_64k[game]
    assert "BENCH-FAIL" not in out and re.search(r"game %s, state \w+, round 1\.201" % game, out), out[-1500:]  # 200 rounds
    # the reports are written a line at a time, as the board's REPL shows them (Report.emit): after 200 rounds
    # the heap has about 23 KB free, in pieces, and a report as one string (about 1.2 KB) once found none
    assert "MemoryError" not in out and ("BENCH %s rounds 200 heap_used" % game) in out, (game, out[-1500:])
    for title in ("status", "meters", "history", "journal", "config"):
        assert "\n" + title in "\n" + out, (game, title)


def test_after_a_reset_the_board_reads_the_tables_inputs_and_the_first_key_counts(start_qemu, dealer, run_mpremote,
                                                                                   tmp_path):
    sim = start_qemu("fantan", pty_link=tmp_path / "mcu.pty")
    dealer.key(sim)  # the technician's key switch on, as on the page
    code, out = run_mpremote(sim.pty, "resume", "exec", "import tablectl.app as a\na.before_reset = 1")
    assert code == 0, out
    code, out = run_mpremote(sim.pty, "reset")  # machine.reset(), as make deploy ends
    assert code == 0, out
    # the reset board's pins are at rest (the key off) until the host, told by its `boot` line, sends the
    # table's inputs again: the board reads the key on, as the page shows it
    # a bound, not a wait: the reset board boots in seconds idle and took over 30 s at a load of 20 on 2 cores
    deadline = time.monotonic() + 300
    while True:
        code, out = run_mpremote(sim.pty, "resume", "exec", "import tablectl.app as a\n"
                                 "print('KEY', a.current.key_on(), hasattr(a, 'before_reset'))")
        if code == 0 and "KEY True False" in out:  # the key read on, by a board that has been reset
            break
        assert time.monotonic() < deadline, out
        time.sleep(0.5)
    dealer.key(sim, on=False)  # the first command after the reset is served, not taken for the host's hello
    act([sim], "SHAKE")
    assert settled([sim])[0]["status"]["state"] == "betting"
