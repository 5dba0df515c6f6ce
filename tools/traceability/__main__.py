"""`make trace`: regenerate the traceability matrix and list what is wrong (exit 1 if anything is)."""
import argparse
import sys

from . import MATRIX, REGENERATE, ROOT, BadIndex, build


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m traceability", description=__doc__)
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if there are problems or %s is out of date" % MATRIX)
    args = ap.parse_args(argv)
    try:
        matrix = build()
    except BadIndex as e:
        print("traceability: %s" % e, file=sys.stderr)
        return 2
    problems = matrix.problems()
    text = matrix.render()
    path = ROOT / MATRIX
    current = path.exists() and path.read_text(encoding="utf-8") == text
    if args.check:
        if not current:
            problems.append("%s is out of date: run `%s`" % (MATRIX, REGENERATE))
    elif not current:
        path.write_text(text, encoding="utf-8")
        print("wrote %s" % MATRIX)
    for line in problems:
        print(line, file=sys.stderr)
    counts = matrix.counts()
    print(", ".join("%s %d" % kv for kv in counts.items()))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
