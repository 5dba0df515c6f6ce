"""Put the firmware on a board: build it with mpy-cross (tools/build_mpy.py), then copy it with the real mpremote.

    make deploy BOARD=pico PORT=/dev/ttyACM0
    python tools/deploy.py --board pico --port /dev/ttyACM0 [--out build/deploy/pico] [--timeout 15] [--no-reset]
                           [--no-aiorepl]

Steps: refuse a BOARD that has no folder under boards/ and a PORT that does not answer (one line on
stderr, exit 2); build build/deploy/BOARD (firmware/ + boards/BOARD/ as .mpy, plus fwmanifest.json with
the CRC-32 of every file, which the firmware's selftest() checks); list the board's code files and
remove (`fs rm`) those the new firmware's selftest() would fail: every .py/.mpy under the firmware's
folders (tablectl/...) that the new manifest does not list, and every X.py beside a listed X.mpy (the
import takes X.py first) - never records, the journal, lib/ (mip) or other root files; create the
folders the board lacks (`fs mkdir`); copy every file (`fs cp`), fwmanifest.json last so an
interrupted copy fails selftest; then `mpremote mip install aiorepl` (the REPL beside the controller,
for `mpremote resume`; a warning if there is no network) and reset the board (`mpremote reset`) so it
boots the new firmware. The removal and the copy run in one mpremote call. On a board running
aiorepl (installed here, required by the freeze manifests) they run in aiorepl's raw REPL inside the
running firmware, which ignores Ctrl-C and soft resets: the controller keeps running (and feeding its
watchdog) until the reset at the end, so deploy between rounds with the table closed. Without aiorepl,
mpremote's Ctrl-C stops the controller, which then holds its armed watchdog from a timer
(tablectl.app.run). Every call is `resume` (no soft reset), since a soft reset would end that timer and
let the watchdog reset the board partway through the copy. BOARD=sim deploys into the folder of a running simulator (its terminal is the PORT; the
simulator keeps running the firmware it started with and has its own REPL task, so there is neither
aiorepl nor a reset).
"""
import argparse
import ast
import inspect
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import build_mpy  # noqa: E402

ROOT = build_mpy.ROOT
sys.path.append(str(ROOT / "firmware"))
from tablectl import service as fwservice  # noqa: E402  (selftest's own rules for stale code files)

PROBE = "import sys; print('deploy-probe', sys.implementation.name)"


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


def stale_on_board(port, listed, timeout):
    """The board's code files that the firmware of `listed` (the new manifest's files) would not
    certify: (unlisted, shadows), by the rules of the firmware's selftest(), whose folder walk runs on
    the board from its own source (the board may hold an older firmware, or none)."""
    deep, shallow = fwservice._code_places(listed)
    code = "%s\nprint('code-files', repr(_code_files('', %r, %r)))" % (
        inspect.getsource(fwservice._code_files), deep, shallow)
    proc = run_mpremote(port, ["resume", "exec", code], timeout)
    found = [line for line in proc.stdout.splitlines() if line.startswith("code-files ")]
    if proc.returncode != 0 or not found:
        raise DeployError("cannot list the code files on %s: %s" % (port, last_line(proc)))
    return fwservice._stale_files(listed, ast.literal_eval(found[0].split(" ", 1)[1]))


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


def deploy(board, port, out=None, timeout=15, reset=True, aiorepl=True):
    if board not in boards():
        raise DeployError("no board %r (boards: %s)" % (board, ", ".join(boards())))
    probe(port, timeout)
    # not build/BOARD: `make sim` runs from build/sim, which must not be rebuilt under a running simulator
    out = pathlib.Path(out) if out else ROOT / "build" / "deploy" / board
    out, manifest = build_mpy.build(board, out)
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
        if aiorepl:
            warnings += install_aiorepl(port, timeout)
        if reset:
            run_mpremote(port, ["reset"], timeout)  # the board boots the new main.py
    return files, removed, warnings


def install_aiorepl(port, timeout):
    """micropython-lib's aiorepl lets `mpremote resume` reach the REPL while the controller runs (the
    board's tasks() starts it when it is installed). It comes from micropython.org: without a network
    the deploy still stands, with a warning."""
    try:
        proc = run_mpremote(port, ["resume", "mip", "install", "aiorepl"], timeout + 60)
    except DeployError as e:
        return ["aiorepl not installed: %s" % e]
    if proc.returncode != 0:
        return ["aiorepl not installed (%s): the service REPL will stop the controller; retry with "
                "`mpremote connect %s mip install aiorepl`" % (last_line(proc), port)]
    return []


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", required=True)
    ap.add_argument("--port", default="")
    ap.add_argument("--out", default=None, help="build folder (default build/deploy/BOARD)")
    ap.add_argument("--timeout", type=int, default=15, help="seconds the port has to answer")
    ap.add_argument("--no-reset", action="store_true", help="leave the board in the REPL after copying")
    ap.add_argument("--no-aiorepl", action="store_true", help="do not `mip install aiorepl` (needs a network)")
    args = ap.parse_args(argv)
    try:
        files, removed, warnings = deploy(args.board, args.port, args.out, args.timeout, not args.no_reset,
                                          not args.no_aiorepl)
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
