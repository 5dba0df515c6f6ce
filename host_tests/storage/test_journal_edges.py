"""tablectl.journal at its edges, for make mutate (issue 23): the printable range of a text, what entry() takes
as a stamped entry, page()'s bounds, the newest entry's time, and an export's header from seq 0 or 1."""
from harness.ramblockdev import RamBlockDev
from tablectl.journal import Journal, describe, entry
from tablectl.storage import Log
from tablectl.utc import seconds


def fresh(epoch=0):
    j = Journal(Log(RamBlockDev(block_size=1024, blocks=6)))
    j.epoch = epoch
    return j


def test_every_character_below_space_and_above_tilde_becomes_a_question_mark_the_rest_stays():
    j = fresh()
    for code in range(0, 0x100, 48):  # 48 characters an entry, the most a text keeps
        text = "".join(chr(c) for c in range(code, code + 48))
        j.append("t", 1, text=text)
        want = "".join(ch if 0x20 <= ord(ch) <= 0x7E else "?" for ch in text)
        assert j.records(1)[0][5] == want, code


def test_a_stamped_entry_takes_time_0_and_epoch_1_and_refuses_what_is_below():
    assert entry([1, 2, "e", 3, 4, "x", 0, 1]) == (1, 2, "e", 3, 4, "x", 0, 1)
    assert entry([1, 2, "e", 3, 4, "x", None, 1]) == (1, 2, "e", 3, 4, "x", None, 1)
    assert entry([1, 2, "e", 3, 4, "x"]) == (1, 2, "e", 3, 4, "x", None, 0)
    for bad in ([1, 2, "e", 3, 4, "x", -1, 1], [1, 2, "e", 3, 4, "x", 0, 0], [1, 2, "e", 3, 4, "x", 0],
                [1, 2, "e", 3, 4], [1, 2, "e", 3, 4, "x", 0, 1, 0], [1, 2, "e", 3, 4, "x", True, 1],
                [1, 2, "e", 3, 4, "x", 0, True], [1, 2, "e", 3, 4, "x", "0", 1]):
        assert entry(bad) is None, bad


def test_page_returns_exactly_n_entries_from_the_seq_asked_for():
    j = fresh(epoch=1)
    for k in range(12):
        j.append("e%d" % k, k, at=100 + k)
    for first in range(0, 14):
        for n in range(1, 5):
            got = [r[0] for r in j.page(first, n)]
            assert got == list(range(max(first, 1), 13))[:n], (first, n, got)


def test_the_newest_entrys_time_is_its_own_or_none():
    j = fresh()
    assert j.last_time() is None
    j.append("bare", 1)
    assert j.last_time() is None
    j.epoch = 1
    j.append("a", 1, at=500)
    j.append("b", 2, at=700)
    assert j.last_time() == 700
    j.append("c", 3)  # no clock: the entry carries no time
    assert j.last_time() is None


def test_an_export_from_seq_0_or_1_names_no_rotation_and_one_past_the_first_entry_does_not_apply():
    j = fresh()
    for k in range(3):
        j.append("e", k)
    for first in (0, 1):
        lines = []
        assert j.export(first, lines.append, table="t1") == 3
        assert lines[0].startswith("# tablectl journal export table=t1 first=1 prev=") and "rotated" not in lines[0]
    lines = []
    assert j.export(2, lines.append, table="t1") == 2
    assert "first=2 " in lines[0] and "rotated" not in lines[0], lines[0]


def test_describe_gives_the_raw_fields_and_the_text_only_where_there_is_one():
    assert describe((7, 3, "hit", 2, 500, "")) == "#7 round 3 hit a=2 b=500"
    assert describe((7, 3, "hit", 2, 500, "royal")) == "#7 round 3 hit a=2 b=500 royal"
    assert describe((7, 3, "hit", 2, 500, "", None, 2)) == "#7 round 2.3 hit a=2 b=500"
    t = seconds(2026, 12, 2, 8, 30, 0)
    assert describe((7, 3, "hit", 2, 500, "x", t, 2)) == "#7 2026-12-02T08:30:00Z round 2.3 hit a=2 b=500 x"
