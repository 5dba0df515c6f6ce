"""Put the firmware on a board: build it with mpy-cross (tools/build_mpy.py), then copy it with the real mpremote.

    make deploy BOARD=pico PORT=/dev/ttyACM0
    python tools/deploy.py --board pico --port /dev/ttyACM0 [--out build/pico] [--timeout 15] [--no-reset]

Steps: refuse a BOARD that has no folder under boards/ and a PORT that does not answer (one line on
stderr, exit 2); build build/BOARD (firmware/ + boards/BOARD/ as .mpy, plus fwmanifest.json with the
CRC-32 of every file, which the firmware's selftest() checks); create the folders on the board
(`fs mkdir`), copy every file (`fs cp`), fwmanifest.json last so an interrupted copy fails selftest;
then reset the board (`mpremote reset`) so it boots the new firmware. The copy runs in the raw REPL
after mpremote's usual Ctrl-C and soft reset, so a running controller is stopped before its files are
replaced. BOARD=sim deploys into the folder of a running simulator (its terminal is the PORT; the
simulator keeps running the firmware it started with, so there is no reset).
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import build_mpy  # noqa: E402

ROOT = build_mpy.ROOT
PROBE = "import sys; print('deploy-probe', sys.implementation.name)"


class DeployError(Exception):
    """A refusal or failure, said in one line."""


def boards():
    return sorted(p.name for p in (ROOT / "boards").iterdir() if (p / "board.py").is_file())


def mpremote():
    exe = pathlib.Path(sys.executable).parent / "mpremote"
    found = str(exe) if exe.exists() else shutil.which("mpremote")
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


def copy_commands(out, files):
    """mpremote arguments that create the folders and copy every file, the manifest last."""
    dirs = sorted({str(pathlib.PurePosixPath(f).parent) for f in files} - {"."}, key=lambda d: (d.count("/"), d))
    # fs mkdir fails on a folder that exists (a second deploy): make them in one exec that allows that
    mkdirs = "import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass" % (dirs,)
    args = ["exec", mkdirs]
    ordered = sorted(f for f in files if f != build_mpy.FWMANIFEST) + [build_mpy.FWMANIFEST]
    for f in ordered:
        args += ["+", "fs", "cp", str(pathlib.Path(out) / f), ":" + f]
    return args


def deploy(board, port, out=None, timeout=15, reset=True):
    if board not in boards():
        raise DeployError("no board %r (boards: %s)" % (board, ", ".join(boards())))
    probe(port, timeout)
    out = pathlib.Path(out) if out else ROOT / "build" / board
    out, manifest = build_mpy.build(board, out)
    files = sorted(manifest) + [build_mpy.FWMANIFEST]
    # generous: a pty or USB serial moves about 10 KB/s through the raw REPL
    budget = timeout + 2 * len(files) + sum((out / f).stat().st_size for f in files) // 2000
    proc = run_mpremote(port, copy_commands(out, files), budget)
    if proc.returncode != 0:
        raise DeployError("copy to %s failed: %s" % (port, last_line(proc)))
    if reset and board != "sim":
        run_mpremote(port, ["reset"], timeout)  # the board boots the new main.py
    return files


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", required=True)
    ap.add_argument("--port", default="")
    ap.add_argument("--out", default=None, help="build folder (default build/BOARD)")
    ap.add_argument("--timeout", type=int, default=15, help="seconds the port has to answer")
    ap.add_argument("--no-reset", action="store_true", help="leave the board in the REPL after copying")
    args = ap.parse_args(argv)
    try:
        files = deploy(args.board, args.port, args.out, args.timeout, not args.no_reset)
    except DeployError as e:
        print("deploy: %s" % e, file=sys.stderr)
        return 2
    print("deploy: %d files copied to %s (board %s); check them on the board with "
          "service.selftest()" % (len(files), args.port, args.board))
    return 0


if __name__ == "__main__":
    sys.exit(main())
