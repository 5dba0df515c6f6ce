"""Firmware figures on the MicroPython unix port (sim board, the .mpy files of build/sim): flash wear, the smallest
heap a long session runs in, the latency from the dealer's key to the lamps being set.

    python tools/bench/firmware.py            (or `make bench`, which runs every tools/bench module)
    python tools/bench/firmware.py --heap-runs    the 30-run heap figures alone

Every session boots the table through main.py as a board does (board.make(), App(board), its tasks) and plays
ROUNDS rounds of one table (mp/fwround.py, from the sim board's session task mp/fwsession.py: sic bo,
fish-prawn-crab, fan-tan, and the progressive of Caribbean Stud, Fortune 3 and baccarat A).
- Wear: block erases, frames and page programs a round on the sim board's flash (4 KB blocks, 256-byte
  pages, as a Pico's), and the life of a 1 MB log region at 2,000 rounds a day and 100,000 cycles a block.
- A board: the 32-bit unix port with a ROMFS partition that tools/building/romfs_port builds (`micropython-rom32`),
  the .mpy files of build/sim in a ROMFS image, run in place as a board runs them from flash: with
  -X heapsize=64K, then 2 KB less at a time until it fails, giving the smallest heap from which every size
  up to 64 KB completes. The same port loading the .mpy files from the filesystem instead gives the
  smallest heap by bisection, for comparison. The 64 KB goal over 30 fresh tables (sic bo and the
  progressives): how many complete, and where not all, the size from which all do (`--heap-runs`: that alone).
- The 64-bit unix port from PyPI (the port the tests run on), loading the .mpy files from the filesystem:
  with -X heapsize=64K and with -X heapsize=N for N found by bisection (4 KB steps).
For each, the heap in use after the session. Latency: from handle(ENTER) with the third die (the result)
or CONFIRM (lamps cleared) to the lamp driver's write, in microseconds, median and worst (the button
debounce, 30 ms, comes before it). Import costs: the heap each module takes when imported (on the 64-bit
unix port; wasm32.py measures a 32-bit MicroPython), to show where the heap goes.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from building.build_mpy import mpy_cross, romfs_image, venv_tool

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "mp"))  # fwround: a flat file the board processes load by name, not a package
from fwround import GAMES, ROUNDS  # noqa: E402  (the session both ports play)
ROOT = HERE.parent.parent
BUILD = pathlib.Path(os.environ.get("TABLECTL_BUILD", ROOT / "build" / "sim"))
MICROPYTHON = venv_tool("micropython") or "micropython"
ROMFS = "firmware.romfs"
ROM_MANIFEST = "fwmanifest-romfs.json"
TARGET_K = 64  # a long session of every controller within -X heapsize=64K

# A new table's game, set before its first boot as deploy leaves it (the firmware's own Config, a large heap)
CONFIGURE = """
import sys, board
from tablectl.config import Config
from tablectl.storage import Log
from tablectl.store import Store
Config(Store(Log(board.sim_flash()))).change(0, game=sys.argv[1])
"""


IMPORTS = r'''
import gc, sys
gc.collect()
base = gc.mem_alloc()
for name in sys.argv[1:]:
    gc.collect()
    a = gc.mem_alloc()
    __import__(name)
    gc.collect()
    print("IMPORT", name, gc.mem_alloc() - a)
gc.collect()
print("IMPORT total", gc.mem_alloc() - base)
'''
BOOT_ORDER = ("tablectl.hw.clock", "tablectl.hw.outputs", "tablectl.hw.lamps", "tablectl.hw.max7219",
              "tablectl.hw.fileflash", "board", "tablectl.crc", "tablectl.storage", "tablectl.storage.replay", "tablectl.store", "tablectl.journal",
              "tablectl.config", "tablectl.meters", "tablectl.hw.buttons",
              "tablectl.hw.watchdog", "tablectl.app", "tablectl.games.base", "tablectl.rules.dice",
              "tablectl.games.dice", "tablectl.rules.fantan", "tablectl.games.fantan", "tablectl.rules.hands",
              "tablectl.rules.pool", "tablectl.rules.awards", "tablectl.games.progressive")


def import_costs(work):
    """Heap taken by importing each firmware module (bytecode and constants), in boot order."""
    (work / "bench_imports.py").write_text(IMPORTS)
    env = dict(os.environ, MICROPYPATH=":".join([".frozen", str(work), str(BUILD)]))
    proc = subprocess.run([MICROPYTHON, "-X", "heapsize=1M", str(work / "bench_imports.py")]
                          + list(BOOT_ORDER), capture_output=True, text=True, env=env, timeout=60)
    return [line.split()[1:] for line in proc.stdout.splitlines() if line.startswith("IMPORT ")]


def rom32():
    """The 32-bit unix port with ROMFS (tools/building/romfs_port/build.py), or None if it is not built."""
    return venv_tool("micropython-rom32")


def run_session(game, heap_k, work, rounds, port="fs64"):
    """ROUNDS rounds of GAME on a table booted by main.py under -X heapsize=HEAP_K K (work: a folder prepare()
    filled), played by mp/fwsession.py; its BENCH figures as a dict, or None if the table failed (out of
    memory, a wrong state, an unbalanced pool).
    port: "fs64" the PyPI unix port, .mpy files from the filesystem; "rom32" the 32-bit ROMFS port, .mpy
    files from work's ROMFS image (prepare_rom); "fs32" that port with the .mpy files from the filesystem.
    It runs in the table's own folder, by relative names, so that no path of this machine is in the heap."""
    state = work / ("state_%s_%s_%d" % (port, game, heap_k))
    if state.exists():
        shutil.rmtree(state)
    state.mkdir()
    shutil.copyfile(BUILD / "main.py", state / "main.py")  # a board runs main.py from its filesystem
    if port == "rom32":  # and, deployed in ROMFS, keeps the manifest beside it (main.py checks the code at boot)
        shutil.copyfile(work / ROM_MANIFEST, state / "fwmanifest.json")
    exe = rom32() if port in ("rom32", "fs32") else MICROPYTHON
    env = dict(os.environ, TABLECTL_ROOT="s", TABLECTL_CLOCK="virtual")
    if port == "rom32":
        env.update(MICROPYPATH=".frozen:/rom", MICROPY_ROMFS=str(work / ROMFS))
    else:
        env["MICROPYPATH"] = ":".join([".frozen", os.path.relpath(work, state), os.path.relpath(BUILD, state)])
    try:
        if game != "sicbo":
            subprocess.run([exe, "-X", "heapsize=1M", "-c", CONFIGURE, game], env=env, cwd=state, check=True,
                           capture_output=True, timeout=60)
        env["TABLECTL_SESSION"] = str(rounds)
        proc = subprocess.run([exe, "-X", "heapsize=%dK" % heap_k, "main.py"], capture_output=True, text=True,
                              env=env, timeout=300, cwd=state)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    fig = None
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH "):
            f = line.split()
            fig = dict((f[i], int(f[i + 1])) for i in range(2, len(f) - 1, 2))
    if fig is None or proc.returncode != 0:
        return None
    return fig


def prepare(work):
    """Compile the session's modules (mp/fwsession.py, mp/fwround.py) into `work`, where the sim board's
    session task loads them from, as a board loads .mpy files."""
    for src in (HERE / "mp" / "fwsession.py", HERE / "mp" / "fwround.py"):
        subprocess.run([mpy_cross(), "-s", src.name, "-o", str(work / (src.stem + ".mpy")), str(src)], check=True)


def prepare_rom(work):
    """work/firmware.romfs: the ROMFS image a board would carry, the .mpy files of build/sim with the
    session's two modules (prepare() first), built by mpremote's ROMFS builder as `mpremote romfs` does."""
    stage = work / "romfs"
    shutil.copytree(BUILD, stage, ignore=shutil.ignore_patterns("*.py", "*.json"))  # main.py stays on a board's filesystem
    for name in ("fwsession.mpy", "fwround.mpy"):
        shutil.copyfile(work / name, stage / name)
    (work / ROMFS).write_bytes(romfs_image(stage))
    shutil.rmtree(stage)
    manifest = json.loads((BUILD / "fwmanifest.json").read_text())
    manifest["romfs"] = "/rom"  # as make deploy ROMFS=1 writes it
    (work / ROM_MANIFEST).write_text(json.dumps(manifest))


def bisect_heap(fails, lo, hi, step):
    """The smallest heap (KB, in `step` KB steps) above lo for which fails(heap_k) is false, by bisection;
    hi, taken to pass, when no smaller one does."""
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        if fails(mid):
            lo = mid
        else:
            hi = mid
    return hi


def smallest_heap(game, work, rounds, lo=32, hi=512, port="fs64"):
    """Bisection on -X heapsize (KB, 4 KB steps) for the session to complete."""
    if run_session(game, hi, work, rounds, port) is None:
        return None
    return bisect_heap(lambda heap_k: run_session(game, heap_k, work, rounds, port) is None, lo, hi, 4)


def completes_down_to(game, work, rounds, top=TARGET_K, step=2):
    """The smallest heap (KB) from which the ROMFS session completes in every size up to `top`, which it
    completed in: walking down by `step` from there, since a heap that fragments need not fail at one
    size and pass at every larger one."""
    low = top
    while low > step and run_session(game, low - step, work, rounds, "rom32") is not None:
        low -= step
    return low


def board_figures(work):
    """The session on a board booted by main.py: the 32-bit port with the firmware in ROMFS (the 64 KB target)."""
    if rom32() is None:
        print("firmware board: micropython-rom32 is not built (make rom32): no 32-bit ROMFS figures")
        return
    prepare_rom(work)
    for game in GAMES:
        fig = run_session(game, TARGET_K, work, ROUNDS, "rom32")
        if fig is None or not fig["rom"]:
            print("firmware board %-15s %d rounds in a %d KB heap: FAILS" % (game, ROUNDS, TARGET_K))
            continue
        low = completes_down_to(game, work, ROUNDS)
        fs = smallest_heap(game, work, ROUNDS, lo=48, hi=256, port="fs32")
        print("firmware board %-15s %d rounds booted by main.py, 32-bit, .mpy files in ROMFS: complete in a %d KB "
              "heap and in every heap from %d KB (2 KB steps); heap in use after: %d bytes; the same .mpy files "
              "loaded from the filesystem need %s KB" % (game, ROUNDS, TARGET_K, low, fig["heap_used"], fs))


HEAP_RUNS = 30  # fresh tables a heap figure is counted over: the port's heap moves from run to run
HEAP_GAMES = ("sicbo", "caribbean_stud", "fortune3", "baccarat_a")  # the biggest heaps: dice table, the pool


def runs_completing(game, work, heap_k, runs):
    """How many of `runs` sessions on fresh tables complete in heap_k KB on the 32-bit ROMFS board (two at a
    time, one a core)."""
    import concurrent.futures
    import queue
    folders = queue.Queue()  # a folder a worker: run_session names its table's folder by game and heap only
    for i in range(2):
        folders.put(work / ("run%d" % i))

    def one(_):
        folder = folders.get()
        try:
            return run_session(game, heap_k, folder, ROUNDS, "rom32")
        finally:
            folders.put(folder)

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        return sum(1 for fig in pool.map(one, range(runs)) if fig is not None)


def heap_runs(work, runs=HEAP_RUNS, top=TARGET_K + 12, step=2):
    """The 64 KB goal counted over `runs` fresh tables a size: how many complete at 64 KB, and where short of
    all of them, the smallest size (2 KB steps up, to `top`) at which every one does."""
    if rom32() is None:
        return
    prepare_rom(work)
    for i in range(2):  # runs_completing's workers' folders
        sub = work / ("run%d" % i)
        sub.mkdir(exist_ok=True)
        for name in (ROMFS, ROM_MANIFEST):
            shutil.copyfile(work / name, sub / name)
    for game in HEAP_GAMES:
        k = runs_completing(game, work, TARGET_K, runs)
        line = "firmware board %-15s %d rounds, 32-bit ROMFS: %d of %d fresh tables complete in %d KB" % (
            game, ROUNDS, k, runs, TARGET_K)
        heap = TARGET_K
        while k < runs and heap < top:
            heap += step
            k = runs_completing(game, work, heap, runs)
        if heap > TARGET_K:
            line += ("; all %d from %d KB (the goal missed by %d KB)" % (runs, heap, heap - TARGET_K) if k == runs
                     else "; not all %d even at %d KB" % (runs, heap))
        print(line, flush=True)


BOOT_CHECK = """
import gc, time
from tablectl import app
times = []
for _ in range(5):
    t = time.ticks_us()
    why = app.check_firmware()
    times.append(time.ticks_diff(time.ticks_us(), t))
times.sort()
import json
with open("fwmanifest.json") as f:
    n = len(json.load(f)["files"])
print("CHECK", repr(why), n, times[2])
"""


def boot_check_figures(work):
    """What main.py's firmware check costs at every boot: files checked and the time (median of 5), on the
    32-bit ROMFS board (the files in /rom) and on the 64-bit port (the files on the filesystem)."""
    for port in ("rom32", "fs64"):
        exe = rom32() if port == "rom32" else MICROPYTHON
        if exe is None:
            continue
        state = work / ("check_" + port)
        state.mkdir(exist_ok=True)
        shutil.copyfile(BUILD / "main.py", state / "main.py")
        if port == "rom32":
            shutil.copyfile(work / ROM_MANIFEST, state / "fwmanifest.json")
            env = dict(os.environ, MICROPYPATH=".frozen:/rom", MICROPY_ROMFS=str(work / ROMFS))
        else:
            shutil.copyfile(BUILD / "fwmanifest.json", state / "fwmanifest.json")
            env = dict(os.environ, MICROPYPATH=".frozen:" + os.path.relpath(BUILD, state))
            for name in json.loads((BUILD / "fwmanifest.json").read_text())["files"]:  # the files beside it
                if name != "main.py":
                    (state / name).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(BUILD / name, state / name)
        proc = subprocess.run([exe, "-X", "heapsize=256K", "-c", BOOT_CHECK], capture_output=True, text=True,
                              env=env, cwd=state, timeout=60)
        line = [ln for ln in proc.stdout.splitlines() if ln.startswith("CHECK ")]
        if not line:
            print("firmware boot check %s: FAILED %s" % (port, (proc.stdout + proc.stderr)[-200:]))
            continue
        why, files, us = line[0].split(" ", 1)[1].rsplit(" ", 2)
        print("firmware boot check %-5s %s files against their manifest before the table starts: %.1f ms "
              "(median of 5)%s" % (port, files, int(us) / 1000, "" if why == "''" else ", FOUND " + why))


FLASH_BLOCKS = 256        # a 1 MB log region of 4 KB blocks (the sim board's, a Pico's erase block)
CYCLES = 100000           # erase cycles a NOR flash block is rated for
ROUNDS_A_DAY = 2000


def flash_life_years(erases_per_round, blocks=FLASH_BLOCKS):
    """Years until the ring's blocks reach their rated cycles: the log erases its blocks in turn, evenly."""
    return blocks * CYCLES / (erases_per_round * ROUNDS_A_DAY) / 365.25


def wear_figures(work):
    """Flash wear of every controller's session: erases, frames and page programs a round, and the projected
    life of a 1 MB log at 2,000 rounds a day (the counts are the firmware's own: no noise)."""
    for game in GAMES:
        fig = run_session(game, 512, work, ROUNDS)
        if fig is None:
            print("firmware wear  %-15s session FAILED" % game)
            continue
        per = fig["erases"] / ROUNDS
        print("firmware wear  %-15s %.3f block erases a round (journal included), %.2f frames, %.2f page "
              "programs; a 1 MB log of 4 KB blocks at %d rounds a day and %d erase cycles a block lasts %.0f "
              "years" % (game, per, fig["frames"] / ROUNDS, fig["programs"] / ROUNDS, ROUNDS_A_DAY, CYCLES,
                         flash_life_years(per)))


def main():
    if "--heap-runs" in sys.argv:  # that piece alone
        work = pathlib.Path(tempfile.mkdtemp(prefix="tablectl_bench_"))
        try:
            prepare(work)
            return heap_runs(work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    if not (BUILD / "fwmanifest.json").exists():
        subprocess.run([sys.executable, str(ROOT / "tools" / "building" / "build_mpy.py"), "--board", "sim", "--out", str(BUILD)],
                       check=True)
    work = pathlib.Path(tempfile.mkdtemp(prefix="tablectl_bench_"))
    try:
        prepare(work)
        wear_figures(work)
        board_figures(work)
        heap_runs(work)
        boot_check_figures(work)
        for name, size in import_costs(work):
            print("firmware import %-28s %6s bytes of heap" % (name, size))
        for game in GAMES:
            fig = run_session(game, TARGET_K, work, ROUNDS)
            at_target = "completes" if fig is not None else "FAILS (out of memory)"
            fig = fig or run_session(game, 512, work, ROUNDS)
            if fig is None:
                print("firmware %-15s session FAILED" % game)
                continue
            heap = smallest_heap(game, work, ROUNDS)
            print("firmware %-15s %d rounds booted by main.py in a %d KB heap: %s; smallest heap it runs in: %s KB; "
                  "heap in use after: %d bytes" % (game, ROUNDS, TARGET_K, at_target, heap, fig["heap_used"]))
            print("firmware %-15s key -> lamps set: median %d us, worst %d us (after the 30 ms debounce)"
                  % (game, fig["lat_med"], fig["lat_max"]))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
