"""The smallest heap each MicroPython test module passes in, against the heap its '# mp-heap:' line declares.

    .venv/bin/python tools/mpheap.py [test_module ...]      (default: every test module with one)

A module's declared heap is the budget CI runs it in; the heap a run needs moves by a few hundred bytes
with the garbage collector's luck, so a declared heap should stay some way above the smallest one
(MARGIN). Bisection in 1 KB steps; one line per module; exit 1 if a module is too close to its budget.
"""
import sys

from harness import mpy  # host_tests/, on the .venv's path (make setup)

MARGIN = 0.10  # keep a tenth of the declared heap spare (make test checks a twentieth: host_tests/test_on_micropython.py)


def kib(text):
    return int(text[:-1]) if text.endswith("K") else int(text) // 1024


def passes(module, k):
    return mpy.run_tests(module, heap="%dK" % k)[0]


def smallest(module, declared):
    """Smallest heap in KB the module passes in (None if not even at twice the declared)."""
    hi = declared
    while not passes(module, hi):
        hi *= 2
        if hi > 4 * declared:
            return None
    lo = 8  # fails (nothing imports in 8 KB)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if passes(module, mid):
            hi = mid
        else:
            lo = mid
    return hi


def main(argv):
    modules = mpy.micropython_modules()
    names = argv or sorted(modules)
    tight = 0
    print("%-28s %9s %9s %7s" % ("module", "declared", "smallest", "spare"))
    for name in names:
        declared = kib(mpy.heap_of(modules[name]))
        need = smallest(name, declared)
        if need is None:
            print("%-28s %8dK %9s" % (name, declared, "FAILS"))
            tight += 1
            continue
        spare = (declared - need) / declared
        flag = "" if spare >= MARGIN else "  <- too tight"
        tight += bool(flag)
        print("%-28s %8dK %8dK %6.1f%%%s" % (name, declared, need, 100 * spare, flag))
    return 1 if tight else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
