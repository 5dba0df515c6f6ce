"""The firmware's heap on a 32-bit MicroPython: the bench session (mp/fwround.py, the rounds firmware.py
plays on the 64-bit unix port) on the webassembly port (npm @micropython/micropython-webassembly-pyscript,
pinned in wasm32/package.json; `make bench` installs it when npm is there), loading the same .mpy files.

Objects on a 32-bit board (RP2040, ESP32) are smaller than on the 64-bit unix port, by less than half:
this measures by how much. The figure is the heap in use between rounds (after a collection), not a
smallest -X heapsize: this build's heap grows on demand and collects only when control is back in
JavaScript, so it cannot be bisected. Prints one line per game beside firmware.py's 64-bit figures.
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from building.build_mpy import mpy_cross

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "mp"))  # fwround: a flat file the board processes load by name, not a package
from fwround import GAMES, ROUNDS  # noqa: E402  (the session both ports play)
ROOT = HERE.parent.parent
BUILD = pathlib.Path(os.environ.get("TABLECTL_BUILD", ROOT / "build" / "sim"))
NODE_DIR = HERE / "wasm32"
PACKAGE = NODE_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def run(game, fwround):
    proc = subprocess.run(["node", str(NODE_DIR / "session.mjs"), str(BUILD), str(fwround), game, str(ROUNDS)],
                          capture_output=True, text=True, cwd=str(NODE_DIR), timeout=300)
    for line in proc.stdout.splitlines():
        if line.startswith("SESSION32 "):
            f = line.split()
            return dict((f[i], int(f[i + 1])) for i in range(2, len(f) - 1, 2))
    tail = (proc.stdout + proc.stderr).strip().splitlines()[-1:] or ["no output"]
    raise RuntimeError("%s on wasm32: %s" % (game, tail[0]))


def main():
    if shutil.which("node") is None or not PACKAGE.exists():
        print("firmware32 skipped: needs node and `npm ci --prefix tools/bench/wasm32` (make bench does it)")
        return
    if not (BUILD / "fwmanifest.json").exists():
        raise RuntimeError("no %s: run `make mpy` first" % BUILD)
    work = pathlib.Path(tempfile.mkdtemp(prefix="tablectl_wasm32_"))
    try:
        fwround = work / "fwround.mpy"
        subprocess.run([mpy_cross(), "-o", str(fwround), str(HERE / "mp" / "fwround.py")], check=True)
        for game in GAMES:
            f = run(game, fwround)
            print("firmware32 %-15s %d rounds on 32-bit MicroPython (wasm32): heap in use between rounds, peak %d "
                  "bytes (%.0f KB), of which code %d and data %d; %.1f s"
                  % (game, ROUNDS, f["peak"] - f["base"], (f["peak"] - f["base"]) / 1024, f["code"] - f["base"],
                     f["peak"] - f["code"], f["ms"] / 1000))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
