"""journalcheck on stamped exports (a table's journal with times and epochs): both line forms read and chain, a
time or an epoch edited is found, a time that goes back without a time_set and an epoch that moves without a
RAM clear are named; an older firmware's bare entries followed by stamped ones still check (a table upgraded)."""
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
