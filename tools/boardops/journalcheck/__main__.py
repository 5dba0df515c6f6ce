"""`python -m boardops.journalcheck FILE...` checks exported journals offline (oldest first); `python -m boardops.journalcheck pull
--port PORT` (what `make journal PORT=...` runs) pulls every entry since the last export into journals/<table>/
and checks it against the exports before it. Exit 0 when all is well, 1 naming the first bad entry, 2 for
a usage error."""
import argparse
import pathlib
import subprocess
import sys

from boardops.journalcheck import check, parse

ROOT = pathlib.Path(__file__).resolve().parents[3]
EXPORT = "import service; service.journal_export(%d)"


def exports_of(folder):
    """The table's earlier exports in journals/<table>/, oldest first (file names are FIRST-LAST seqs)."""
    return sorted(folder.glob("*.log"))


def pull(port, folder, mpremote):
    def run(from_seq):
        proc = subprocess.run([mpremote, "connect", port, "resume", "exec", EXPORT % from_seq],
                              capture_output=True, text=True, timeout=300)
        if proc.returncode != 0 or "# end" not in proc.stdout:
            raise SystemExit("journalcheck: no export from %s: %s" % (port, (proc.stderr or proc.stdout).strip()[-300:]))
        return proc.stdout

    probe = parse(port, run((1 << 30) - 1))  # where the table's journal ends, and the table's name
    table_dir = folder / probe.table
    table_dir.mkdir(parents=True, exist_ok=True)
    earlier = [parse(p) for p in exports_of(table_dir)[-1:]]  # the last export is the one the new one continues
    start = earlier[0].last + 1 if earlier else 1
    text = run(start)
    new = parse("%s (from the table)" % port, text)
    if new.entries:
        path = table_dir / ("%08d-%08d.log" % (new.entries[0][1][0], new.entries[-1][1][0]))
        path.write_text(text)
        new.name = str(path)
        print("journalcheck: %d entries (#%d-#%d) from %s into %s"
              % (len(new.entries), new.entries[0][1][0], new.entries[-1][1][0], port, path))
    else:
        print("journalcheck: no new entries on %s since #%d" % (port, start - 1))
    return earlier + [new]


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["pull"]:
        ap = argparse.ArgumentParser(prog="python -m boardops.journalcheck pull", description=__doc__.splitlines()[0])
        ap.add_argument("--port", required=True, help="the board's serial port (or the simulator's pty)")
        ap.add_argument("--dir", default=str(ROOT / "journals"), help="where exports are kept (journals/)")
        ap.add_argument("--mpremote", default=str(pathlib.Path(sys.executable).parent / "mpremote"))
        opts = ap.parse_args(args[1:])
        if not opts.port:
            print("journalcheck: give the board's port: make journal PORT=/dev/ttyACM0", file=sys.stderr)
            return 2
        try:
            exports = pull(opts.port, pathlib.Path(opts.dir), opts.mpremote)
        except ValueError as e:
            print("journalcheck: %s" % e, file=sys.stderr)
            return 1
    else:
        if not args or args[0].startswith("-"):
            print("usage: python -m boardops.journalcheck FILE... | pull --port PORT", file=sys.stderr)
            return 2
        try:
            exports = [parse(p) for p in args]
        except (OSError, ValueError) as e:
            print("journalcheck: %s" % e, file=sys.stderr)
            return 2 if isinstance(e, OSError) else 1
    problems = check(exports)
    for line in problems:
        print("journalcheck: %s" % line, file=sys.stderr)
    if problems:
        return 1
    print("journalcheck: %d export%s, %d entries, every chain value and number checks"
          % (len(exports), "" if len(exports) == 1 else "s", sum(len(e.entries) for e in exports)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
