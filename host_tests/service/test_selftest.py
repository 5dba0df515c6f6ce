"""selftest(): every firmware file against the manifest deploy wrote, and the rules for stale code it shares with
tools/boardops/deploy.py (what an older firmware or a person leaves where the firmware lives)."""
# mp-heap: 232K
# (compiled from source, with the sim board and a running fan-tan App; copies of the built firmware)
import gc
import json
import os
import sys

import board  # boards/sim: on the path of host_tests/conftest.py and of harness/mpy.py

from harness.ramblockdev import flash_file, remove_dir, scratch_dir
from tablectl import app as appmod
from tablectl import service  # the calls as scripts use them: a refusal raises
from tablectl import certify as fwselftest  # selftest's rules, which tools/boardops/deploy.py shares
from tablectl.config import Config
from tablectl.storage import Log
from tablectl.store import Store
from mptest import raises


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def test_selftest_checks_every_file_against_the_manifest():
    root = scratch_dir("fw")
    try:
        # CRC-32 check values: "123456789" -> cbf43926, the quick brown fox -> 414fa339
        os.mkdir(root + "/lib")
        write(root + "/main.py", b"123456789")
        write(root + "/lib/x.mpy", b"The quick brown fox jumps over the lazy dog")
        write(root + "/fwmanifest.json",
              b'{"board": "sim", "files": {"main.py": 3421780262, "lib/x.mpy": 1095738169}}')
        rep = service.selftest(root)
        assert rep.data == {"ok": True, "checked": 2, "bad": [], "missing": [], "unlisted": [],
                            "shadows": []}, rep.data
        assert "2 files checked" in repr(rep) and "all OK" in repr(rep)
        write(root + "/lib/x.mpy", b"The quick brown fox jumps over the lazy cog")
        os.remove(root + "/main.py")
        rep = service.selftest(root)
        assert rep.data["ok"] is False and rep.data["bad"] == ["lib/x.mpy"] and rep.data["missing"] == ["main.py"]
        assert "CRC mismatch: lib/x.mpy" in repr(rep) and "FAILED" in repr(rep)
    finally:
        remove_dir(root)


def test_selftest_passes_on_the_built_firmware():
    # the .mpy files this test runs from, against the manifest tools/building/build_mpy.py wrote
    rep = service.selftest(built_root())
    assert rep.data["ok"] is True and rep.data["checked"] > 10, repr(rep)


def copy_tree(src, dest):
    os.mkdir(dest)
    buf = bytearray(512)
    for name in os.listdir(src):
        if os.stat(src + "/" + name)[0] & 0x4000:
            copy_tree(src + "/" + name, dest + "/" + name)
            continue
        with open(src + "/" + name, "rb") as f, open(dest + "/" + name, "wb") as g:
            while True:
                n = f.readinto(buf)
                if not n:
                    break
                g.write(buf[:n])


def built_root():
    """The folder of the built firmware (.mpy files + fwmanifest.json) these tests run from."""
    if sys.implementation.name == "micropython":  # the build folder is on sys.path (harness.mpy drives the port)
        return fwselftest.manifest_root()
    from harness import mpy
    mpy.ensure_build()
    return str(mpy.BUILD)


def test_selftest_names_stale_code_beside_the_built_firmware_and_nothing_else():
    """A copy of the built firmware plus what older firmware and people leave on a board: only a source
    file shadowing a listed .mpy and a module the manifest does not list fail it; a technician's root
    script, mip's lib/ and the records are not firmware."""
    gc.collect()
    root = scratch_dir("fw")
    os.rmdir(root)
    try:
        copy_tree(built_root(), root)
        assert service.selftest(root).data["ok"] is True  # the copy alone is the certified set
        write(root + "/tablectl/app.py", b"print('debug build')\n")  # MicroPython imports app.py first
        write(root + "/tablectl/games/old.mpy", b"M\x06")  # a module a previous firmware had
        write(root + "/notes.py", b"# the technician's own script\n")
        os.mkdir(root + "/lib")
        write(root + "/lib/aiorepl.mpy", b"M\x06")  # mip installs there
        write(root + "/round.0", b"record")
        write(root + "/journal.log", b"1 0 boot 0 0\n")
        rep = service.selftest(root)
        d = rep.data
        assert d["ok"] is False and d["bad"] == [] and d["missing"] == [], repr(rep)
        assert d["unlisted"] == ["tablectl/games/old.mpy"] and d["shadows"] == ["tablectl/app.py"], d
        text = repr(rep)
        assert "FAILED" in text and "unlisted: tablectl/games/old.mpy" in text
        assert "shadows: tablectl/app.py (imported instead of tablectl/app.mpy)" in text, text
        for kept in ("notes.py", "aiorepl", "round.0", "journal"):
            assert kept not in text, text
        os.remove(root + "/tablectl/app.py")
        os.remove(root + "/tablectl/games/old.mpy")
        assert service.selftest(root).data["ok"] is True
    finally:
        remove_dir(root)


def test_stale_files_where_the_firmware_lives():
    """Which files the rules call stale, on a manifest with root, package and lib/ files."""
    listed = {"main.py": 0, "board.mpy": 0, "tablectl/__init__.mpy": 0, "tablectl/hw/lamps.mpy": 0,
              "lib/extra.mpy": 0}
    deep, shallow = fwselftest.code_places(listed)
    assert deep == ["tablectl"] and sorted(shallow) == ["", "lib"], (deep, shallow)
    present = ["main.py", "board.mpy", "board.py", "main.mpy", "notes.py", "tablectl/__init__.mpy",
               "tablectl/__init__.py", "tablectl/hw/lamps.mpy", "tablectl/hw/old.py", "tablectl/gone/x.mpy",
               "lib/extra.mpy", "lib/extra.py", "lib/aiorepl.mpy", "lib/aiorepl.py"]
    unlisted, shadows = fwselftest.stale_files(listed, present)
    assert shadows == ["board.py", "lib/extra.py", "tablectl/__init__.py"], shadows
    # main.mpy beside the listed main.py: the import takes main.py, and main.py runs by name; a root file
    assert unlisted == ["tablectl/gone/x.mpy", "tablectl/hw/old.py"], unlisted
    assert fwselftest.stale_files(listed, list(listed)) == ([], [])


def test_selftest_of_a_firmware_deployed_in_romfs():
    """make deploy ROMFS=1: the manifest names the image's folder; every file but main.py is checked there,
    and the firmware's code left on the filesystem shadows the image's (the import looks there first)."""
    gc.collect()
    rom = scratch_dir("rom")
    os.rmdir(rom)
    root = scratch_dir("fs")
    try:
        copy_tree(built_root(), rom)  # the image's content: every file of the build ...
        for name in ("main.py", "fwmanifest.json"):  # ... but these, which stay on the filesystem
            with open(rom + "/" + name, "rb") as f:
                write(root + "/" + name, f.read())
            os.remove(rom + "/" + name)
        with open(root + "/fwmanifest.json") as f:
            manifest = json.load(f)
        manifest["romfs"] = rom
        write(root + "/fwmanifest.json", json.dumps(manifest).encode())
        rep = service.selftest(root)
        assert rep.data["ok"] is True and rep.data["romfs"] == rom, repr(rep)
        assert "ROMFS at " + rom in repr(rep)
        os.mkdir(root + "/tablectl")
        write(root + "/tablectl/app.mpy", b"M\x06 an older copy")
        write(root + "/board.py", b"print('debug')\n")
        rep = service.selftest(root)
        assert rep.data["shadows"] == ["tablectl/", "board.py"] and rep.data["ok"] is False, repr(rep)
        assert "shadows: tablectl/ (imported instead of %s/tablectl/)" % rom in repr(rep)
        assert "shadows: board.py (imported instead of %s/board.mpy)" % rom in repr(rep)
        os.remove(root + "/tablectl/app.mpy")
        rep = service.selftest(root)  # empty, the folder still hides the image's package
        assert rep.data["shadows"] == ["tablectl/", "board.py"] and rep.data["unlisted"] == [], repr(rep)
        os.rmdir(root + "/tablectl")
        os.remove(root + "/board.py")
        write(rom + "/tablectl/app.mpy", b"M\x06 damaged")
        rep = service.selftest(root)
        assert rep.data["bad"] == ["tablectl/app.mpy"] and rep.data["shadows"] == [], repr(rep)
        manifest["romfs"] = 1
        write(root + "/fwmanifest.json", json.dumps(manifest).encode())
        assert "romfs must name" in raises(ValueError, service.selftest, root)
    finally:
        remove_dir(rom)
        remove_dir(root)


def test_stale_files_with_the_firmware_in_romfs():
    listed = {"main.py": 0, "board.mpy": 0, "pins.csv": 0, "tablectl/app.mpy": 0}
    present = ["main.py", "board.mpy", "tablectl/app.mpy", "tablectl/app.py", "tablectl/old.mpy"]
    assert fwselftest.stale_files(listed, present, rom=True) == (
        ["tablectl/old.mpy"], ["board.mpy", "tablectl/app.mpy", "tablectl/app.py"])
    assert fwselftest.stale_files(listed, ["main.py"], rom=True) == ([], [])


def test_code_files_walks_the_firmware_folders_only():
    """Every .py/.mpy at any depth of a deep folder; only the top level of a shallow one (root); no
    folders, no other files; a folder the board lacks is no error."""
    root = scratch_dir("cf")
    try:
        for d in ("/pkg", "/pkg/a", "/pkg/a/b", "/pkg/dir.py", "/other"):
            os.mkdir(root + d)
        for f in ("/top.py", "/top.mpy", "/rec.0", "/pkg/m.mpy", "/pkg/a/n.py", "/pkg/a/b/o.mpy",
                  "/pkg/a/b/data.json", "/pkg/dir.py/p.mpy", "/other/q.py"):
            write(root + f, b"x")
        want = ["pkg/a/b/o.mpy", "pkg/a/n.py", "pkg/dir.py/p.mpy", "pkg/m.mpy", "top.mpy", "top.py"]
        assert sorted(fwselftest.code_files(root, ["pkg", "gone"], [""])) == want
        assert sorted(fwselftest.code_files(root + "/", ["pkg"], [""])) == want
        assert sorted(fwselftest.code_files(root, [], ["other", "pkg"])) == ["other/q.py", "pkg/m.mpy"]
    finally:
        remove_dir(root)


def test_selftest_feeds_a_running_tables_watchdog_file_by_file():
    """CRC-32 in Python is slow on a board: a running table's watchdog is fed once a file at least."""
    gc.collect()
    root = scratch_dir("wd")
    try:
        flash = flash_file(root)
        Config(Store(Log(flash))).change(0, game="fantan")  # the smallest table: a sic bo table's outcomes take 20 KB
        app = appmod.App(board.make(virtual_clock=True, flash=flash), root)
        service.use(app)
        app.board.wdt.feed()  # armed, as App.run's first feed does
        feeds = app.board.wdt.feeds
        rep = service.selftest(built_root())
        assert rep.data["ok"] is True and app.board.wdt.feeds - feeds >= rep.data["checked"]
    finally:
        service.use(None)
        appmod.current = None
        remove_dir(root)
