"""The table's meters out, for a casino's accounting: lifetime (since the last RAM clear) and each shift's, as CSV and JSON.

    make meters PORT=/dev/ttyACM0 [OUT=meters]
    python tools/boardops/meters.py --port PORT [--out DIR]

Through the real mpremote (`resume`: the controller keeps running): service.meters() gives the lifetime
and the open shift, the journal (service.journal_export) every closed shift's figures (its shift_meter
entries, which service.shift_close() wrote). Writes DIR/TABLE-meters.csv (a row a figure: table, shift,
state, meter, value, unit; amounts in cents) and DIR/TABLE-meters.json; prints both paths. Exit 2 with
one line when the table cannot be read.
"""
import argparse
import csv
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
from boardops.verify import VerifyError, board_call, board_exec  # mpremote resume exec
from boardops import journalcheck  # the export's reader: both line forms
from tablectl.journal import round_text  # firmware/, on the .venv's path


def closed_shifts(export):
    """(table id, [{'shift': n, 'closed_seq': seq, 'round': 'epoch.round', 'meters': {label: value}}]) from an
    export (ValueError for one that is not)."""
    shifts = []
    lines = [x for x in export.splitlines() if x[:1] == "#" or x[:1].isdigit()]  # not the REPL's echo ('None')
    parsed = journalcheck.parse("the table's export", "\n".join(lines))
    for _, rec, _ in parsed.entries:
        seq, round_no, event, a, b, text = rec[:6]
        if event == "shift_close":
            shifts.append({"shift": a, "closed_seq": seq, "round": round_text(round_no, rec[7] if len(rec) > 7 else 0),
                           "meters": {}})
        elif event == "shift_meter" and shifts and shifts[-1]["shift"] == b:
            shifts[-1]["meters"][text] = a
    return parsed.table or "table", shifts


def rows(table, lifetime, shifts):
    out = []
    for s in shifts:
        state = "open" if s.get("open") else "closed"
        out += [(table, s["shift"], state, k, v) for k, v in s["meters"].items()]
    out += [(table, "", "lifetime", k, v) for k, v in lifetime.items()]
    return [(t, n, st, k[:-6] if k.endswith("_cents") else k, v, "cents" if k.endswith("_cents") else "count")
            for t, n, st, k, v in out]


def pull(port, out, timeout=120):
    data = json.loads(board_exec(port, "import json, service\nr = service.meters()\n"
                                 "print('REFUSED: ' + r.reason if hasattr(r, 'reason') else json.dumps(r.data))",
                                 timeout).strip().splitlines()[-1])
    if "unavailable" in data:
        raise VerifyError("the table's meters are unavailable: " + data["unavailable"])
    table, shifts = closed_shifts(board_call(port, "journal_export(1)", timeout))
    lifetime = dict((k, v) for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool) and k != "shift")
    shifts.append({"shift": data["shift"], "open": True, "meters": data["shift_meters"]})
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / ("%s-meters.csv" % table), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(("table", "shift", "state", "meter", "value", "unit"))
        w.writerows(rows(table, lifetime, shifts))
    (out / ("%s-meters.json" % table)).write_text(json.dumps({"table": table, "lifetime": lifetime, "shifts": shifts},
                                                             indent=1, sort_keys=True) + "\n")
    return out / ("%s-meters.csv" % table), out / ("%s-meters.json" % table)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", required=True)
    ap.add_argument("--out", default="meters")
    args = ap.parse_args(argv)
    try:
        paths = pull(args.port, args.out)
    except (VerifyError, ValueError) as e:  # ValueError: an export journalcheck cannot read
        print("meters: %s" % e, file=sys.stderr)
        return 2
    print("\n".join(str(p) for p in paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
