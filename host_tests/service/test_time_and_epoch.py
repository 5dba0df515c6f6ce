"""Time of day and epochs through the real mpremote on the simulator (issue 26 items 3 and 5): TIME NOT SET until
service.set_time(), the setting journalled, the times and `epoch.round` in the journal, its export and `make
journal`'s check; a RAM clear opens the next epoch; the sim board's battery-backed clock keeps the time across a
power cut, and one that went back boots TIME NOT SET."""
import subprocess
import sys

from boardops import journalcheck


def pull(port, folder):
    proc = subprocess.run([sys.executable, "-m", "boardops.journalcheck", "pull", "--port", str(port), "--dir", str(folder)],
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


def test_time_set_by_the_technician_stamps_the_journal_and_a_ram_clear_opens_the_next_epoch(
        start_sim, service_call, dealer, tmp_path):
    sim = start_sim("fantan")
    out = service_call(sim, "status()")
    assert "TIME NOT SET: service.set_time(" in out and "round 1.1" in out, out
    out = service_call(sim, "set_time('2026-12-02 08:30:00')")
    assert out.startswith("REFUSED: set_time refused: the service key is off"), out
    dealer.key(sim)
    out = service_call(sim, "set_time('2026-02-30 08:30:00')")
    assert out.strip() == "REFUSED: no such date: '2026-02-30 08:30:00'", out
    out = service_call(sim, "set_time('2026-12-02 08:30:00')")
    assert "the clock reads 2026-12-02T08:30:00Z (UTC), was not set" in out, out
    assert "time 2026-12-02T08:3" in service_call(sim, "status()")
    dealer.key(sim, on=False)
    dealer.fantan_round(sim, 3)
    out = service_call(sim, "journal(8)")
    assert "round 1.1 time_set after 2026-12-02T08:30:00Z (by the technician, was -)" in out, out
    assert " 2026-12-02T08:3" in [x for x in out.splitlines() if " result " in x][-1], out

    dealer.key(sim)
    code = service_call(sim, "ram_clear().data['code']").strip()
    assert "cleared" in service_call(sim, "ram_clear('%s')" % code)
    dealer.key(sim, on=False)
    dealer.fantan_round(sim, 2)
    assert "round 2.2" in service_call(sim, "status()")
    code, out = pull(sim.pty, tmp_path / "journals")
    assert code == 0, out
    (path,) = (tmp_path / "journals" / "sim-fantan").glob("*.log")
    lines = path.read_text().splitlines()
    results = [x.split(" ") for x in lines if " result " in x]
    assert [r[1] for r in results] == ["1.1", "2.1"] and all(r[6].startswith("2026-12-02T08:3") for r in results)
    cleared = [x for x in lines if " ram_cleared " in x]
    assert cleared and cleared[0].split(" ")[1] == "2.1", cleared
    # the time is under the chain: a minute moved in the file is found, naming the entry
    i = lines.index(" ".join(results[0]))
    moved = list(lines)
    f = results[0][:]
    f[6] = f[6][:14] + ("4" if f[6][14] != "4" else "5") + f[6][15:]
    moved[i] = " ".join(f)
    problems = journalcheck.check([journalcheck.parse("moved", "\n".join(moved))])
    assert problems and "entry #%s does not match" % f[0] in problems[0], problems

    # a power cut: the battery-backed clock keeps the time, the epoch stays
    sim.stop()
    sim = start_sim("fantan", state_dir=sim.state_dir)
    out = service_call(sim, "status()")
    assert "time 2026-12-02T08:3" in out and "round 2.2" in out, out
    # the clock's battery gone flat and the clock set back a year: not set, and the loss journalled
    sim.stop()
    rtc = sim.state_dir / "simstate" / "rtc"
    rtc.write_text("%d\n" % (int(rtc.read_text()) - 365 * 86400))
    sim = start_sim("fantan", state_dir=sim.state_dir)
    out = service_call(sim, "status()")
    assert "TIME NOT SET (the clock read 2025-12-0" in out, out
    assert "time_lost journal 2026-12-02T08:3" in service_call(sim, "journal(3)")
