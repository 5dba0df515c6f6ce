"""Rules-core figures on the MicroPython unix port: µs per dice / fan-tan resolution, hand classification
and pool contribution; the core's .mpy size; its heap after import (64-bit unix port: pointers are twice
a board's, so a 32-bit RP2040 or ESP32 needs roughly half the heap shown). A module's figure includes
any new qstr pool (~1.8 KB at the fourth) the runtime allocates while that module loads.

Runs `.venv/bin/micropython` on the .mpy files of build/sim (built here if missing, as `make mpy` does).
"""
import os
import pathlib
import subprocess
import sys
import tempfile

from building.build_mpy import venv_tool

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
BUILD = ROOT / "build" / "sim"
RULES = BUILD / "tablectl" / "rules"
MICROPYTHON = venv_tool("micropython") or "micropython"
HEAP = "128K"  # room for every module and both dice tables at once; a controller loads one part

# Runs on the unix port. Timed loops repeat the same call; figures are the mean per call.
SCRIPT = r'''
import gc, time
gc.collect()
base = gc.mem_alloc()
sizes = []
for name in ("", "ids", "cards", "hands", "fantan", "pool", "awards", "dice"):
    before = gc.mem_alloc()
    __import__("tablectl.rules" + ("." + name if name else ""))
    gc.collect()
    sizes.append((name, gc.mem_alloc() - before))
gc.collect()
core = gc.mem_alloc() - base
for name, n in sizes:
    print("heap after import: %-12s %6d bytes" % (name or "(packages)", n))
print("heap after import: whole core   %6d bytes" % core)
import sys
before = gc.mem_alloc()
from tablectl.rules import dicetab as tab  # the generated dice rows: in the heap while a table is built
gc.collect()
print("heap after import: dicetab      %6d bytes (whole core with it: %d bytes)"
      % (gc.mem_alloc() - before, gc.mem_alloc() - base))
from tablectl.rules import dice
before = gc.mem_alloc()
table = dice.DiceTable("sicbo")  # it drops dicetab from sys.modules; `tab` holds it, as test_core_import does
gc.collect()
print("heap of a sicbo DiceTable built with dicetab held: %d bytes" % (gc.mem_alloc() - before))
print("heap of the whole core, dicetab and a sicbo table: %d bytes (issue 4's target heap: 32768; "
      "test_core_import's line says what passes with the test runner)" % (gc.mem_alloc() - base))
table = tab = None
gc.collect()
from tablectl.rules import awards, cards, dice, fantan, hands, pool
before = gc.mem_alloc()
table = dice.DiceTable("sicbo")
gc.collect()
print("heap of a sicbo DiceTable: %d bytes" % (gc.mem_alloc() - before))
before = gc.mem_alloc()
fpc = dice.DiceTable("fish_prawn_crab")
gc.collect()
print("heap of a fish-prawn-crab DiceTable: %d bytes" % (gc.mem_alloc() - before))

def per_call(label, fn, calls):
    gc.collect()
    t0 = time.ticks_us()
    fn()
    us = time.ticks_diff(time.ticks_us(), t0)
    print("%-44s %8.2f us/call (%d calls)" % (label, us / calls, calls))

def dice_loop():
    r = table.resolve
    for _ in range(50):
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                for d3 in range(1, 7):
                    r(d1, d2, d3)
per_call("dice resolution (sicbo, all 216 throws)", dice_loop, 50 * 216)

def fantan_loop():
    res, win = fantan.resolve, fantan.win_cents
    for _ in range(2500):
        for r in (1, 2, 3, 4):
            w, p = res(r)
            win(w[0], 10000)
per_call("fan-tan resolution + one win in cents", fantan_loop, 10000)

seed = 12345
hands5 = []
while len(hands5) < 200:  # distinct-card hands from a small LCG (the unix port has no random.sample)
    five = []
    while len(five) < 5:
        seed = (seed * 1103515245 + 12345) & 0x3FFFFFFF
        c = (seed >> 8) % 52
        if c not in five:
            five.append(c)
    hands5.append(tuple(five))
gc.collect()

def classify_loop():
    c = hands.classify5
    for _ in range(20):
        for h in hands5:
            c(h)
per_call("5-card class (classify5, checked)", classify_loop, 4000)

def three_two_loop():
    c = hands.classify_3_plus_2
    for _ in range(20):
        for h in hands5:
            c(h[:3], h[3:])
per_call("3+2 class (classify_3_plus_2, with slicing)", three_two_loop, 4000)

coups = []
for h in hands5[:50]:
    coups.append((h, (h[0], h[2], h[4]), (h[1], h[3])))
hands5 = None
gc.collect()

def baccarat_loop():
    c = hands.baccarat_class
    for _ in range(20):
        for dealt, p, b in coups:
            c("a", dealt, p, b)
            c("c", dealt, p, b)
per_call("baccarat class (A and C schemes)", baccarat_loop, 2000)

p = pool.Pool(**awards.config_for("caribbean_stud", 500000, 1750, 10 ** 9,
                                   {"flush": 5000, "full_house": 7500, "four_of_a_kind": 10000}))

def contribute_loop():
    c = p.contribute
    for bet in range(100, 10100):
        c(bet)
per_call("pool contribution", contribute_loop, 10000)

def settle_loop():
    s = p.settle
    for _ in range(1000):
        s([(2, hands.FLUSH), (5, hands.STRAIGHT_FLUSH)])
per_call("pool settle (flush + straight flush)", settle_loop, 1000)
gc.collect()
print("heap in use at the end: %d bytes, free %d" % (gc.mem_alloc(), gc.mem_free()))
'''


def ensure_build():
    if not (BUILD / "fwmanifest.json").exists():
        subprocess.run([sys.executable, str(ROOT / "tools" / "building" / "build_mpy.py"), "--board", "sim",
                        "--out", str(BUILD)], check=True)


def cpython_figures():
    """The same core on CPython, for comparison with the unix port (the host tests run it there)."""
    import time
    from tablectl.rules import awards, dice, fantan, hands, pool
    table = dice.DiceTable("sicbo")
    p = pool.Pool(**awards.config_for("caribbean_stud", 500000, 1750, 10 ** 9,
                                      {"flush": 5000, "full_house": 7500, "four_of_a_kind": 10000}))
    throws = [(a, b, c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)] * 50
    five = (51, 47, 43, 39, 35)
    cases = (
        ("dice resolution", lambda: [table.resolve(*t) for t in throws], len(throws)),
        ("fan-tan resolution + one win in cents",
         lambda: [fantan.win_cents(fantan.resolve(r)[0][0], 10000) for r in (1, 2, 3, 4) * 2500], 10000),
        ("5-card class (classify5, checked)", lambda: [hands.classify5(five) for _ in range(10000)], 10000),
        ("pool contribution", lambda: [p.contribute(b) for b in range(100, 10100)], 10000),
    )
    print("CPython %d.%d:" % sys.version_info[:2])
    for label, fn, calls in cases:
        t0 = time.perf_counter()
        fn()
        print("%-44s %8.3f us/call (%d calls)" % (label, (time.perf_counter() - t0) * 1e6 / calls, calls))


def main():
    ensure_build()
    files = sorted(RULES.glob("*.mpy"))
    for f in files:
        print("core .mpy: %-14s %6d bytes" % (f.name, f.stat().st_size))
    print("core .mpy total: %d bytes in %d files" % (sum(f.stat().st_size for f in files), len(files)))
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as tmp:
        tmp.write(SCRIPT)
    env = dict(os.environ, MICROPYPATH=str(BUILD))
    try:
        proc = subprocess.run([MICROPYTHON, "-X", "heapsize=" + HEAP, tmp.name], capture_output=True,
                              text=True, timeout=300, env=env)
    finally:
        os.unlink(tmp.name)
    print("micropython unix port, -X heapsize=%s:" % HEAP)
    sys.stdout.write(proc.stdout)
    if proc.returncode:
        sys.stdout.write(proc.stderr)
        raise SystemExit("bench core: the unix port run failed (exit %d)" % proc.returncode)
    print("smallest heap the whole core imports in (fresh process): %s (issue 4's target: 32K)"
          % smallest_import_heap(env))
    cpython_figures()


def smallest_import_heap(env):
    """The smallest -X heapsize (2K steps) in which every tablectl.rules module imports at once."""
    script = "from tablectl.rules import awards, cards, dice, fantan, hands, ids, pool"
    for kb in range(16, 66, 2):
        proc = subprocess.run([MICROPYTHON, "-X", "heapsize=%dK" % kb, "-c", script], capture_output=True,
                              text=True, timeout=60, env=env)
        if proc.returncode == 0:
            return "%dK" % kb
    return "more than 64K"


if __name__ == "__main__":
    main()
