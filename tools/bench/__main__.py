"""`make bench` (`python -m bench`): run every benchmark module in tools/bench/ and print its figures.

Each module has a main() that prints labelled figures; speed and memory targets live here, never in
timed tests. `python -m bench core poker` runs only those modules.
"""
import importlib.util
import pathlib
import sys
import time
import traceback

HERE = pathlib.Path(__file__).resolve().parent


def load(path):
    spec = importlib.util.spec_from_file_location("bench_" + path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main(names):
    paths = sorted(p for p in HERE.glob("*.py") if not p.name.startswith("_"))
    unknown = [n for n in names if n not in [p.stem for p in paths]]
    if unknown:  # a misspelt piece must not pass as a run that measured nothing
        print("python -m bench: no piece %s; the pieces: %s" % (", ".join(unknown), " ".join(p.stem for p in paths)),
              file=sys.stderr)
        return 2
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
