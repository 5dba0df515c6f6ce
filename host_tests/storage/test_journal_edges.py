"""tablectl.journal at its edges, for make mutate (issue 23): the printable range of a text, what entry() takes
as a stamped entry, page()'s bounds, the newest entry's time, and an export's header from seq 0 or 1."""
from harness.ramblockdev import RamBlockDev, flip, log_frames
from tablectl.journal import Journal, describe, entry
from tablectl.storage import F_ENT, Log
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
                [1, 2, "e", 3, 4, "x", 0, True], [1, 2, "e", 3, 4, "x", "0", 1], [1, 2, 5, 3, 4, "x"],
                [1, 2, "e", 3, 4, 5], [1, 2, 5, 3, 4, "x", 0, 1], [1, 2, "e", 3, 4, None, 0, 1],
                ["1", 2, "e", 3, 4, "x"], [1, 2.0, "e", 3, 4, "x"], [1, 2, "e", True, 4, "x"], [1, 2, "e", 3, None, "x"]):
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


def test_an_entry_whose_fields_are_damaged_is_skipped_and_counted_as_damaged():
    j = fresh()
    j.append("a", 1)
    j.log.commit(entries=[[2, 1, "b", 0, 0, "", -1, 1]])  # a time before 2000: no entry of any firmware's
    j.append("c", 2)
    assert [r[2] for r in j.records(10)] == ["a", "c"] and j.damaged == 1


def test_an_export_across_a_damaged_frame_of_records_only_goes_on_without_a_resync():
    j = fresh()
    j.append("a", 1)
    j.log.commit(full={"round": {"i": 1}})
    j.log.commit(patch={"round": {"i": 2}})  # records, no entry
    j.append("b", 2)
    block, off, flags, seq, n, obj = [f for f in log_frames(j.log.dev) if f[5] and "p" in f[5]][-1]
    assert not flags & F_ENT
    flip(j.log.dev, block, off + 12 + n // 2)  # its payload: the header, and so its flags, still read
    lines = []
    assert Journal(Log(j.log.dev)).export(1, lines.append) == 2
    assert not [line for line in lines if line.startswith("# resync")], lines


def test_an_export_from_entries_the_ring_erased_names_the_erased_numbers_not_a_round():
    j = fresh()
    for k in range(1, 400):
        j.append("e", 1000 + k, text="x" * 20)
    kept = j.page(0, 1)[0][0]
    assert kept > 1  # the ring erased the first entries
    for first in (1, kept - 1):
        lines = []
        j.export(first, lines.append)
        assert lines[0].endswith(" rotated=%d-%d" % (first, kept - 1)), (first, lines[0])
    lines = []
    j.export(kept, lines.append)
    assert "rotated" not in lines[0]


def test_an_export_across_an_entry_of_damaged_fields_leaves_it_out_and_resyncs_after_it():
    j = fresh()
    j.append("a", 1)
    j.log.commit(entries=[[2, 1, "b", 0, 0, "", -1, 1]])  # a time before 2000: no entry of any firmware's
    j.append("c", 2)
    lines = []
    assert j.export(1, lines.append) == 2
    body = [line.split()[:3] for line in lines if not line.startswith("# tablectl") and not line.startswith("# end")]
    assert body[0] == ["1", "1", "a"] and body[1][:3] == ["#", "resync", "first=3"] and body[2] == ["3", "2", "c"]
    assert len(body) == 3, lines


def test_the_last_twenty_entries_by_default():
    j = fresh()
    for k in range(25):
        j.append("e", k)
    assert [r[0] for r in j.records()] == list(range(6, 26))
    assert len(j.tail()) == 20 and j.tail()[0].startswith("#6 ")
    assert [r[0] for r in j.page(2)] == list(range(2, 22))


def test_an_export_across_a_frame_whose_header_is_damaged_resyncs_after_it():
    j = fresh()
    for k in range(4):
        j.append("e%d" % k, k)
    block, off = [f for f in log_frames(j.log.dev) if f[5] and f[5].get("j")][2][:2]
    flip(j.log.dev, block, off + 4)  # entry #3's frame: its header CRC fails, its flags are not known
    lines = []
    assert Journal(Log(j.log.dev)).export(1, lines.append) == 3
    assert [line.split()[0] for line in lines[1:-1]] == ["1", "2", "#", "4"] and "resync first=4" in lines[3], lines


def test_a_stamped_entry_without_a_time_exports_a_dash_and_tail_shows_the_stamps():
    j = fresh(epoch=2)
    j.append("a", 3)  # no clock: no time
    j.append("b", 4, at=seconds(2026, 12, 2, 8, 30, 0))
    lines = []
    j.export(1, lines.append)
    assert lines[1].split()[1:3] == ["2.3", "a"] and lines[1].split()[6] == "-", lines[1]
    assert lines[2].split()[6] == "2026-12-02T08:30:00Z", lines[2]
    assert j.tail() == ["#1 round 2.3 a a=0 b=0", "#2 2026-12-02T08:30:00Z round 2.4 b a=0 b=0"]
