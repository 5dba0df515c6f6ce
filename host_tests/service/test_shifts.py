"""Shifts and meters out through the real mpremote on the simulator: service.shift_close() journals the closing
shift's meters and starts the next, service.meters() shows the lifetime and the shift, `make meters` writes the
rows (CSV and JSON) a casino's accounting imports."""
import csv
import json
import subprocess
import sys

from building import build_mpy


def rounds(text):
    """(lifetime, shift) of the rounds line of a meters() report."""
    line = [x for x in text.splitlines() if x.split()[:1] == ["rounds"]][0]
    return int(line.split()[1]), int(line.split()[2])


def test_shift_close_journals_the_shift_and_make_meters_writes_every_shift(start_sim, service_call, dealer, tmp_path):
    sim = start_sim("fantan")
    dealer.fantan_round(sim, 3)
    out = service_call(sim, "meters()")
    assert "lifetime" in out and "shift 1" in out and rounds(out) == (1, 1), out
    out = service_call(sim, "shift_close()")  # the key is off: refused, nothing changes
    assert out.startswith("REFUSED: shift_close refused: the service key is off"), out
    dealer.key(sim)
    out = service_call(sim, "shift_close()")
    assert "shift 1 closed, shift 2 started" in out, out
    out = service_call(sim, "journal(20)")
    assert "shift_close" in out and "shift_meter a 1 b 1 (rounds)" in out and "shift_open" in out, out
    dealer.key(sim, on=False)
    dealer.fantan_round(sim, 1)
    dealer.fantan_round(sim, 2)
    assert rounds(service_call(sim, "meters()")) == (3, 2)
    proc = subprocess.run(["make", "-s", "meters", "PORT=%s" % sim.pty, "OUT=%s" % (tmp_path / "out")],
                          cwd=str(build_mpy.ROOT), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    csv_path, json_path = proc.stdout.split()
    with open(csv_path) as f:
        table = list(csv.DictReader(f))
    got = dict(((r["shift"], r["state"], r["meter"]), (r["value"], r["unit"])) for r in table)
    assert got[("1", "closed", "rounds")] == ("1", "count") and got[("2", "open", "rounds")] == ("2", "count"), got
    assert got[("", "lifetime", "rounds")] == ("3", "count") and got[("", "lifetime", "voids")] == ("0", "count")
    data = json.loads(open(json_path).read())
    assert [s["shift"] for s in data["shifts"]] == [1, 2] and data["lifetime"]["rounds"] == 3, data
    assert data["table"] == table[0]["table"] and csv_path.endswith(data["table"] + "-meters.csv")


def test_make_meters_says_in_one_line_when_it_cannot_read_the_table(tmp_path):
    proc = subprocess.run([sys.executable, str(build_mpy.ROOT / "tools" / "boardops" / "meters.py"), "--port",
                           str(tmp_path / "no-such-pty"), "--out", str(tmp_path)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2 and proc.stderr.startswith("meters: mpremote on ") and proc.stderr.count("\n") == 1, proc
