"""journalcheck on stamped exports (a table's journal with times and epochs): both line forms read and chain, a
time or an epoch edited is found, a time that goes back without a time_set and an epoch that moves without a
RAM clear are named; an older firmware's bare entries followed by stamped ones still check (a table upgraded); a
stamped line's edges (its empty text stripped, a TIME of 2000, one without its Z or cut away) read or refused."""
import pytest

from boardops import journalcheck
from harness.ramblockdev import RamBlockDev
from tablectl.journal import Journal
from tablectl.storage import Log
from tablectl.utc import seconds

T0 = seconds(2026, 12, 2, 8, 30, 0)


class Clock:
    def __init__(self, times):
        self.times = list(times)

    def now(self):
        return self.times.pop(0)


def export(steps, bare=2):
    """An export of `bare` entries as an older firmware wrote them, then steps: (event, round, time, epoch)."""
    j = Journal(Log(RamBlockDev(block_size=4096, blocks=6)))
    for k in range(bare):
        j.append("old", k + 1, text="before the upgrade")
    for event, rnd, t, epoch in steps:
        j.epoch, j.clock = epoch, Clock([t])
        j.append(event, rnd, a=7, text="x y")
    lines = []
    j.export(1, lines.append, "t")
    return lines


def problems(lines):
    return journalcheck.check([journalcheck.parse("e", "\n".join(lines) + "\n")])


GOOD = [("boot", 1, None, 1), ("time_set", 1, T0, 1), ("result", 1, T0 + 5, 1), ("ram_cleared", 1, T0 + 9, 2),
        ("time_set", 1, T0 - 60, 2), ("result", 1, T0 - 50, 2)]


def test_bare_and_stamped_lines_read_and_chain():
    lines = export(GOOD)
    assert problems(lines) == []
    body = [x for x in lines if x[:1].isdigit()]
    assert body[0].split(" ")[1] == "1" and body[0].endswith(" before the upgrade")  # the old form, as it was
    assert body[2].split(" ")[1] == "1.1" and body[2].split(" ")[6] == "-" and body[2].endswith(" - x y")
    assert body[3].split(" ")[6] == "2026-12-02T08:30:00Z" and body[5].split(" ")[1] == "2.1"
    parsed = journalcheck.parse("e", "\n".join(lines))
    assert parsed.entries[5][1][6:] == [T0 + 9, 2]


@pytest.mark.parametrize("field, value", [(6, "2026-12-02T08:31:00Z"), (6, "-"), (1, "3.1"), (1, "1.2")])
def test_a_time_or_epoch_edited_is_found(field, value):
    lines = export(GOOD)
    i = [k for k, x in enumerate(lines) if x[:1].isdigit()][4]
    f = lines[i].split(" ")
    assert f[field] != value
    f[field] = value
    lines[i] = " ".join(f)
    assert any("entry #%s does not match" % f[0] in p for p in problems(lines)), problems(lines)


def test_a_time_going_back_without_a_setting_and_an_epoch_moving_without_a_clear_are_named():
    back = export([("boot", 1, T0, 1), ("result", 1, T0 - 1, 1)])
    assert [p for p in problems(back) if "earlier than the entry before it" in p and "#4" in p], problems(back)
    jump = export([("boot", 1, T0, 1), ("ram_cleared", 1, T0, 3)])
    assert [p for p in problems(jump) if "epoch 3 after epoch 1" in p], problems(jump)
    sneak = export([("boot", 1, T0, 1), ("boot", 1, T0, 2)])
    assert [p for p in problems(sneak) if "epoch 2 after epoch 1" in p], problems(sneak)


def test_a_bad_time_field_is_one_line_naming_the_line():
    lines = export(GOOD)
    i = [k for k, x in enumerate(lines) if x[:1].isdigit()][3]
    for bad in ("2026-12-02 08:30:00", "2026-02-30T00:00:00Z", "yesterday"):
        f = lines[i].split(" ")
        f[6] = bad
        text = "\n".join(lines[:i] + [" ".join(f)] + lines[i + 1:])
        with pytest.raises(ValueError, match="line %d: not a journal export line" % (i + 1)):
            journalcheck.parse("e", text)


def stamped(steps, text="x y"):
    """An export of stamped entries only: steps (event, time, epoch), round 1 each."""
    j = Journal(Log(RamBlockDev(block_size=4096, blocks=6)))
    for event, t, epoch in steps:
        j.epoch = epoch
        j.append(event, 1, a=7, text=text, at=t)
    lines = []
    j.export(1, lines.append, "t")
    return lines


def test_entries_stamped_in_the_same_second_are_no_time_going_back():
    assert problems(stamped([("boot", T0, 1), ("result", T0, 1), ("result", T0, 1), ("result", T0 + 1, 1)])) == []


def test_a_table_whose_journal_starts_after_ram_clears_checks_from_its_first_epoch_on():
    for first in (2, 3, 7):  # the journal's first entries in that epoch: no entry before them to move from
        assert problems(stamped([("boot", T0, first), ("result", T0 + 1, first)])) == [], first
    assert problems(export([("boot", 1, T0, 4), ("ram_cleared", 1, T0 + 1, 5)], bare=3)) == []


def test_a_stamped_entry_whose_empty_text_lost_its_trailing_space_is_read_as_it_was():
    lines = stamped([("boot", None, 1), ("result", T0, 1)], text="")
    body = [x for x in lines if x[:1].isdigit()]
    assert body[0].endswith(" - ") and body[1].endswith("Z ")  # SEQ EPOCH.ROUND EVENT A B CHAIN TIME and ""
    stripped = [x.rstrip() for x in lines]  # as an editor keeping the file may leave it
    assert problems(stripped) == []
    assert [rec[5:] for _, rec, _ in journalcheck.parse("e", "\n".join(stripped)).entries] == [["", None, 1],
                                                                                               ["", T0, 1]]


def test_a_time_from_2000_on_is_read_and_one_before_2000_refused_naming_the_line():
    lines = stamped([("boot", 0, 1), ("result", T0, 1)])  # 0: 2000-01-01T00:00:00Z, the first time there is
    assert lines[1].split(" ")[6] == "2000-01-01T00:00:00Z"
    assert problems(lines) == [] and journalcheck.parse("e", "\n".join(lines)).entries[0][1][6] == 0
    f = lines[1].split(" ")
    f[6] = "1999-12-31T23:59:59Z"
    with pytest.raises(ValueError, match="^e line 2: not a journal export line "):
        journalcheck.parse("e", "\n".join([lines[0], " ".join(f)] + lines[2:]))


def test_a_line_of_one_word_is_refused_as_an_entry_line_without_its_fields():
    lines = stamped([("boot", T0, 1)])
    with pytest.raises(ValueError) as e:
        journalcheck.parse("e", "\n".join(lines[:2] + ["12"] + lines[2:]))
    assert str(e.value) == "e line 3: not a journal export line (want SEQ ROUND EVENT A B CHAIN TEXT): '12'"


def test_an_older_firmwares_entry_whose_text_holds_a_dot_is_read_in_its_own_form():
    j = Journal(Log(RamBlockDev(block_size=4096, blocks=6)))
    j.append("pay", 3, a=5, b=150, text="seat 5 paid 1.50 of 2.00")  # bare: no epoch
    lines = []
    j.export(1, lines.append, "t")
    assert problems(lines) == []
    assert journalcheck.parse("e", "\n".join(lines)).entries[0][1] == [1, 3, "pay", 5, 150, "seat 5 paid 1.50 of 2.00"]


@pytest.mark.parametrize("bad", ["2026-12-02T08:30:00", "2026-12-02T08:30", "20261202T083000Z"])
def test_a_time_without_its_z_or_not_in_the_exports_form_is_refused_naming_the_line(bad):
    lines = stamped([("boot", T0, 1), ("result", T0 + 1, 1)])
    f = lines[2].split(" ")
    f[6] = bad
    with pytest.raises(ValueError, match="^e line 3: not a journal export line "):
        journalcheck.parse("e", "\n".join(lines[:2] + [" ".join(f)] + lines[3:]))


def test_a_stamped_line_cut_before_its_time_is_refused_as_a_stamped_line():
    lines = stamped([("boot", T0, 1), ("result", T0 + 1, 1)])
    cut = " ".join(lines[2].split(" ")[:6])  # SEQ EPOCH.ROUND EVENT A B CHAIN: no TIME
    with pytest.raises(ValueError) as e:
        journalcheck.parse("e", "\n".join(lines[:2] + [cut] + lines[3:]))
    assert str(e.value) == ("e line 3: not a journal export line (want SEQ EPOCH.ROUND EVENT A B CHAIN TIME TEXT): %r"
                            % cut[:80])


def test_an_epoch_moved_without_a_ram_clear_is_named_by_the_entrys_seq_and_line():
    lines = export([("boot", 5, T0, 1), ("result", 5, T0 + 1, 3)])  # #4, round 5, epoch 3
    assert problems(lines) == ["e line 5: entry #4 is in epoch 3 after epoch 1: only a RAM clear's 'ram_cleared' "
                               "moves it, by one"]
