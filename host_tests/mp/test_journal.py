"""tablectl.journal: append-only, readable, bounded, torn lines skipped, sequence kept across reboots."""
import os

from ramblockdev import remove_dir, scratch_dir
from tablectl.journal import Journal, parse
from mptest import raises


def size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return 0


def test_append_and_tail_are_readable_in_order():
    root = scratch_dir("jr")
    try:
        j = Journal(root + "/journal.log", 4096)
        assert j.tail(5) == [] and j.seq == 0
        assert j.append("open", 1) == 1
        assert j.append("hit", 7, 3, 1234500, "royal_flush") == 2
        assert j.append("void", 8, text="dice leaning") == 3
        assert j.records(2) == [(2, 7, "hit", 3, 1234500, "royal_flush"), (3, 8, "void", 0, 0, "dice leaning")]
        assert j.tail(10) == ["#1 round 1 open a=0 b=0", "#2 round 7 hit a=3 b=1234500 royal_flush",
                              "#3 round 8 void a=0 b=0 dice leaning"]
        assert j.writes == 3
    finally:
        remove_dir(root)


def test_sequence_continues_after_reboot():
    root = scratch_dir("jr")
    try:
        path = root + "/j.log"
        j = Journal(path, 4096)
        for r in range(5):
            j.append("round", r)
        j2 = Journal(path, 4096)
        assert j2.seq == 5
        assert j2.append("round", 5) == 6
        assert [r[0] for r in j2.records(100)] == [1, 2, 3, 4, 5, 6]
    finally:
        remove_dir(root)


def test_bounded_size_keeps_the_newest_half():
    root = scratch_dir("jr")
    try:
        path = root + "/j.log"
        j = Journal(path, 1024)
        for i in range(200):
            j.append("contrib", i, i, i * 25, "seat %d" % (i % 7))
            assert size(path) + size(path + ".1") <= 1024
        recs = j.records(1000)
        seqs = [r[0] for r in recs]
        # contiguous, ends at the newest, and at least half the budget's worth of entries kept
        assert seqs == list(range(seqs[0], 201)), seqs
        line_len = len("xxxxxxxx 200 199 contrib 199 4975 seat 3\n")
        assert len(seqs) >= 512 // line_len
        assert recs[-1] == (200, 199, "contrib", 199, 4975, "seat 3")
        again = Journal(path, 1024)  # after a reboot: the half holding the newest entry goes on
        assert again.seq == 200 and again.append("contrib", 200) == 201
        seqs = [r[0] for r in again.records(1000)]
        assert seqs == list(range(seqs[0], 202)) and size(path) + size(path + ".1") <= 1024
    finally:
        remove_dir(root)


def test_torn_or_corrupt_lines_are_skipped_and_appends_continue():
    root = scratch_dir("jr")
    try:
        path = root + "/j.log"
        j = Journal(path, 4096)
        j.append("a", 1)
        j.append("b", 2)
        with open(path, "a") as f:
            f.write("1a2b3c4d 3 3 half")  # a line torn by a power cut, no newline
        with open(path, "r") as f:
            text = f.read()
        with open(path, "w") as f:  # and a flipped bit in the first entry
            f.write(text.replace(" a ", " q ", 1))
        j2 = Journal(path, 4096)
        assert j2.seq == 2
        j2.append("c", 4, text="after the cut")
        assert [r[2] for r in j2.records(10)] == ["b", "c"]
        assert parse("1a2b3c4d 3 3 half") is None and parse("") is None and parse("zzzzzzzz 1 1 x 0 0") is None
    finally:
        remove_dir(root)


def test_bad_entries_raise_and_write_nothing():
    root = scratch_dir("jr")
    try:
        path = root + "/j.log"
        j = Journal(path, 4096)
        j.append("ok", 1)
        before = size(path)
        assert "a-z" in raises(ValueError, j.append, "Bad Event", 1)
        assert "1..16" in raises(ValueError, j.append, "x" * 17, 1)
        assert "round_no" in raises(ValueError, j.append, "hit", "7")
        assert "b must" in raises(ValueError, j.append, "hit", 7, 1, 2.5)
        assert "a must" in raises(ValueError, j.append, "hit", 7, True)
        assert ">= 0" in raises(ValueError, j.records, -1)
        assert ">= 512" in raises(ValueError, Journal, path, 100)
        assert size(path) == before and j.seq == 1 and j.writes == 1
        # text is cut to 48 printable characters on one line
        j.append("note", 2, text="line\nbreak" + "x" * 100)
        rec = j.records(1)[0]
        assert rec[5] == ("line?break" + "x" * 100)[:48]
    finally:
        remove_dir(root)
