"""tools/boardops/deploy.py: refuses an unknown board and a silent port in one line; deploys into a simulated board
with mpremote, removing the code files the new firmware's selftest would fail (stale modules, .py shadows)
and nothing else."""
import json
import os
import pty
import subprocess
import sys
import pathlib

import pytest

from harness import mpy

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
DEPLOY = str(ROOT / "tools" / "boardops" / "deploy.py")


# a bound on a process waited for directly: at a load of 20 on 2 cores 120 s was too few
def deploy(*args, timeout=600):
    proc = subprocess.run([sys.executable, DEPLOY] + list(args), capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout, proc.stderr


def test_unknown_board_is_refused_before_anything_is_built(tmp_path):
    code, out, err = deploy("--board", "pyboard9", "--port", "/dev/null", "--out", str(tmp_path / "out"))
    assert code == 2
    assert err.strip().splitlines() == ["deploy: no board 'pyboard9' (boards: esp32, pico, qemu, sim)"]
    assert not (tmp_path / "out").exists()


def test_missing_and_silent_ports_are_refused(tmp_path):
    code, out, err = deploy("--board", "sim", "--port", str(tmp_path / "ttyACM9"), "--out", str(tmp_path / "out"))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "ttyACM9 does not exist" in err
    master, slave = pty.openpty()  # a terminal with nothing behind it: nobody answers mpremote
    try:
        code, out, err = deploy("--board", "sim", "--port", os.ttyname(slave), "--timeout", "3",
                                "--out", str(tmp_path / "out"))
    finally:
        os.close(master)
        os.close(slave)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "does not answer" in err
    assert not (tmp_path / "out").exists()


def board_selftest(mpremote, sim):
    """selftest() as the technician's macro calls it, with no folder: on a board that has been deployed
    to, it checks the deployed copy (its working folder), not the firmware the simulator started from."""
    code, text = mpremote(sim.pty, "resume", "exec", "import service; print(service.selftest())")
    assert code == 0, text
    return text


def test_deploy_into_a_simulated_board_passes_its_selftest_and_removes_stale_code(start_sim, mpremote, dealer,
                                                                                 tmp_path):
    sim = start_sim("fantan", state_dir=tmp_path / "board")
    out = tmp_path / "build"
    code, stdout, err = deploy("--board", "sim", "--port", sim.pty, "--out", str(out))
    assert code == 2 and "service key is off" in err and not out.exists(), err  # nothing built, nothing copied
    dealer.key(sim)  # the technician's key switch, as on the page
    code, stdout, err = deploy("--board", "sim", "--port", sim.pty, "--out", str(out))
    assert code == 0, err
    manifest = json.loads((out / "fwmanifest.json").read_text())
    assert manifest["board"] == "sim" and "main.py" in manifest["files"] and "tablectl/app.mpy" in manifest["files"]
    for name in list(manifest["files"]) + ["fwmanifest.json"]:
        assert (sim.state_dir / name).read_bytes() == (out / name).read_bytes(), name
    assert "%d files copied" % (len(manifest["files"]) + 1) in stdout and "removed" not in stdout, stdout
    # the firmware's own selftest, run on the board, checks what was copied against the manifest
    assert "all OK" in board_selftest(mpremote, sim)
    # what an older firmware and people leave on a board: a source copy that MicroPython would import
    # instead of the certified app.mpy, a module the firmware no longer has, and what is not firmware
    board = sim.state_dir
    stale = {"tablectl/app.py": b"print('debug copy')\n", "tablectl/games/old.mpy": b"M\x06 old module"}
    kept = {"notes.py": b"# the technician's own script\n", "lib/aiorepl.mpy": b"M\x06 from mip",
            "round.0": b"a record", "tablectl/games/readme.txt": b"not code"}
    (board / "lib").mkdir()
    for name, data in list(stale.items()) + list(kept.items()):
        (board / name).write_bytes(data)
    records = {p: p.read_bytes() for p in (board / "simstate").iterdir()}
    assert records, "the running simulator keeps its records in simstate/"
    text = board_selftest(mpremote, sim)
    assert "FAILED" in text and "unlisted: tablectl/games/old.mpy" in text and "shadows: tablectl/app.py" in text, text
    assert not any(name in text for name in ("notes.py", "aiorepl", "round.0", "readme")), text
    # a second deploy over the first (folders already there) removes exactly the stale files
    code, stdout, err = deploy("--board", "sim", "--port", sim.pty, "--out", str(out))
    assert code == 0, err
    assert "deploy: removed 2 stale files: tablectl/app.py, tablectl/games/old.mpy\n" in stdout, stdout
    assert not any((board / name).exists() for name in stale)
    for name, data in kept.items():
        assert (board / name).read_bytes() == data, name
    assert {p: p.read_bytes() for p in (board / "simstate").iterdir()} == records
    assert "all OK" in board_selftest(mpremote, sim)
    # then spoil a file on the board
    (board / "tablectl" / "app.mpy").write_bytes(b"not the firmware")
    text = board_selftest(mpremote, sim)
    assert "CRC mismatch: tablectl/app.mpy" in text, text


def test_copy_commands_remove_stale_files_first_and_copy_the_manifest_last():
    """All in one mpremote call without a soft reset (`resume`), which would end the stopped firmware's watchdog
    hold and let the board reset partway through the copy."""
    from boardops import deploy as deploy_tool  # tools/ is on the .venv's path (make setup)
    args = deploy_tool.copy_commands("/o", ["fwmanifest.json", "tablectl/a.mpy", "main.py"], have={"tablectl"},
                                     remove=["tablectl/a.py", "tablectl/old.mpy"])
    assert " ".join(args).split(" + ") == [
        "resume fs rm :tablectl/a.py", "fs rm :tablectl/old.mpy", "fs cp /o/main.py :main.py",
        "fs cp /o/tablectl/a.mpy :tablectl/a.mpy", "fs cp /o/fwmanifest.json :fwmanifest.json"]


@pytest.mark.rom32
def test_romfs_deploy_puts_the_code_in_the_partition_and_selftest_checks_it_there(mpremote, tmp_path):
    """ROMFS=1 into a board whose MicroPython has a ROMFS partition (the 32-bit ROMFS port; its REPL is the
    sim board's): the image in the partition, main.py and the manifest on the filesystem, the firmware's
    code that was on the filesystem removed (it would be imported before /rom's); the next boot runs
    from /rom and the firmware's selftest, run there, passes."""
    exe = mpy.rom32()
    partition = tmp_path / "partition"
    partition.write_bytes(b"\xff" * (256 * 1024))
    fs = tmp_path / "fs"
    fs.mkdir()
    out = tmp_path / "build"
    with mpy.repl_on_pty(exe, {"MICROPY_ROMFS": str(partition)}, cwd=fs) as port:
        assert mpremote(port, "resume", "exec", "print(1)")[0] == 0  # its REPL has imported its code
        (fs / "tablectl").mkdir()
        (fs / "tablectl" / "app.mpy").write_bytes(b"M\x06 a copy from a deploy without ROMFS")
        (fs / "round.0").write_bytes(b"a record")
        code, stdout, err = deploy("--board", "sim", "--port", port, "--romfs", "--out", str(out))
    assert code == 0, err
    assert "deploy: removed 1 stale file: tablectl/\n" in stdout, stdout
    image = (tmp_path / "build.romfs").read_bytes()
    assert partition.read_bytes()[:len(image)] == image
    # the folder goes whole: even empty it would hide /rom/tablectl from the import
    assert sorted(p.name for p in fs.iterdir()) == ["fwmanifest.json", "main.py", "round.0"]
    assert (fs / "round.0").read_bytes() == b"a record"
    assert json.loads((fs / "fwmanifest.json").read_text())["romfs"] == "/rom"
    boot = subprocess.run([exe, "-X", "heapsize=64K", "-c", "import board, service\nprint(board.__file__)\n"
                           "print(service.selftest())"], capture_output=True, text=True, timeout=60, cwd=fs,
                          env=dict(os.environ, MICROPYPATH=".frozen:/rom", MICROPY_ROMFS=str(partition)))
    assert boot.stdout.startswith("/rom/board.mpy\n"), boot.stdout + boot.stderr
    assert "(board sim, ROMFS at /rom): all OK" in boot.stdout, boot.stdout + boot.stderr


def test_romfs_deploy_is_refused_by_a_board_without_a_partition(start_sim, dealer, tmp_path):
    sim = start_sim("sicbo", state_dir=tmp_path / "board", mp_port="fs64")  # PyPI's unix port: no ROMFS partition
    dealer.key(sim)  # the key on: the partition is what refuses
    before = sorted(p.name for p in sim.state_dir.iterdir())
    code, out, err = deploy("--board", "sim", "--port", sim.pty, "--romfs", "--out", str(tmp_path / "out"))
    assert code == 2 and err.strip().splitlines() == [
        "deploy: the MicroPython on %s has no ROMFS partition: deploy without ROMFS=1, or put a MicroPython "
        "built with one on the board (docs/technicians.md)" % sim.pty], err
    assert sorted(p.name for p in sim.state_dir.iterdir()) == before and not (tmp_path / "out").exists()


def test_romfs_deploy_to_a_board_stops_the_controller_first_and_resets_it_last(tmp_path, monkeypatch):
    """On a board (not the simulator) the firmware runs from the partition deploy rewrites: the mpremote
    calls, in order, with the board faked (no hardware here)."""
    from boardops import deploy as tool
    calls = []

    def fake(port, args, timeout):
        calls.append(" ".join(args))
        text = ""
        if "romfs-size" in args[-1]:
            text = "romfs-size 262144\n"
        elif "code-files" in args[-1]:
            text = "code-files ['tablectl/app.mpy', 'board.mpy', 'notes.py']\n"
        elif "have" in args[-1]:
            text = "have tablectl\n"
        elif "romfs" in args and "deploy" in args:
            text = "ROMFS image deployed\n"
        return subprocess.CompletedProcess(args, 0, text, "")

    monkeypatch.setattr(tool, "run_mpremote", fake)
    monkeypatch.setattr(tool, "probe", lambda port, timeout: None)
    files, removed, warnings = tool.deploy("pico", "/dev/ttyACM0", tmp_path / "pico", romfs=True)
    assert removed == ["tablectl/", "board.mpy"] and warnings == []
    assert files == ["pico.romfs", "main.py", "fwmanifest.json"]
    image = str(tmp_path / "pico.romfs")
    assert [c.split("\n")[0] if c.startswith("resume exec") else c.split(" + ") if " + " in c else c
            for c in calls] == [
        "resume exec import sys",  # the service key (a board with no firmware running: nothing to refuse)
        "resume exec import vfs",
        ["resume fs touch :deploying", "reset"],  # main.py then stays at the REPL
        "resume exec import os",
        "resume exec def code_files(root, deep, shallow):",
        ["resume romfs deploy " + image, "fs rm -r :tablectl", "fs rm :board.mpy",
         "fs cp %s/main.py :main.py" % (tmp_path / "pico"),
         "fs cp %s/fwmanifest.json :fwmanifest.json" % (tmp_path / "pico"), "fs rm :deploying"],
        "resume mip install aiorepl",
        "resume mip install umqtt.simple",
        "resume mip install ssd1306",
        "reset",
    ]


def test_main_py_starts_nothing_while_a_romfs_deploy_runs(tmp_path):
    """The file `deploying` (a ROMFS deploy rewriting the image the firmware runs from) keeps main.py from
    importing any of it; the board stays at its REPL and says why."""
    mpy.ensure_build()
    (tmp_path / "deploying").write_bytes(b"")
    code = "exec(open(%r).read())\nimport sys\nprint(sorted(k for k in sys.modules if k[:8] in ('tablectl', 'board')))" % (
        str(mpy.BUILD / "main.py"))
    proc = mpy.run(["-c", code], cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.splitlines() == [
        "tablectl: not started, a ROMFS deploy is in progress (it removes the file 'deploying')", "[]"], proc.stdout + proc.stderr
