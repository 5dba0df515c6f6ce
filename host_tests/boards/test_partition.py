"""The Pico's factory step (make deploy BOARD=pico PARTITION=1, tools/boardops/partition.py) and the build's start-up that
keeps a partition (boards/pico/_boot.py, flashparts.py), on a fake Pico: the unix port with rp2.Flash over a
file by rp2_flash.c's argument rules (host_tests/harness/fakepico), booted by this project's _boot.py or by the pinned
rp2 port's stock one, reached through the real mpremote over a pseudo-terminal."""
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from harness.fakepico.harness import FakePico
from building import qemu_image as fwbuild

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
DEPLOY = str(ROOT / "tools" / "boardops" / "deploy.py")
OURS = ROOT / "boards" / "pico" / "_boot.py"
STORAGE = 1408 * 1024  # RPI_PICO's storage area
LOG = 1 << 20
# the bench's MicroPython-side session modules (fwround) are flat files the board processes load by name, not a package
sys.path.insert(0, str(ROOT / "tools" / "bench" / "mp"))
from boardops import partition  # noqa: E402  (tools/)

flashparts = partition.flashparts


def stock_boot():
    return fwbuild.source_tree() / "ports" / "rp2" / "modules" / "_boot.py"


def played_log(path, rounds):
    """A table's file-fallback log (tablectl.hw.wiring.table_flash) after `rounds` sic bo rounds, played by the
    firmware on CPython as the bench plays them (fwround)."""
    import fwround
    from tablectl.config import Config
    from tablectl.hw.wiring import table_flash
    from tablectl.storage import Log
    from tablectl.store import Store
    flash = table_flash(None, 256, path=str(path))
    Config(Store(Log(flash))).change(0, log_file_ok=True)
    app = fwround.open_table("sicbo", str(path.parent), flash=flash)
    for r in range(rounds):
        assert fwround.play(app, r) is None
    flash.close()
    return path.read_bytes()


def deploy(port, save, *args, timeout=300):
    proc = subprocess.run([sys.executable, DEPLOY, "--board", "pico", "--port", port, "--partition", "--out", str(save)]
                          + list(args), capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout, proc.stderr


def summary_on(flash_path, start, blocks):
    """flashparts.summary of the log in the fake flash file's bytes [start, start + blocks * 4 KB)."""
    from tablectl.hw.fileflash import FileFlash
    dev = FileFlash(str(flash_path), blocks=blocks, prog=256, start=start)
    try:
        return flashparts.summary(dev)
    finally:
        dev.close()


def test_the_log_moves_into_the_region_in_its_ring_order(tmp_path):
    """A file log whose ring has wrapped (more than its 64 blocks written), placed block for block into the
    1 MB region as ring_blocks orders it, boots the same records and journal; copied in place it does not."""
    image = played_log(tmp_path / "tablelog.bin", 160)
    want = summary_on(tmp_path / "tablelog.bin", 0, 64)
    assert '"round":' in want and want.startswith('["",')  # records, no problem
    placed = partition.ring_blocks(image, 256)
    assert len(placed) == 64
    for name, blocks in (("ring", placed), ("in place", {b: image[b * 4096:(b + 1) * 4096] for b in range(64)})):
        region = bytearray(b"\xff" * LOG)
        for b, data in blocks.items():
            region[b * 4096:(b + 1) * 4096] = data
        (tmp_path / name).write_bytes(region)
        got = summary_on(tmp_path / name, 0, 256)
        assert (got == want) == (name == "ring"), (name, got[:200])
    assert partition.ring_blocks(b"\xff" * (64 * 4096), 256) == {}  # a log never written: nothing to place


def c_rules(start, length):
    """rp2_flash_make_new's outcome for Flash(start=, len=) (-1: left out): (base, size) or 'ValueError'."""
    if start == -1 and length == -1:
        return (0, STORAGE)
    if start == -1:
        start = 0
    elif not (0 <= start < STORAGE and start % 4096 == 0):
        return "ValueError"
    if length == -1:
        length = STORAGE - start
    elif not (0 < length and start + length <= STORAGE and length % 4096 == 0):
        return "ValueError"
    return (start, length)


def test_the_fake_flash_takes_its_arguments_by_rp2_flash_c_and_the_layout_keeps_to_them(tmp_path):
    """Every edge of the C's checks (each side of 0, a 4 KB multiple, the area's end), keyword-only as the C
    parses them; and flashparts' own calls among those the C accepts."""
    values = sorted({-4096, -1, 0, 1, 4095, 4096, 8192, STORAGE - LOG, LOG, STORAGE - 4096, STORAGE - 1, STORAGE,
                     STORAGE + 4096})
    code = ("import rp2\nfor s in %r:\n for n in %r:\n  try:\n   f = rp2.Flash(start=s, len=n)\n"
            "   print(s, n, (f.base, f.size), f.ioctl(4, 0) * f.ioctl(5, 0) == f.size)\n"
            "  except ValueError as e:\n   print(s, n, 'ValueError', str(e) == '')\n"
            "try:\n rp2.Flash(0, 4096)\nexcept TypeError:\n print('positional refused')\n"
            "import flashparts\nfor d in (flashparts.fs_device(), flashparts.log_device()):\n print('dev', d.base, d.size)\n"
            % (values, values))
    out = FakePico(tmp_path / "flash.bin", OURS).run(code).splitlines()
    want = ["%d %d %s True" % (s, n, c_rules(s, n)) if c_rules(s, n) != "ValueError" else "%d %d ValueError True" % (s, n)
            for s in values for n in values]
    assert out[:len(want)] == want
    assert out[len(want):] == ["positional refused", "dev 0 %d" % (STORAGE - LOG), "dev %d %d" % (STORAGE - LOG, LOG)]
    board = (ROOT / "boards" / "pico" / "board.py").read_text()
    assert "LOG_BYTES = 1 << 20" in board and flashparts.LOG_BYTES == 1 << 20  # the board's region is the layout's


def boot_layout(pico):
    return pico.run("import flashparts, os\nprint(flashparts.layout, sorted(os.listdir('/')))").split("\n")[0]


def test_the_start_up_keeps_each_layout_and_formats_only_what_does_not_mount(tmp_path):
    """Every flash the build meets: new (erased); a stock build's whole filesystem; a partitioned one; one that
    mounts neither way (damaged), which is formatted on the partition only, the log region untouched."""
    flash = tmp_path / "flash.bin"
    stock = FakePico(flash, stock_boot())
    ours = FakePico(flash, OURS)
    stock.run("open('/notes.txt', 'w').write('kept')")  # the stock start-up formats the whole area
    whole = flash.read_bytes()
    assert boot_layout(ours) == "whole ['host', 'notes.txt']" and flash.read_bytes() == whole
    flash.unlink()
    assert boot_layout(FakePico(flash, OURS)) == "formatted ['host']"
    assert boot_layout(ours) == "partitioned ['host']"
    ours.run("import os\nos.statvfs('/')[2] == %d or print('BAD')\nopen('/a', 'w').write('x')" % ((STORAGE - LOG) // 4096))
    assert boot_layout(ours) == "partitioned ['a', 'host']"
    # the stock start-up over a partitioned board: the whole-area mount fails and it formats all of it (the
    # files gone, the region the new filesystem's to write over): why the step refuses a stock build
    saved = flash.read_bytes()
    assert stock.run("import os\nprint(sorted(os.listdir('/')))") == "['host']\n"
    assert boot_layout(ours) == "whole ['host']"
    flash.write_bytes(saved)
    # damaged: neither superblock mounts; ours formats the partition and leaves the region
    data = bytearray(b"\x00" * 8192) + bytearray(flash.read_bytes()[8192:])
    data[STORAGE - LOG:STORAGE - LOG + 8] = b"TLOGsome"
    flash.write_bytes(data)
    assert boot_layout(ours) == "formatted ['host']"
    assert flash.read_bytes()[STORAGE - LOG:STORAGE - LOG + 8] == b"TLOGsome"


def test_a_stock_build_is_refused_and_nothing_changes(tmp_path, mpremote):
    pico = FakePico(tmp_path / "flash.bin", stock_boot())
    with pico.running() as port:
        assert mpremote(port, "resume", "exec", "open('tablelog.bin', 'wb').write(b'a log')")[0] == 0  # booted
        before = (tmp_path / "flash.bin").read_bytes()
        code, out, err = deploy(port, tmp_path / "saves", "--yes")
        after = (tmp_path / "flash.bin").read_bytes()
    assert code == 2 and err.strip().splitlines() == [
        "deploy: the MicroPython on %s is a stock build: its _boot.py mounts the whole flash and formats it when that "
        "fails, so it cannot keep a partition; flash the project's Pico build (boards/pico/manifest.py, "
        "docs/technicians.md) first" % port], err
    assert after == before and not (tmp_path / "saves").exists()


def test_files_the_smaller_filesystem_cannot_hold_are_refused_before_anything_is_lost(tmp_path, mpremote):
    """384 KB of files besides the log on a board whose partitioned filesystem has 384 KB (96 blocks)."""
    flash = tmp_path / "flash.bin"
    FakePico(flash, stock_boot()).run("b = bytes(4096)\nfor i in range(4):\n with open('/big%d' % i, 'wb') as f:\n"
                                      "  for _ in range(24):\n   f.write(b)")
    pico = FakePico(flash, OURS)
    with pico.running() as port:
        code, out, err = deploy(port, tmp_path / "saves", "--yes")
        assert code == 2 and err.strip().splitlines() == [
            "deploy: the files on %s need about 108 blocks, the partitioned filesystem has 96: remove some (the "
            "table's log goes into the region)" % port], err
        rc, text = mpremote(port, "resume", "exec", "import flashparts, os\nprint(flashparts.layout, sorted(os.listdir('/')))")
    assert rc == 0 and "whole ['big0', 'big1', 'big2', 'big3', 'host']" in text, text  # no `deploying` left


def board_state(mpremote, port):
    """What the App boots from: the layout, pico board.py's own log_region() (its source run on the board) and
    the App's tilt, records and journal over it (the sim board's hardware standing in for the Pico's)."""
    import ast
    src = (ROOT / "boards" / "pico" / "board.py").read_text()
    tree = ast.parse(src)
    parts = [ast.get_source_segment(src, n) for n in tree.body
             if isinstance(n, ast.FunctionDef) and n.name == "log_region"
             or isinstance(n, ast.Assign) and n.targets[0].id == "LOG_BYTES"]
    code = "\n".join(parts) + (
        "\nimport board, flashparts\nfrom tablectl.app import App\nfrom tablectl.hw.wiring import table_flash\n"
        "dev = table_flash(log_region(), 256)\napp = App(board.make(virtual_clock=True, flash=dev), '/')\n"
        "print('layout', flashparts.layout, getattr(dev, 'file_fallback', False), app.tilt)\n"
        "import gc\ngc.collect()\nprint('app', flashparts.canon([{n: app.log.get(n) for n in app.log.names()}, app.log.entries(12)]))\n")
    rc, text = mpremote(port, "resume", "exec", code)
    assert rc == 0, text
    return text


def test_partitioning_keeps_every_file_and_the_tables_records_through_a_cut(tmp_path, mpremote, monkeypatch):
    """An un-partitioned board (a stock build's filesystem, the log in /tablelog.bin) running the project's
    build: the step asks, saves, and a power cut while it writes the region leaves a board that starts no
    controller; run again, it resumes from the host's copy. Then the App boots the records and journal it
    booted from the file, from the region, and every other file is as it was."""
    flash = tmp_path / "flash.bin"
    log = played_log(tmp_path / "tablelog.bin", 20)
    files = {"main.py": (ROOT / "firmware" / "main.py").read_bytes(), "notes.txt": b"the technician's\n",
             "lib/aiorepl.mpy": b"M\x06 from mip", "tablelog.bin": log}
    for name, data in files.items():
        (tmp_path / "put" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "put" / name).write_bytes(data)
    # how they came there does not matter (mpremote would take half a minute for the log): from the host's side
    FakePico(flash, stock_boot()).run(
        "import os\nos.mkdir('/lib')\nfor f in %r:\n with open('/host%s/' + f, 'rb') as src, open('/' + f, 'wb') as dst:\n"
        "  while dst.write(src.read(4096)):\n   pass" % (sorted(files), tmp_path / "put"))
    pico = FakePico(flash, OURS)
    with pico.running() as port:
        before = board_state(mpremote, port)
        assert "layout whole True None" in before  # the file fallback, accepted with log_file_ok
        image = flash.read_bytes()
        code, out, err = deploy(port, tmp_path / "saves", "--yes")  # the running table's key is off: refused
        assert code == 2 and "service key is off" in err and flash.read_bytes() == image, err
        rc, text = mpremote(port, "resume", "exec", "from tablectl import app\napp.current.board.set_service_key(True)")
        assert rc == 0, text
        # not confirmed: nothing changes
        code, out, err = deploy(port, tmp_path / "saves")
        assert code == 2 and err == "deploy: not confirmed: nothing changed\n" and flash.read_bytes() == image, err
        # the cut: the power goes after the region's erase and a few blocks, in the same call
        real = partition.run_mpremote

        def cut_midway(port_, args, timeout):
            if any("flashparts.put(" in a for a in args):
                first = [i for i, a in enumerate(args) if "flashparts.put(" in a][2]
                real(port_, args[:first - 2], timeout)  # the erase and two blocks: up to the "+" before the third
                pico.cut()
                raise partition.DeployError("the power went")
            return real(port_, args, timeout)

        monkeypatch.setattr(partition, "run_mpremote", cut_midway)
        with pytest.raises(partition.DeployError, match="the power went"):
            partition.partition(port, tmp_path / "saves", confirm=lambda prompt: "yes")
        monkeypatch.undo()
        # what it boots into: the partitioned filesystem holding only `deploying`: main.py is not there (and
        # would start nothing beside `deploying`); the records are in the host's copy
        rc, text = mpremote(port, "resume", "exec", "import flashparts, os\nprint(flashparts.layout, sorted(os.listdir('/')))")
        assert rc == 0 and "partitioned ['deploying', 'host']" in text, text
        saved = next((tmp_path / "saves").iterdir()) / "files"
        assert {f: (saved / f).read_bytes() for f in files if f != "tablelog.bin"} == {
            f: v for f, v in files.items() if f != "tablelog.bin"}  # the log: as the App's boot above left it
        code, out, err = deploy(port, tmp_path / "saves", "--yes")
        assert code == 0 and out.startswith("deploy: the flash on %s is partitioned: 3 files kept" % port), out + err
        code, out, err = deploy(port, tmp_path / "saves", "--yes")  # once more: nothing to do
        assert code == 0 and "partitioned already" in out, out + err
        after = board_state(mpremote, port)
        kept = sorted(f for f in files if f != "tablelog.bin")
        rc, text = mpremote(port, "resume", "exec", "import hashlib, binascii\nfor f in %r:\n print(f, binascii.hexlify("
                            "hashlib.sha256(open(f, 'rb').read()).digest()).decode())" % kept)
        assert rc == 0 and text.split() == [v for f in kept for v in (f, hashlib.sha256(files[f]).hexdigest())], text
    assert "layout partitioned False None" in after, after
    # the same records and journal; the App's boot entry journals each boot, so the region holds one boot more
    app_before = json.loads([line for line in before.splitlines() if line.startswith("app ")][0][4:])
    app_after = json.loads([line for line in after.splitlines() if line.startswith("app ")][0][4:])
    assert app_after[0] == app_before[0]  # every record
    entries = app_before[1][0]
    assert app_after[1][0][:-1] == entries[1:]  # the journal as it was, the chain continued (no tilt) by
    assert app_after[1][0][-1][:3] == [entries[-1][0] + 1, entries[-1][1], "boot"]  # the new boot's entry
    assert summary_on(flash, STORAGE - LOG, 256).startswith('[""')


def test_the_region_check_compares_values_not_texts(tmp_path):
    """canon() on the board and on the host give different texts for a non-ASCII string (CPython's json
    escapes it, MicroPython's writes it as it is) and the same value: the step compares values."""
    value = {"b": ["骰寶", 1], "a": {"y": None, "x": True}}
    board = FakePico(tmp_path / "flash.bin", OURS).run("import flashparts\nprint(flashparts.canon(%r))" % value).strip()
    host = flashparts.canon(value)
    assert board != host and json.loads(board) == json.loads(host) == value
    assert board == '{"a":{"x":true,"y":null},"b":["骰寶",1]}'
