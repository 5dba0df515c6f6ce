"""make mutate: cosmic-ray's mutants of the money-critical modules against the tests that cover each (tools/mutate.toml).

    .venv/bin/python tools/mutate.py [--minutes N] [PATH ...]     (default: every module of tools/mutate.toml)
    .venv/bin/python tools/mutate.py --hand                        (the hand mutations of tools/mutate.toml)

Each module has its own session in build/mutate/ (cosmic-ray's work database): a mutant is applied to the file
in place, the module's tests run on CPython, the file is put back. The run stops starting mutants when the
budget is spent and the next run goes on where it stopped; a session whose module changed starts again.
A survivor in code only MicroPython runs (tools/mutate.toml's `[[micropython]]`) is tried again against the
unix port's run of the tests named for it. Prints one line a module (killed, survived, left) and every survivor
that tools/mutate.toml does not list as equivalent; exit 1 if there is one. Needs requirements-mutate.txt (not
part of make test's setup).
"""
import argparse
import hashlib
import pathlib
import re
import shlex
import sys
import time
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIG = ROOT / "tools" / "mutate.toml"
SESSIONS = ROOT / "build" / "mutate"


def load(path=CONFIG):
    cfg = tomllib.loads(path.read_text())
    keep = re.compile("|".join("(?:%s)$" % p for p in cfg["operators"]))
    return cfg, keep


def _digest(paths):
    h = hashlib.sha256()
    for p in paths:
        h.update(p.encode() + b"\0" + (ROOT / p.split("::")[0]).read_bytes())
    return h.hexdigest()


def session(module, keep):
    """(the module's work database, job ids to try first): made anew when the module's source changed since it
    was made; when only its tests changed, the survivors are tried again, first (a killed mutant stays killed).
    A mutant the wall clock stopped (cosmic-ray's output "timeout": a loaded machine, not only a loop) is tried
    again, first, in every run: what stops a loop is the CPU limit (cpu_s)."""
    import json
    import sqlite3
    from cosmic_ray.commands import init
    from cosmic_ray.work_db import WorkDB
    from cosmic_ray.work_item import WorkerOutcome, WorkResult
    SESSIONS.mkdir(parents=True, exist_ok=True)
    name = module["path"].replace("/", "_")
    db_path, stamp = SESSIONS / (name + ".sqlite"), SESSIONS / (name + ".json")
    now = {"source": _digest([module["path"]]), "tests": _digest(module["tests"])}
    was = json.loads(stamp.read_text()) if stamp.exists() and db_path.exists() else {}
    again = set()
    if was and was["source"] == now["source"] and was["tests"] != now["tests"]:
        with sqlite3.connect(str(db_path)) as raw:
            again = set(r[0] for r in raw.execute("SELECT job_id FROM work_results WHERE test_outcome = 'SURVIVED'"))
            raw.execute("DELETE FROM work_results WHERE test_outcome = 'SURVIVED'")
    if was and was["source"] == now["source"]:
        with sqlite3.connect(str(db_path)) as raw:
            again |= set(r[0] for r in raw.execute("SELECT job_id FROM work_results WHERE output = 'timeout'"))
            raw.execute("DELETE FROM work_results WHERE output = 'timeout'")
    db = WorkDB(str(db_path), WorkDB.Mode.create)
    if was.get("source") != now["source"]:
        init([pathlib.Path(module["path"])], db, {})
        skipped = [item.job_id for item in db.work_items if not keep.match(item.mutations[0].operator_name)]
        if skipped:
            db.set_multiple_results(skipped, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
    stamp.write_text(json.dumps(now))
    return db, again


def command(module, cpu_s=None):
    """The module's tests as one command; under a limit of cpu_s seconds of CPU if given (prlimit)."""
    tests = " ".join(shlex.quote(t) for t in module["tests"])
    return limited("%s -m pytest -x -q %s" % (shlex.quote(sys.executable), tests), cpu_s)


def limited(cmd, cpu_s):
    """cmd killed once it has used cpu_s seconds of CPU: a mutant's loop that never ends is stopped by what
    it spends, not by the wall clock, which a loaded machine stretches for every mutant alike (a survivor's
    tests taking longer than the wall-clock timeout were counted as killed)."""
    return cmd if not cpu_s else "prlimit --cpu=%d %s" % (cpu_s, cmd)


def line_of(spec):
    """(the mutated line, the line before it), stripped, as tools/mutate.toml's equivalents name them."""
    lines = (ROOT / spec.module_path).read_text().splitlines()
    row = spec.start_pos[0] - 1
    return lines[row].strip(), lines[row - 1].strip() if row else ""


def listed(entries, path, operator, text, before):
    """The entry of tools/mutate.toml's `entries` naming this mutant (its module, operator and line), or None."""
    for e in entries:
        if (e["path"], e["operator"], e["line"]) == (path, operator, text) and e.get("after", before) == before:
            return e
    return None


def is_equivalent(equivalent, path, operator, text, before):
    return listed(equivalent, path, operator, text, before) is not None


def run(module, keep, deadline, timeout, equivalent, micropython=(), cpu_s=None):
    """(killed, survived, left, [unexplained survivor lines]) of one module's session, run until deadline.
    A survivor that `micropython` lists (code only the unix port runs) is tried again against its tests there."""
    from cosmic_ray.mutating import mutate_and_test
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome
    db, again = session(module, keep)
    try:
        test = command(module, cpu_s)
        # cosmic-ray hands the pending mutants out in random order: the survivors tried again go first
        for item in sorted(db.pending_work_items, key=lambda item: item.job_id not in again):
            if time.monotonic() >= deadline:
                break
            result = mutate_and_test(item.mutations, test, timeout)
            if result.test_outcome == TestOutcome.SURVIVED:
                spec = item.mutations[0]
                there = listed(micropython, module["path"], spec.operator_name, *line_of(spec))
                if there is not None:
                    result = mutate_and_test(item.mutations, command(there, cpu_s), timeout)
            db.set_result(item.job_id, result)
        killed = survived = 0
        unexplained = []
        for item, result in db.completed_work_items:
            if result.worker_outcome != WorkerOutcome.NORMAL:
                continue  # an operator not kept, or no mutation where it was asked for
            if result.test_outcome != TestOutcome.SURVIVED:
                killed += 1
                continue
            survived += 1
            spec = item.mutations[0]
            text, before = line_of(spec)
            if not is_equivalent(equivalent, module["path"], spec.operator_name, text, before):
                unexplained.append("%s:%d %s (occurrence %d): %s" % (spec.module_path, spec.start_pos[0],
                                                                     spec.operator_name, spec.occurrence, text))
        left = len(db.pending_work_items)
    finally:
        db.close()
    return killed, survived, left, unexplained


def pytest(tests):
    import os
    import subprocess
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")  # no .pyc of a mutant left to be taken for the file
    return subprocess.run([sys.executable, "-m", "pytest", "-x", "-q"] + list(tests), cwd=str(ROOT), env=env,
                          capture_output=True, text=True).returncode


def hand(cases):
    """Each hand mutation alone: its tests must fail with it and pass without. The number that do not."""
    bad = 0
    for case in cases:
        path = ROOT / case["file"]
        source = path.read_text()
        where = "%s:%d" % (case["file"], source[:source.find(case["old"])].count("\n") + 1)
        if source.count(case["old"]) != 1:
            print("%-44s %s: its text is in the file %d times, not once" % (case["file"], case["what"],
                                                                           source.count(case["old"])))
            bad += 1
            continue
        try:
            path.write_text(source.replace(case["old"], case["new"]))
            mutated = pytest(case["tests"])
        finally:
            path.write_text(source)
        restored = pytest(case["tests"])
        ok = mutated != 0 and restored == 0
        bad += not ok
        print("%-44s %-7s %s (%s)" % (where, "killed" if ok else ("SURVIVED" if not mutated else "FAILS"),
                                      case["what"], " ".join(case["tests"])), flush=True)
    return bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", help="modules of tools/mutate.toml to run (default: all)")
    ap.add_argument("--hand", action="store_true", help="replay the hand mutations instead")
    ap.add_argument("--minutes", type=float, help="the budget (default: tools/mutate.toml's budget_minutes)")
    args = ap.parse_args(argv)
    cfg, keep = load()
    if args.hand:
        return 1 if hand(cfg["hand"]) else 0
    modules = cfg["module"]
    unknown = [p for p in args.paths if p not in [m["path"] for m in modules]]
    if unknown:
        sys.exit("mutate: %s not in %s (its modules: %s)" % (", ".join(unknown), CONFIG.relative_to(ROOT),
                                                             ", ".join(m["path"] for m in modules)))
    if args.paths:
        modules = [m for m in modules if m["path"] in args.paths]
    equivalent = cfg.get("equivalent", ())
    minutes = cfg["budget_minutes"] if args.minutes is None else args.minutes
    deadline = time.monotonic() + 60 * minutes
    bad = []
    waiting = 0
    print("%-36s %7s %8s %5s" % ("module", "killed", "survived", "left"))
    for module in modules:
        killed, survived, left, unexplained = run(module, keep, deadline, cfg["timeout_s"], equivalent,
                                                  cfg.get("micropython", ()), cfg.get("cpu_s"))
        print("%-36s %7d %8d %5d" % (module["path"], killed, survived, left), flush=True)
        bad += unexplained
        waiting += left
    for line in bad:
        print("survived, not listed as equivalent: " + line)
    if waiting:
        print("%d mutants left when the budget was spent: the next run goes on with them" % waiting)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
