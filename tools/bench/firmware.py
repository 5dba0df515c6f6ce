"""Firmware figures on the MicroPython unix port (sim board, the .mpy files of build/sim): the smallest heap a
long session runs in, the latency from the dealer's key to the lamps being set, storage writes per round.

    python tools/bench/firmware.py            (or `make bench`, which runs every tools/bench module)

Peak heap: the session (ROUNDS rounds of one table, played by mp/fwround.py: sic bo, fish-prawn-crab,
fan-tan, and the progressive of Caribbean Stud, Fortune 3 and baccarat A) is run on two ports.
- A board (issue 5's target): the 32-bit unix port with a ROMFS partition that tools/romfs_port builds
  (`micropython-rom32`), the .mpy files of build/sim in a ROMFS image, run in place as a board runs
  them from flash: with -X heapsize=64K, then 2 KB less at a time until it fails, giving the smallest
  heap from which every size up to 64 KB completes. The same port loading the .mpy files from the
  filesystem instead gives the smallest heap by bisection, for comparison.
- The 64-bit unix port from PyPI (the port the tests run on), loading the .mpy files from the
  filesystem: with -X heapsize=64K and with -X heapsize=N for N found by bisection (4 KB steps).
For each, the heap in use after the session. Latency: from handle(ENTER) with the third
die (the result) or CONFIRM (lamps cleared) to the lamp driver's write, in microseconds, median and worst
(the button debounce, 30 ms, comes before it). Writes: record files written (Store.writes) and journal
lines appended (Journal.writes) per round. Import costs: the heap each module takes when imported (on
the 64-bit unix port; wasm32.py measures a 32-bit MicroPython: about 0.7 of it for code, 0.6 for data),
to show where the heap goes; "data"
is the heap in use after the session less the modules' code, which a frozen build (boards/*/manifest.py)
keeps in flash instead.
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from build_mpy import mpy_cross, romfs_image, venv_tool

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "mp"))
from fwround import GAMES, ROUNDS  # noqa: E402  (the session both ports play)
ROOT = HERE.parent.parent
BUILD = pathlib.Path(os.environ.get("TABLECTL_BUILD", ROOT / "build" / "sim"))
MICROPYTHON = venv_tool("micropython") or "micropython"
ROMFS = "firmware.romfs"
TARGET_K = 64  # issue 5: a long session of every controller within -X heapsize=64K

SESSION = r'''
# One function, so that the harness's own names are locals, not interned strings (qstrs) added to the
# firmware's: a few more qstrs can make MicroPython allocate its next qstr pool (~7 KB on this port).
import array, gc, sys, time


def bench(game, root, rounds):
    from fwround import imports, open_table, play
    imports(game)
    gc.collect()
    code_heap = gc.mem_alloc()
    # allocated before the table, while the heap is in one piece: a growing list would be the session's
    # biggest block (the latencies, in us, of two timed keys per round)
    lat = array.array("I", bytes(4 * 2 * rounds))
    mark = [0, 0]  # [start ticks_us or 0, latencies recorded]
    app = open_table(game, root)

    def on_change(what):
        if what == "lamps" and mark[0]:
            lat[mark[1]] = time.ticks_diff(time.ticks_us(), mark[0])
            mark[0] = 0
            mark[1] += 1

    app.board.listeners.append(on_change)

    def timed(ev):
        mark[0] = time.ticks_us()
        app.controller.handle(ev)

    w0, j0 = app.store.writes, app.journal.writes
    for r in range(rounds):
        failed = play(app, r, timed)
        if failed:
            print("BENCH-FAIL", failed)
            return 1
    n = mark[1]
    for i in range(1, n):  # insertion sort in place: sorted() would want a 3 KB list at the end
        v, j = lat[i], i - 1
        while j >= 0 and lat[j] > v:
            lat[j + 1] = lat[j]
            j -= 1
        lat[j + 1] = v
    gc.collect()
    print("BENCH", game, "writes", app.store.writes - w0, "journal", app.journal.writes - j0, "rounds", rounds,
          "lat_med", lat[n // 2] if n else -1, "lat_max", lat[n - 1] if n else -1, "heap_used", gc.mem_alloc(),
          "data_heap", gc.mem_alloc() - code_heap, "rom", int(sys.modules["tablectl"].__file__.startswith("/rom/")))
    return 0


sys.exit(bench(sys.argv[1], sys.argv[2], int(sys.argv[3])))
'''


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
BOOT_ORDER = ("tablectl.hw.clock", "tablectl.hw.outputs", "tablectl.hw.lamps", "tablectl.hw.max7219", "board",
              "tablectl.store", "tablectl.journal", "tablectl.config", "tablectl.meters", "tablectl.hw.buttons",
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
    """The 32-bit unix port with ROMFS (tools/romfs_port/build.py), or None if it is not built."""
    return venv_tool("micropython-rom32")


def run_session(game, heap_k, work, rounds, port="fs64"):
    """ROUNDS rounds of GAME under -X heapsize=HEAP_K K (work: a folder prepare() filled); the BENCH figures
    as a dict, or None if the session failed (out of memory, a wrong state, an unbalanced pool).
    port: "fs64" the PyPI unix port, .mpy files from the filesystem; "rom32" the 32-bit ROMFS port, .mpy
    files from work's ROMFS image (prepare_rom); "fs32" that port with the .mpy files from the filesystem."""
    state = work / ("state_%s_%s_%d" % (port, game, heap_k))
    if state.exists():
        shutil.rmtree(state)
    state.mkdir()
    if port == "rom32":
        # run in the state folder, by relative names, so that no path of this machine is in the heap
        exe, cwd, root = rom32(), state, "s"
        env = dict(os.environ, MICROPYPATH=".frozen:/rom", MICROPY_ROMFS=str(work / ROMFS))
    else:
        exe, cwd, root = (rom32() if port == "fs32" else MICROPYTHON), None, str(state)
        env = dict(os.environ, MICROPYPATH=":".join([".frozen", str(work), str(BUILD)]))
    proc = subprocess.run([exe, "-X", "heapsize=%dK" % heap_k, "-m", "bench_session", game, root, str(rounds)],
                          capture_output=True, text=True, env=env, timeout=300, cwd=cwd)
    shutil.rmtree(state, ignore_errors=True)
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH "):
            f = line.split()
            return dict((f[i], int(f[i + 1])) for i in range(2, len(f) - 1, 2))
    return None


def prepare(work):
    """Compile the session script and its rounds (mp/fwround.py) into `work`, where run_session loads them
    from, as a board loads .mpy files."""
    (work / "bench_session.py").write_text(SESSION)
    for src in (work / "bench_session.py", HERE / "mp" / "fwround.py"):
        subprocess.run([mpy_cross(), "-s", src.name, "-o", str(work / (src.stem + ".mpy")), str(src)], check=True)
    (work / "bench_session.py").unlink()


def prepare_rom(work):
    """work/firmware.romfs: the ROMFS image a board would carry, the .mpy files of build/sim with the
    session's two modules (prepare() first), built by mpremote's ROMFS builder as `mpremote romfs` does."""
    stage = work / "romfs"
    shutil.copytree(BUILD, stage, ignore=shutil.ignore_patterns("*.py", "*.json"))  # main.py stays on a board's filesystem
    for name in ("bench_session.mpy", "fwround.mpy"):
        shutil.copyfile(work / name, stage / name)
    (work / ROMFS).write_bytes(romfs_image(stage))
    shutil.rmtree(stage)


def smallest_heap(game, work, rounds, lo=32, hi=512, port="fs64"):
    """Bisection on -X heapsize (KB, 4 KB steps) for the session to complete."""
    if run_session(game, hi, work, rounds, port) is None:
        return None
    while hi - lo > 4:
        mid = (lo + hi) // 2 // 4 * 4
        if run_session(game, mid, work, rounds, port) is None:
            lo = mid
        else:
            hi = mid
    return hi


def completes_down_to(game, work, rounds, top=TARGET_K, step=2):
    """The smallest heap (KB) from which the ROMFS session completes in every size up to `top`, which it
    completed in: walking down by `step` from there, since a heap that fragments need not fail at one
    size and pass at every larger one."""
    low = top
    while low > step and run_session(game, low - step, work, rounds, "rom32") is not None:
        low -= step
    return low


def board_figures(work):
    """The session on a board: the 32-bit port with the firmware in ROMFS (issue 5's 64 KB target)."""
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
        print("firmware board %-15s %d rounds, 32-bit, .mpy files in ROMFS: complete in a %d KB heap and in every "
              "heap from %d KB (2 KB steps); heap in use after: %d bytes, %d of them data; the same .mpy files "
              "loaded from the filesystem need %s KB" % (game, ROUNDS, TARGET_K, low, fig["heap_used"],
                                                          fig["data_heap"], fs))


def main():
    if not (BUILD / "fwmanifest.json").exists():
        subprocess.run([sys.executable, str(ROOT / "tools" / "build_mpy.py"), "--board", "sim", "--out", str(BUILD)],
                       check=True)
    work = pathlib.Path(tempfile.mkdtemp(prefix="tablectl_bench_"))
    try:
        prepare(work)
        board_figures(work)
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
            print("firmware %-15s %d rounds in a %d KB heap: %s; smallest heap it runs in: %s KB; heap in use "
                  "after: %d bytes, of which %d are data, not module code (what a frozen build keeps in the heap)"
                  % (game, ROUNDS, TARGET_K, at_target, heap, fig["heap_used"], fig["data_heap"]))
            print("firmware %-15s key -> lamps set: median %d us, worst %d us (after the 30 ms debounce)"
                  % (game, fig["lat_med"], fig["lat_max"]))
            print("firmware %-15s storage per round: %.2f record writes, %.2f journal lines"
                  % (game, fig["writes"] / ROUNDS, fig["journal"] / ROUNDS))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
