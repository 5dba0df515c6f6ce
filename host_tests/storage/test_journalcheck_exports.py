"""tools/boardops/journalcheck against the firmware's own exports (Journal.export on a RAM flash, on CPython): an export
that does not continue the one before it (an entry late, another journal's chain), an end line whose entry count
is wrong, a chain break on the table, entries the ring erased, each refused or named as what it is."""
from boardops.journalcheck import check, parse
from harness.ramblockdev import RamBlockDev, flip, log_frames
from tablectl.journal import Journal
from tablectl.storage import Log


def table(block_size=2048, blocks=5):
    d = RamBlockDev(block_size=block_size, blocks=blocks)
    return d, Journal(Log(d))


def play(j, first, last, tag="step"):
    for i in range(first, last + 1):
        j.append(tag, i, a=i, b=100 * i, text="%s %d" % (tag, i))


def export(j, from_seq, name):
    lines = []
    j.export(from_seq, lines.append, "t1")
    return parse(name, "\n".join(lines) + "\n")


def test_two_exports_that_continue_each_other_pass():
    d, j = table()
    play(j, 1, 5)
    first = export(j, 1, "a.log")
    play(j, 6, 9)
    assert check([first, export(j, 6, "b.log")]) == []


def test_a_second_export_one_entry_late_is_refused_naming_the_missing_entry():
    d, j = table()
    play(j, 1, 5)
    first = export(j, 1, "a.log")
    play(j, 6, 9)
    late = export(j, 7, "b.log")  # #6 exported by nobody
    problems = check([first, late])
    assert problems == ["b.log: entries #6-#6 are missing between this export and the one before it"], problems
    assert check([first, export(j, 8, "c.log")])[0].startswith("c.log: entries #6-#7 are missing")


def test_an_end_line_whose_entry_count_is_wrong_is_refused():
    d, j = table()
    play(j, 1, 5)
    lines = []
    j.export(1, lines.append, "t1")
    assert lines[-1].endswith(" entries=5")
    for count in (4, 6, 0):
        text = "\n".join(lines[:-1] + [lines[-1].replace(" entries=5", " entries=%d" % count)])
        problems = check([parse("x.log", text)])
        assert problems == ["x.log: the end line says #5 (%d entries) but the file ends at #5 (5): entries were "
                            "removed or added at the end" % count], problems


def test_an_export_whose_prev_chain_is_not_where_the_last_one_ended_is_refused():
    """Another journal's export from the next seq on: each file checks on its own (its entries chain from its
    own prev), only the two together show the journal was rewritten between them."""
    d, j = table()
    play(j, 1, 5)
    first = export(j, 1, "a.log")
    d2, other = table()
    play(other, 1, 5, tag="other")  # the same seqs with other entries: another chain
    play(other, 6, 9)
    second = export(other, 6, "b.log")
    assert check([second]) == [] and second.first == first.last + 1
    assert second.prev != first.chain
    assert check([first, second]) == ["b.log: the chain before #6 is not the one the export before it ended with: "
                                      "the journal was rewritten"]


def test_an_export_across_a_chain_break_names_the_break_not_an_edited_entry():
    d, j = table()
    play(j, 1, 8)
    frames = [f for f in log_frames(d) if f[5] and f[5].get("j")]
    block, off, _, _, n, _ = frames[2]  # #3
    flip(d, block, off + 12 + n // 2)
    problems = check([export(Journal(Log(d)), 1, "a.log")])
    assert len(problems) == 1 and "entries #3-#3 missing: damaged on the table" in problems[0], problems
    assert not [p for p in problems if "does not match its chain value" in p]


def test_entries_the_ring_erased_between_two_exports_are_named_as_erased_on_the_table():
    d, j = table(block_size=1024)
    play(j, 1, 3)
    first = export(j, 1, "a.log")
    play(j, 4, 120)
    second = export(j, 4, "b.log")  # the ring has erased #4 and more since
    assert second.rotated is not None and second.rotated[0] == 4 and second.first == second.rotated[1] + 1
    problems = check([first, second])
    assert problems == ["b.log: entries #4-#%d are missing between this export and the one before it (the table "
                        "had erased them: export more often)" % (second.first - 1)], problems
