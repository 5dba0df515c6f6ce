"""`make bench`: run every benchmark module in tools/bench/ and print its figures.

Each module has a main() that prints labelled figures; speed and memory targets live here, never in
timed tests. `python tools/bench.py core poker` runs only those modules.
"""
import importlib.util
import pathlib
import sys
import time
import traceback

HERE = pathlib.Path(__file__).resolve().parent / "bench"


def load(path):
    spec = importlib.util.spec_from_file_location("bench_" + path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main(names):
    paths = sorted(HERE.glob("*.py"))
    if names:
        paths = [p for p in paths if p.stem in names]
    failed = 0
    for path in paths:
        print("== bench %s" % path.stem, flush=True)
        t0 = time.perf_counter()
        try:
            load(path).main()
        except Exception:
            failed += 1
            traceback.print_exc()
        print("   (%s: %.1f s)" % (path.stem, time.perf_counter() - t0), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
