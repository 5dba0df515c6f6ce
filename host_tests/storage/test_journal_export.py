"""The journal a lab or a surveillance department keeps: `make journal` pulls every entry since the last export
from a running table through the real mpremote into journals/<table>/ and checks its chain; the same checker
finds every kind of tampering in an exported file, naming the first bad entry (tools/boardops/journalcheck)."""
import subprocess
import sys

from boardops import journalcheck
from boardops.journalcheck.__main__ import main as journalcheck_main


def pull(port, folder):
    """`make journal PORT=...` as the Makefile runs it: (exit status, stdout + stderr)."""
    proc = subprocess.run([sys.executable, "-m", "boardops.journalcheck", "pull", "--port", str(port), "--dir", str(folder)],
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


def a_round(sim, dealer):
    dealer.press(sim, "SHAKE")
    dealer.wait_state(sim, "betting")
    dealer.press(sim, "BELL")
    for key in ("7", "ENTER", "CONFIRM"):
        dealer.press(sim, key)
    dealer.wait_state(sim, "idle")


def test_make_journal_pulls_what_is_new_and_chains_each_export_to_the_last(start_sim, dealer, tmp_path):
    sim = start_sim("fantan")
    a_round(sim, dealer)
    code, out = pull(sim.pty, tmp_path / "journals")
    assert code == 0, out
    table = tmp_path / "journals" / "sim-fantan"
    first = sorted(table.glob("*.log"))
    assert len(first) == 1 and first[0].name.startswith("00000001-"), out
    code, out = pull(sim.pty, tmp_path / "journals")
    assert code == 0 and "no new entries" in out, out  # nothing new: no file
    a_round(sim, dealer)
    code, out = pull(sim.pty, tmp_path / "journals")
    assert code == 0, out
    files = sorted(table.glob("*.log"))
    assert len(files) == 2, files
    before, after = journalcheck.parse(files[0]), journalcheck.parse(files[1])
    assert after.first == before.last + 1 and after.prev == before.chain  # each export continues the last
    assert journalcheck.check([before, after]) == []
    assert journalcheck_main([str(p) for p in files]) == 0


def exported(tmp_path, start_sim, dealer):
    sim = start_sim("fantan")
    a_round(sim, dealer)
    a_round(sim, dealer)
    code, out = pull(sim.pty, tmp_path / "journals")
    assert code == 0, out
    (path,) = (tmp_path / "journals" / "sim-fantan").glob("*.log")
    return path


def variants(path):
    """The export with each kind of tampering: (what, text, the entry the checker must name)."""
    lines = path.read_text().splitlines()
    entries = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    i, j = entries[2], entries[3]
    seq_i = lines[i].split()[0]
    edited = list(lines)
    f = edited[i].split(" ")
    f[4] = str(int(f[4]) + 1)  # b: a count or an amount, one more
    edited[i] = " ".join(f)
    deleted = lines[:i] + lines[i + 1:]
    inserted = lines[:i] + [lines[i]] + lines[i:]
    reordered = lines[:i] + [lines[j], lines[i]] + lines[j + 1:]
    truncated = lines[:j]
    return [("edited", edited, "entry #%s does not match" % seq_i),
            ("deleted", deleted, "where #%s should be" % seq_i),
            ("inserted", inserted, "where #%d should be" % (int(seq_i) + 1)),
            ("reordered", reordered, "where #%s should be" % seq_i),
            ("truncated", truncated, "cut short")]


def test_every_kind_of_tampering_in_an_exported_file_is_found_naming_the_entry(start_sim, dealer, tmp_path, capsys):
    path = exported(tmp_path, start_sim, dealer)
    assert journalcheck_main([str(path)]) == 0
    for what, lines, named in variants(path):
        bad = tmp_path / (what + ".log")
        bad.write_text("\n".join(lines) + "\n")
        capsys.readouterr()
        assert journalcheck_main([str(bad)]) == 1, what
        err = capsys.readouterr().err
        assert named in err.splitlines()[0], (what, err)  # the first problem named is the tampered entry


def test_a_journal_swapped_for_an_older_one_is_found_by_the_next_export(start_sim, dealer, tmp_path):
    """The flash put back as it was before entries a host already exported: the table alone cannot know, the
    host's previous export can."""
    sim = start_sim("fantan")
    a_round(sim, dealer)
    flash = sim.state_dir / "simstate" / "flash.bin"
    sim.stop()
    older = flash.read_bytes()
    sim = start_sim("fantan", state_dir=sim.state_dir)
    a_round(sim, dealer)
    code, out = pull(sim.pty, tmp_path / "journals")
    assert code == 0, out
    sim.stop()
    flash.write_bytes(older)  # rolled back: the rounds after the copy are gone from the table
    sim = start_sim("fantan", state_dir=sim.state_dir)
    code, out = pull(sim.pty, tmp_path / "journals")
    assert code == 1 and "older than what was exported" in out, out


def test_a_bad_port_or_file_is_one_line_and_exit_2_or_1(tmp_path, capsys):
    assert journalcheck_main([]) == 2
    assert journalcheck_main([str(tmp_path / "none.log")]) == 2
    (tmp_path / "x.log").write_text("hello\n")
    assert journalcheck_main([str(tmp_path / "x.log")]) == 1
    assert "not a journal export line" in capsys.readouterr().err
    code, out = pull(tmp_path / "no-such-port", tmp_path / "journals")
    assert code != 0 and "no export from" in out, out
