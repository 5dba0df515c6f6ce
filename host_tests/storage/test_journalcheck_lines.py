"""tools/boardops/journalcheck line by line, on the firmware's own exports (a RAM flash, CPython): each kind of tampering
named with the entry and line it is at, a file that is not an export refused naming its line, an entry whose
empty text lost its trailing space still read. Rounds differ from sequence numbers, so that neither can pass
for the other."""
import pytest

from boardops.journalcheck import check, parse
from harness.ramblockdev import RamBlockDev
from tablectl.journal import Journal
from tablectl.storage import Log


def exported(n=6, from_seq=1, text="e%d"):
    j = Journal(Log(RamBlockDev(block_size=2048, blocks=5)))
    for i in range(1, n + 1):
        j.append("step", 100 + i, a=i, b=7 * i, text=text % i if "%" in text else text)
    lines = []
    j.export(from_seq, lines.append, "t1")
    return lines


def problems(lines, name="a.log"):
    return check([parse(name, "\n".join(lines) + "\n")])


def test_an_entry_edited_removed_or_moved_is_named_with_its_line_and_seq():
    lines = exported()  # header, #1..#6 on lines 2..7, end
    f = lines[3].split(" ")
    f[4] = str(int(f[4]) + 1)  # #3's b
    assert problems(lines[:3] + [" ".join(f)] + lines[4:])[0] == \
        "a.log line 4: entry #3 does not match its chain value: it was edited, or one before it was"
    assert problems(lines[:3] + lines[4:])[0] == \
        "a.log line 4: entry #4 where #3 should be: an entry removed, inserted or reordered"
    assert problems(lines[:3] + [lines[4], lines[3]] + lines[5:])[0] == \
        "a.log line 4: entry #4 where #3 should be: an entry removed, inserted or reordered"


def test_an_export_older_than_the_one_before_it_is_named_rolled_back():
    first = exported()
    for start in (4, 6):  # 6: it starts again at the last entry exported
        again = exported(from_seq=start)
        assert check([parse("a.log", "\n".join(first)), parse("b.log", "\n".join(again))]) == [
            "b.log: starts at #%d, but the export before it ended at #6: the table's journal is older than what "
            "was exported (swapped or rolled back)" % start]


def test_a_resync_where_no_entry_is_missing_says_the_chain_breaks_there():
    lines = exported()
    prev = lines[2].split(" ")[5]  # where the chain stood after #2: the resync line's value is the true one
    assert problems(lines[:3] + ["# resync first=3 prev=" + prev] + lines[3:]) == [
        "a.log line 4: the chain breaks before entry #3"]


def test_a_file_that_is_not_an_export_is_refused_naming_its_line():
    lines = exported()
    with pytest.raises(ValueError) as e:
        parse("x.log", "\n".join(lines[1:]))
    assert str(e.value) == "x.log line 1: not a journal export line (an entry before the export's header): %r" \
        % lines[1][:80]
    with pytest.raises(ValueError) as e:
        parse("x.log", "# nothing here\n")
    assert str(e.value) == "x.log: no '# tablectl journal export' header"
    short = " ".join(lines[2].split(" ")[:5])  # SEQ ROUND EVENT A B: no chain value
    with pytest.raises(ValueError) as e:
        parse("x.log", "\n".join(lines[:2] + [short]))
    assert str(e.value) == "x.log line 3: not a journal export line (want SEQ ROUND EVENT A B CHAIN TEXT): %r" % short
    long_line = lines[2] + "x" * 100
    bad = long_line.replace(" step ", " step 9z ", 1)  # A not a number, the line longer than 80 characters
    with pytest.raises(ValueError) as e:
        parse("x.log", "\n".join(lines[:2] + [bad]))
    assert str(e.value).startswith("x.log line 3: not a journal export line (") and \
        str(e.value).endswith("): %r" % bad[:80])


def test_an_entry_whose_empty_text_lost_its_trailing_space_is_read_as_it_was():
    lines = exported(text="")
    assert lines[1].endswith(" ")  # SEQ ROUND EVENT A B CHAIN and an empty text
    stripped = [line.rstrip() for line in lines]  # what an editor keeping the file may do
    assert problems(stripped) == [] and parse("a.log", "\n".join(stripped)).entries[0][1][5] == ""


def test_blank_lines_and_notes_between_the_lines_are_passed_over():
    lines = exported()
    kept = lines[:3] + ["", "# checked by the lab, seal 4471", "   "] + lines[3:]
    assert problems(kept) == [] and len(parse("a.log", "\n".join(kept)).entries) == 6


def test_a_file_cut_short_or_a_header_without_its_chain_is_named():
    lines = exported()
    assert problems(lines[:-2]) == ["a.log: no end line: the file was cut short after entry #5"]
    head = lines[0][:lines[0].index(" prev=")]  # no prev=
    with pytest.raises(ValueError) as e:
        parse("x.log", "\n".join([head] + lines[1:]))
    assert str(e.value).startswith("x.log line 1: not a journal export line ('prev'): ")


def test_the_checker_runs_as_make_journal_runs_it_with_only_the_tools_on_its_path(tmp_path):
    """python -m boardops.journalcheck FILE: it finds the firmware's chain module by itself."""
    import os
    import pathlib
    import subprocess
    import sys
    path = tmp_path / "00000001-00000006.log"
    path.write_text("\n".join(exported()) + "\n")
    root = pathlib.Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root / "tools"))
    proc = subprocess.run([sys.executable, "-S", "-m", "boardops.journalcheck", str(path)], env=env, cwd=str(tmp_path),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_entries_damaged_on_the_table_are_named_by_their_seqs():
    from harness.ramblockdev import flip, log_frames
    d = RamBlockDev(block_size=2048, blocks=5)
    j = Journal(Log(d))
    for i in range(1, 7):
        j.append("step", 100 + i, a=i, text="e%d" % i)
    frames = [f for f in log_frames(d) if f[5] and f[5].get("j")]
    for block, off, _, _, n, _ in frames[2:4]:  # #3 and #4
        flip(d, block, off + 12 + n // 2)
    lines = []
    Journal(Log(d)).export(1, lines.append, "t1")
    assert problems(lines) == ["a.log line 4: entries #3-#4 missing: damaged on the table"]
