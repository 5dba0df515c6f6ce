"""At every boot main.py checks the firmware's files against the manifest written at build time before anything
starts: one changed byte in one module, a module missing, or one that is not certified is a tilt (FIRMWARE
CHANGED), journalled, and a reboot does not clear it; the certified files back (a deploy) boot normally."""
import shutil
import subprocess

import pytest

import board  # boards/sim
from harness import mpy
from harness.ramblockdev import flash_file
from tablectl.journal import MAX_TEXT, Journal
from tablectl.storage import Log


def boot(build, state):
    """main.py as a board runs it, one round of the bench's session played if the table plays: its output."""
    shutil.copyfile(build / "main.py", state / "main.py")
    env = {"MICROPYPATH": ".frozen:" + str(build) + ":" + str(mpy.ROOT / "tools" / "bench" / "mp"),
           "TABLECTL_ROOT": "s", "TABLECTL_CLOCK": "virtual", "TABLECTL_SESSION": "1"}
    proc = subprocess.run([mpy.MICROPYTHON, "-X", "heapsize=256K", "main.py"], capture_output=True, text=True,
                          env=env, cwd=state, timeout=60)
    return proc.stdout + proc.stderr


def journal(state):
    return Journal(Log(flash_file(str(state / "s"), board.FLASH_BLOCKS))).records(50)


def boots_tilted(build, state, why):
    """Boot into a FIRMWARE CHANGED tilt whose reason `why` is journalled (as far as an entry's text goes: the
    display shows only the tilt's kind)."""
    out = boot(build, state)
    assert "state tilt: FIRMWARE CHANGED" in out, out
    got = [r for r in journal(state) if r[2] == "tilt"][-1][5]
    assert got == why[:MAX_TEXT], (got, why)


@pytest.fixture
def tree(tmp_path):
    """(a copy of the build the test may change, an empty board folder for the table's state)."""
    mpy.ensure_build()
    build = tmp_path / "build"
    shutil.copytree(mpy.BUILD, build)
    state = tmp_path / "table"
    state.mkdir()
    return build, state


def test_a_changed_byte_in_one_module_is_a_tilt_until_the_certified_file_is_back(tree):
    build, state = tree
    out = boot(build, state)
    assert "BENCH sicbo rounds 1" in out, out  # the certified files: the table plays
    module = build / "tablectl" / "rules" / "pool.mpy"
    good = module.read_bytes()
    changed = bytearray(good)
    changed[len(changed) // 2] ^= 0x01
    module.write_bytes(bytes(changed))
    for _ in range(2):  # a reboot does not clear it
        boots_tilted(build, state, "FIRMWARE CHANGED: tablectl/rules/pool.mpy changed")
    tilts = [r for r in journal(state) if r[2] == "tilt"]
    assert len(tilts) == 2 and tilts[-1][5].startswith("FIRMWARE CHANGED: tablectl/rules/pool.mpy"), tilts
    module.write_bytes(good)  # what a deploy of the certified firmware does
    assert "BENCH sicbo rounds 1" in boot(build, state)


def test_a_missing_or_uncertified_module_is_a_tilt_too(tree):
    build, state = tree
    (build / "tablectl" / "games" / "extra.mpy").write_bytes(b"M\x06\x00\x1f")
    boots_tilted(build, state, "FIRMWARE CHANGED: tablectl/games/extra.mpy not certified")
    (build / "tablectl" / "games" / "extra.mpy").unlink()
    (build / "tablectl" / "hw" / "lcd.mpy").unlink()
    boots_tilted(build, state, "FIRMWARE CHANGED: tablectl/hw/lcd.mpy missing")


def test_a_py_beside_a_listed_mpy_is_a_tilt_naming_the_shadow(tree):
    """An X.py beside the certified X.mpy is what the import takes: the same source as the certified module
    (the table would play normally with it) is still not the certified file set."""
    build, state = tree
    for shadow, source in (("board.py", mpy.ROOT / "boards" / "sim" / "board.py"),  # at the root
                           ("tablectl/rules/pool.py", mpy.ROOT / "firmware" / "tablectl" / "rules" / "pool.py")):
        (build / shadow).write_bytes(source.read_bytes())
        boots_tilted(build, state, "FIRMWARE CHANGED: %s shadowing the certified one" % shadow)
        (build / shadow).unlink()
    assert "BENCH sicbo rounds 1" in boot(build, state)


def test_a_changed_byte_of_main_py_is_a_tilt_too(tree):
    """main.py is no .mpy (a board runs it from its filesystem) and is checked all the same."""
    build, state = tree
    main = build / "main.py"
    good = main.read_bytes()
    at = good.index(b"Board entry point") + 6  # a letter of its docstring: main.py still runs as it did
    main.write_bytes(good[:at] + b"E" + good[at + 1:])
    boots_tilted(build, state, "FIRMWARE CHANGED: main.py changed")
    main.write_bytes(good)
    assert "BENCH sicbo rounds 1" in boot(build, state)
