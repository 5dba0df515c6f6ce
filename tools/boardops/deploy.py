"""Put the firmware on a board: build it with mpy-cross (tools/building/build_mpy.py), then copy it with the real mpremote.

    make deploy BOARD=pico PORT=/dev/ttyACM0
    make deploy BOARD=pico PORT=/dev/ttyACM0 ROMFS=1          (the code as a ROMFS image: a 64 KB heap)
    python tools/boardops/deploy.py --board pico --port /dev/ttyACM0 [--out build/deploy/pico] [--timeout 15] [--no-reset]
                           [--no-aiorepl] [--romfs]

Steps: refuse a BOARD that has no folder under boards/ and a PORT that does not answer (one line on
stderr, exit 2); build build/deploy/BOARD (firmware/ + boards/BOARD/ as .mpy, plus fwmanifest.json with
the CRC-32 of every file, which the firmware's selftest() checks); list the board's code files and
remove (`fs rm`) those the new firmware's selftest() would fail: every .py/.mpy under the firmware's
folders (tablectl/...) that the new manifest does not list, and every X.py beside a listed X.mpy (the
import takes X.py first) - never records, the journal, lib/ (mip) or other root files; create the
folders the board lacks (`fs mkdir`); copy every file (`fs cp`), fwmanifest.json last so an
interrupted copy fails selftest; then `mpremote mip install aiorepl` (the REPL beside the controller,
for `mpremote resume`) and `mpremote mip install umqtt.simple` (the MQTT client of a linked progressive,
docs/link.md; imported only by a table configured with `link`), a warning for each if there is no
network, and reset the board (`mpremote reset`) so it
boots the new firmware. The removal and the copy run in one mpremote call. On a board running
aiorepl (installed here, required by the freeze manifests) they run in aiorepl's raw REPL inside the
running firmware, which ignores Ctrl-C and soft resets: the controller keeps running (and feeding its
watchdog) until the reset at the end, so deploy between rounds with the table closed. Without aiorepl,
mpremote's Ctrl-C stops the controller, which then holds its armed watchdog from a timer
(tablectl.app.run). Every call is `resume` (no soft reset), since a soft reset would end that timer and
let the watchdog reset the board partway through the copy. BOARD=qemu (a board whose image freezes the firmware, tools/building/qemu_image.py) gets only main.py and the manifest, and
no aiorepl (its image has the sim board's REPL task). BOARD=sim deploys into the folder of a running simulator (its terminal is the PORT; the
simulator keeps running the firmware it started with and has its own REPL task, so there is neither
aiorepl nor a reset).

--partition (PARTITION=1, BOARD=pico): the factory step that partitions a Pico's flash, tools/boardops/partition.py.

--romfs (ROMFS=1), for a MicroPython built with a ROMFS partition (MicroPython 1.25+: rp2 with
MICROPY_HW_ROMFS_BYTES, esp32 with a romfs partition): every file but main.py/boot.py goes into a ROMFS
image (BUILD.romfs, mpremote's builder), which the board runs in place from flash, so the code takes no
heap for its bytecode and strings (the firmware's long session then fits a 64 KB heap; make bench).
A board without a partition, or one too small, is refused before anything changes. The running
firmware must not execute from the partition while it is rewritten: deploy first creates the file
`deploying` and resets the board, whose main.py then stays at the REPL without starting the
controller; then `mpremote romfs deploy` writes the image, the stale code files go (any copy of the
firmware's code on the filesystem would be imported before /rom's), main.py and the manifest (marked
"romfs": "/rom", where selftest() then checks the files) are copied, `deploying` is removed, and the
board is reset into the new firmware.
"""
import argparse
import ast
import inspect
import os
import pathlib
import shutil
import subprocess
import sys
import time

from building import build_mpy

ROOT = build_mpy.ROOT
from tablectl import certify  # noqa: E402  (the firmware's own rules for stale code files)

PROBE = "import sys; print('deploy-probe', sys.implementation.name)"
ROMFS_PROBE = ("import vfs\nn = vfs.rom_ioctl(1) if hasattr(vfs, 'rom_ioctl') else 0\n"
               "d = vfs.rom_ioctl(2, 0) if n > 0 else -1\nprint('romfs-size', len(d) if not isinstance(d, int) else 0)")
ROM = "/rom"  # where MicroPython mounts the ROMFS image
DEPLOYING = "deploying"  # main.py does not start the controller while this file exists (a ROMFS deploy)


class DeployError(Exception):
    """A refusal or failure, said in one line."""


def boards():
    return sorted(p.name for p in (ROOT / "boards").iterdir() if (p / "board.py").is_file())


def mpremote():
    found = build_mpy.venv_tool("mpremote")
    if not found:
        raise DeployError("mpremote not found (run `make setup`)")
    return found


def run_mpremote(port, args, timeout):
    try:
        return subprocess.run([mpremote(), "connect", port] + args, capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise DeployError("port %s does not answer: no MicroPython REPL within %d s (is the board on "
                          "this port, and is nothing else connected to it?)" % (port, timeout))


def last_line(proc):
    lines = (proc.stderr + proc.stdout).strip().splitlines()
    return lines[-1] if lines else "exit status %d" % proc.returncode


def probe(port, timeout):
    """The port exists and a MicroPython REPL answers on it (the running program is interrupted)."""
    if not port:
        raise DeployError("no PORT: give the board's serial port, e.g. make deploy BOARD=pico PORT=/dev/ttyACM0")
    if not os.path.exists(port):
        raise DeployError("port %s does not exist (plugged in? `mpremote devs` lists the ports)" % port)
    proc = run_mpremote(port, ["resume", "exec", PROBE], timeout)
    if proc.returncode != 0 or "deploy-probe" not in proc.stdout:
        raise DeployError("port %s does not answer as a MicroPython board: %s" % (port, last_line(proc)))


# the running firmware's service key, if it has one: 'key True', 'key False', 'key None' (no firmware or no key)
KEY = ("import sys\ntry:\n    from tablectl import app\n    a = app.current\n    print('key', a.key_on() if a "
       "and hasattr(a, 'key_on') else None)\nexcept ImportError:\n    print('key', None)\n")


def key_check(port, timeout):
    """DeployError when a running firmware's service key is off: a deploy changes the table, as configure
    does, so it waits for the technician's key (a board with no firmware running has nothing to refuse)."""
    proc = run_mpremote(port, ["resume", "exec", KEY], timeout)
    if "key False" in proc.stdout:
        raise DeployError("the table's service key is off: turn the key switch on, then deploy (with it off a "
                          "table can be read, not changed)")


def folders(files):
    """Every folder the files need, parents first."""
    found = set()
    for f in files:
        parent = pathlib.PurePosixPath(f).parent
        while str(parent) != ".":
            found.add(str(parent))
            parent = parent.parent
    return sorted(found, key=lambda d: (d.count("/"), d))


def existing_folders(port, wanted, timeout):
    """The folders of `wanted` that the board has already (`fs mkdir` refuses to make one twice)."""
    code = ("import os\nfor d in %r:\n try:\n  if os.stat(d)[0] & 0x4000:\n   print('have', d)\n"
            " except OSError:\n  pass" % (wanted,))
    proc = run_mpremote(port, ["resume", "exec", code], timeout)
    if proc.returncode != 0:
        raise DeployError("cannot list the folders on %s: %s" % (port, last_line(proc)))
    return {line.split(" ", 1)[1] for line in proc.stdout.splitlines() if line.startswith("have ")}


def stale_on_board(port, listed, timeout, rom=False):
    """The board's code files that the firmware of `listed` (the new manifest's files) would not
    certify: (unlisted, shadows), by the rules of the firmware's check (tablectl.certify), whose folder
    walk runs on the board from its own source (the board may hold an older firmware, or none). rom: the firmware
    goes into ROMFS, so every copy of it on the filesystem is stale too."""
    deep, shallow = certify.code_places(listed)
    code = "%s\nprint('code-files', repr(code_files('', %r, %r)))" % (
        inspect.getsource(certify.code_files), deep, shallow)
    proc = run_mpremote(port, ["resume", "exec", code], timeout)
    found = [line for line in proc.stdout.splitlines() if line.startswith("code-files ")]
    if proc.returncode != 0 or not found:
        raise DeployError("cannot list the code files on %s: %s" % (port, last_line(proc)))
    return certify.stale_files(listed, ast.literal_eval(found[0].split(" ", 1)[1]), rom)


def copy_commands(out, files, have=(), remove=()):
    """mpremote arguments that remove the stale files, make the missing folders and copy every file,
    the manifest last; `resume`: no soft reset, which would end the watchdog hold (module docstring)."""
    args = []
    for f in remove:
        args += ["+", "fs", "rm", ":" + f]
    for d in folders(files):
        if d not in have:
            args += ["+", "fs", "mkdir", ":" + d]
    ordered = sorted(f for f in files if f != build_mpy.FWMANIFEST) + [build_mpy.FWMANIFEST]
    for f in ordered:
        args += ["+", "fs", "cp", str(pathlib.Path(out) / f), ":" + f]
    return ["resume"] + args[1:]


def romfs_size(port, timeout):
    """The size of the board's first ROMFS partition; DeployError if it has none."""
    proc = run_mpremote(port, ["resume", "exec", ROMFS_PROBE], timeout)
    found = [line for line in proc.stdout.splitlines() if line.startswith("romfs-size ")]
    if proc.returncode != 0 or not found:
        raise DeployError("cannot ask %s for its ROMFS partition: %s" % (port, last_line(proc)))
    size = int(found[0].split()[1])
    if size <= 0:
        raise DeployError("the MicroPython on %s has no ROMFS partition: deploy without ROMFS=1, or put a "
                          "MicroPython built with one on the board (docs/technicians.md)" % port)
    return size


def romfs_image(out, manifest):
    """out/../BOARD.romfs: every built file but those a board runs from its filesystem. Returns (image
    path, its size)."""
    stage = out.with_name(out.name + ".romfs.d")
    if stage.exists():
        shutil.rmtree(stage)
    image = build_mpy.deployed_romfs_image(out, manifest, stage)
    shutil.rmtree(stage)
    path = out.with_name(out.name + ".romfs")
    path.write_bytes(image)
    return path, len(image)


def wait_for_board(port, timeout):
    """After a reset: the port back (a USB board re-enumerates) and its REPL answering."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            time.sleep(1)
            return probe(port, timeout)
        except DeployError:
            if time.monotonic() > deadline:
                raise


def deploy(board, port, out=None, timeout=15, reset=True, aiorepl=True, romfs=False):
    if board not in boards():
        raise DeployError("no board %r (boards: %s)" % (board, ", ".join(boards())))
    probe(port, timeout)
    key_check(port, timeout)
    partition = romfs_size(port, timeout) if romfs else 0
    # not build/BOARD: `make sim` runs from build/sim, which must not be rebuilt under a running simulator
    out = pathlib.Path(out) if out else ROOT / "build" / "deploy" / board
    out, manifest = build_mpy.build(board, out, ROM if romfs else None)
    if romfs:
        return deploy_romfs(board, port, out, manifest, partition, timeout, reset, aiorepl)
    files = sorted(manifest) + [build_mpy.FWMANIFEST]
    # generous: a pty or USB serial moves about 10 KB/s through the raw REPL
    budget = timeout + 2 * len(files) + sum((out / f).stat().st_size for f in files) // 2000
    have = existing_folders(port, folders(files), timeout)
    unlisted, shadows = stale_on_board(port, manifest, timeout)
    removed = sorted(unlisted + shadows)
    proc = run_mpremote(port, copy_commands(out, files, have, removed), budget + len(removed))
    if proc.returncode != 0:
        raise DeployError("copy to %s failed: %s" % (port, last_line(proc)))
    warnings = []
    if board != "sim":
        # a board whose image freezes the firmware (qemu) has its REPL task in the image already
        if aiorepl and not build_mpy.frozen_image(board):
            warnings += install_packages(port, timeout)
        if reset:
            run_mpremote(port, ["reset"], timeout)  # the board boots the new main.py
    return files, removed, warnings


def deploy_romfs(board, port, out, manifest, partition, timeout, reset, aiorepl):
    """The ROMFS deploy (module docstring): the image into the partition, main.py and the manifest onto
    the filesystem, with the controller kept from running out of the partition meanwhile."""
    image, size = romfs_image(out, manifest)
    if size > partition:
        raise DeployError("the image (%d bytes) is larger than the board's ROMFS partition (%d bytes)"
                          % (size, partition))
    on_board = board != "sim"  # a simulator runs the firmware it started with, from its build folder
    if on_board:
        proc = run_mpremote(port, ["resume", "fs", "touch", ":" + DEPLOYING, "+", "reset"], timeout)
        if proc.returncode != 0:
            raise DeployError("cannot stop the controller on %s: %s" % (port, last_line(proc)))
        wait_for_board(port, timeout)
    fs_files = sorted(f for f in manifest if f in certify.ON_FILESYSTEM) + [build_mpy.FWMANIFEST]
    # a folder named like a firmware package hides /rom's package from the import, even empty: each goes
    # whole (a deploy without ROMFS put the firmware's code there); then the stale files elsewhere
    packages = sorted(existing_folders(port, certify.code_places(manifest)[0], timeout))
    unlisted, shadows = certify.hidden_packages(packages, *stale_on_board(port, manifest, timeout, rom=True))
    whole = [d for d in shadows if d.endswith("/")]
    files = sorted(f for f in unlisted + shadows if not f.endswith("/"))
    args = ["resume", "romfs", "deploy", str(image)]
    for d in whole:
        args += ["+", "fs", "rm", "-r", ":" + d.rstrip("/")]
    args += ["+"] + copy_commands(out, fs_files, (), files)[1:]
    args += ["+", "fs", "rm", ":" + DEPLOYING] if on_board else []
    removed = whole + files
    proc = run_mpremote(port, args, timeout + 2 * len(removed) + size // 2000)
    if proc.returncode != 0 or "ROMFS image deployed" not in proc.stdout:
        raise DeployError("ROMFS deploy to %s failed: %s" % (port, last_line(proc)))
    warnings = []
    if on_board:
        if aiorepl:
            warnings += install_packages(port, timeout)
        if reset:
            run_mpremote(port, ["reset"], timeout)  # the board mounts the new image and boots from it
    return [image.name] + fs_files, removed, warnings


# micropython-lib's packages a board needs besides the firmware, and what is lost without each; they come
# through mip from micropython-lib's index: without a network the deploy still stands, with a warning
PACKAGES = (
    # aiorepl lets `mpremote resume` reach the REPL while the controller runs (the board's tasks() starts it)
    ("aiorepl", "the service REPL will stop the controller"),
    # umqtt.simple is the MQTT client of a linked progressive table (tablectl.linkwire, docs/link.md); a
    # table without `link` configured never imports it
    ("umqtt.simple", "a table configured with `link` cannot reach its broker"),
    # ssd1306 drives the graphic display of a board whose pins.csv says DISPLAY,SSD1306 (tablectl.hw.oled)
    ("ssd1306", "a board with DISPLAY,SSD1306 cannot start its display"),
)


def install_packages(port, timeout):
    """mip install each of PACKAGES on the board; a warning line for each that could not be."""
    warnings = []
    for name, without in PACKAGES:
        try:
            proc = run_mpremote(port, ["resume", "mip", "install", name], timeout + 60)
        except DeployError as e:
            warnings.append("%s not installed: %s" % (name, e))
            continue
        if proc.returncode != 0:
            warnings.append("%s not installed (%s): %s; retry with `mpremote connect %s mip install %s`"
                            % (name, last_line(proc), without, port, name))
    return warnings


def partition_main(args):
    """make deploy BOARD=pico PARTITION=1: tools/boardops/partition.py, after the checks every deploy makes."""
    from boardops import partition
    try:
        if args.board != "pico":
            raise DeployError("PARTITION=1 is the Pico's factory step (an ESP32 has its partition table: "
                              "boards/esp32/partitions.csv, docs/technicians.md)")
        probe(args.port, args.timeout)
        key_check(args.port, args.timeout)
        done = partition.partition(args.port, args.out or ROOT / "build" / "partition", args.timeout,
                                   (lambda prompt: "yes") if args.yes else input)
    except (DeployError, partition.DeployError, EOFError) as e:  # run as a script, this module is not `deploy`
        print("deploy: %s" % (e if not isinstance(e, EOFError) else "not confirmed: nothing changed"), file=sys.stderr)
        return 2
    print("deploy: %s" % done)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", required=True)
    ap.add_argument("--port", default="")
    ap.add_argument("--out", default=None, help="build folder (default build/deploy/BOARD)")
    ap.add_argument("--timeout", type=int, default=15, help="seconds the port has to answer")
    ap.add_argument("--no-reset", action="store_true", help="leave the board in the REPL after copying")
    ap.add_argument("--no-aiorepl", action="store_true",
                    help="do not `mip install aiorepl umqtt.simple` (needs a network)")
    ap.add_argument("--romfs", action="store_true", help="the code as a ROMFS image (a MicroPython with a ROMFS partition)")
    ap.add_argument("--partition", action="store_true",
                    help="the Pico's factory step: the flash partitioned, its files and records kept (tools/boardops/partition.py)")
    ap.add_argument("--yes", action="store_true", help="--partition without asking for the confirmation")
    args = ap.parse_args(argv)
    if args.partition:
        return partition_main(args)
    try:
        files, removed, warnings = deploy(args.board, args.port, args.out, args.timeout, not args.no_reset,
                                          not args.no_aiorepl, args.romfs)
    except DeployError as e:
        print("deploy: %s" % e, file=sys.stderr)
        return 2
    for w in warnings:
        print("deploy: warning: %s" % w, file=sys.stderr)
    if removed:
        print("deploy: removed %d stale file%s: %s" % (len(removed), "" if len(removed) == 1 else "s",
                                                      ", ".join(removed)))
    print("deploy: %d files copied to %s (board %s); check them on the board with "
          "service.selftest()" % (len(files), args.port, args.board))
    return 0


if __name__ == "__main__":
    sys.exit(main())
