"""tablectl.journal on the flash log: readable entries in order, sequence kept across reboots, bounded by the ring,
bad entries refused, entries of one step written with its record."""
# mp-heap: 92K
# (80K, 5% spare, until its helpers became the harness package and the shared checks, tablectl.valid, a
# module more; a tenth spare again)
from harness.ramblockdev import RamBlockDev, log_frames
from tablectl.journal import Journal, describe
from tablectl.storage import Log
from tablectl.store import Store
from mptest import raises


def fresh(blocks=5):
    d = RamBlockDev(block_size=1024, blocks=blocks)
    return Journal(Log(d)), d


def test_append_and_tail_are_readable_in_order():
    j, d = fresh()
    assert j.append("boot", 0) == 1
    assert j.append("hit", 3, a=5, b=12345600, text="royal_flush") == 2
    assert j.tail(5) == ["#1 round 0 boot a=0 b=0", "#2 round 3 hit a=5 b=12345600 royal_flush"]
    assert j.records(1) == [(2, 3, "hit", 5, 12345600, "royal_flush")]
    assert j.records(0) == [] and j.seq == 2 and j.writes == 2
    assert describe((7, 1, "x", 0, 0, "")) == "#7 round 1 x a=0 b=0"


def test_sequence_continues_after_reboot():
    j, d = fresh()
    for i in range(5):
        j.append("e", i)
    again = Journal(Log(d))
    assert again.seq == 5 and again.append("after", 9) == 6
    assert [r[0] for r in Journal(Log(d)).records(10)] == [1, 2, 3, 4, 5, 6]


def test_bounded_by_the_ring_the_newest_kept_numbers_unbroken():
    j, d = fresh(blocks=5)
    for i in range(1, 401):
        j.append("round", i, a=i, text="x" * (i % 30))
    recs = Journal(Log(d)).records(1000)
    assert recs[-1][0] == 400 and 20 < len(recs) < 400  # what the 5 KB ring still holds
    assert [r[0] for r in recs] == list(range(recs[0][0], 401))
    assert d.erases < 400 // 4  # a block erased once it fills (a few entries on these 1 KB blocks), not once an entry


def test_bad_entries_raise_and_write_nothing():
    j, d = fresh()
    ops = d.ops
    assert "a-z" in raises(ValueError, j.append, "Bad Event", 1)
    assert "1..16" in raises(ValueError, j.append, "", 1)
    assert "round_no" in raises(ValueError, j.append, "e", "1")
    assert "a must" in raises(ValueError, j.append, "e", 1, a=1.5)
    assert "b must" in raises(ValueError, j.append, "e", 1, b=True)
    assert "n must" in raises(ValueError, j.records, -1)
    assert d.ops == ops and j.seq == 0
    j.append("e", 1, text="t\u00e9l\u00e9\nphone " + "x" * 60)  # printable ASCII, at most 48 characters
    assert j.records(1)[0][5] == "t?l??phone " + "x" * 37


def test_event_names_and_int_fields_are_checked_at_every_append_good_ones_taken_bad_ones_refused():
    j, d = fresh()
    bad = ("Bad", "a b", "", "x" * 17, None, 5, ["e"], "e\u00e9", "ab-cd", "-ab", "ab-", "_a_B_")
    names = ["e%d" % k for k in range(80)] + ["_", "a_0", "z" * 16, "0123456789"]
    for k in range(len(names)):
        ops = d.ops
        for e in bad:
            raises(ValueError, j.append, e, 1)
        for b in (True, 1.0, "2", None):  # an int field: a bool, a float, text are refused
            assert "must be an int" in raises(ValueError, j.append, names[k], 1, b=b)
            assert "must be an int" in raises(ValueError, j.append, names[k], b)
        assert d.ops == ops
        j.append(names[k], 1, a=1 << 40, b=-3)
        j.append(names[k - 1], 2)
    assert j.seq == 2 * len(names)
    assert [r[2] for r in j.records(4)] == ["z" * 16, "a_0", "0123456789", "z" * 16]


def test_a_steps_record_and_its_entries_are_one_frame_with_consecutive_numbers():
    d = RamBlockDev(block_size=1024, blocks=5)
    log = Log(d)
    s, j = Store(log), Journal(log)
    j.append("boot", 0)
    frames = log.frames
    with log.atomic():
        s.save("round", {"state": "paying"})
        assert j.append("pay", 1, 3, 500) == 2
        assert j.append("pay", 1, 5, 500) == 3
    assert log.frames == frames + 1
    last = log_frames(d)[-1][5]
    assert last["r"] == {"round": {"state": "paying"}} and [e[0] for e in last["j"]] == [2, 3]
    assert j.entries((("a", 1, 0, 0, ""), ("b", 1, 0, 0, ""))) == [[4, 1, "a", 0, 0, ""], [5, 1, "b", 0, 0, ""]]
    assert j.seq == 3  # entries() numbers them for a checkpoint; nothing is written
