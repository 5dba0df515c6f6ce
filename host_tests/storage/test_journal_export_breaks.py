"""The journal export where the table's journal is not whole: a damaged frame between two exported entries is
named by a '# resync' line (the chain starts again from the next frame's value), and entries the ring erased
before an export reached them are named by 'rotated=' in its header (CPython and the unix port)."""
# mp-heap: 82K
import gc

from harness.ramblockdev import RamBlockDev, flip, log_frames
from tablectl import chain
from tablectl.journal import Journal
from tablectl.storage import Log


def setup_function(function):
    gc.collect()  # the last test's 10 KB flash image is garbage: the next one wants a whole piece


def steps(d, n):
    j = Journal(Log(d))
    for i in range(1, n + 1):
        j.append("step", i, a=i, text="step %d" % i)


def exported(d, from_seq=1):
    lines = []
    count = Journal(Log(d)).export(from_seq, lines.append, "t1")
    return lines, count


def test_an_export_across_a_damaged_frame_names_the_break_with_the_chain_it_starts_again_from():
    d = RamBlockDev(block_size=2048, blocks=5)
    steps(d, 8)
    frames = [f for f in log_frames(d) if f[5] and f[5].get("j")]
    block, off, _, _, n, obj = frames[2]  # the frame of entry #3
    assert obj["j"][0][0] == 3
    after = frames[3][5]["c"]             # where the chain stood before #4: the next frame says so
    flip(d, block, off + 12 + n // 2)     # #3's payload damaged on the table: its CRC fails
    lines, count = exported(d)
    assert count == 7
    seqs = [line.split()[0] for line in lines if line[:1].isdigit()]
    assert seqs == ["1", "2", "4", "5", "6", "7", "8"]
    at = lines.index("# resync first=4 prev=" + after)  # the break named, right before #4
    assert lines[at + 1].startswith("4 4 step 4 0 ")
    assert sum(1 for line in lines if line.startswith("# resync")) == 1  # and only there
    assert lines[-1].endswith(" entries=7")


def test_an_export_of_a_whole_journal_has_no_resync_line():
    d = RamBlockDev(block_size=2048, blocks=5)
    steps(d, 8)
    lines, count = exported(d)
    assert count == 8 and not [line for line in lines if line.startswith("# resync")]


def test_an_export_from_seq_1_after_the_ring_erased_early_entries_says_which_in_its_header():
    d = RamBlockDev(block_size=1024, blocks=5)
    steps(d, 120)
    lines, count = exported(d)
    first = int(lines[1].split()[0])
    assert first > 1 and count == 120 - first + 1  # the ring has erased #1..#first-1
    head = lines[0]
    assert head.startswith("# tablectl journal export table=t1 first=%d prev=" % first), head
    assert head.endswith(" rotated=1-%d" % (first - 1)), head
    lines, count = exported(d, first)  # asked from the oldest entry there is: nothing was erased before it
    assert "rotated" not in lines[0] and count == 120 - first + 1
    lines, count = exported(d, first - 3)
    assert lines[0].endswith(" rotated=%d-%d" % (first - 3, first - 1)), lines[0]


def test_the_resync_line_carries_the_chain_of_the_frame_after_the_break():
    """The chain value a '# resync' gives is where the chain stood before the next entry kept: each entry
    after it links from that value (what tools/boardops/journalcheck recomputes)."""
    d = RamBlockDev(block_size=2048, blocks=5)
    steps(d, 6)
    frames = [f for f in log_frames(d) if f[5] and f[5].get("j")]
    block, off, _, _, n, _ = frames[1]
    flip(d, block, off + 12 + n // 2)  # #2 damaged
    lines, _ = exported(d)
    value = None
    for line in lines:
        if line.startswith("# resync"):
            value = chain.unhexed(line.split("prev=")[1])
        elif line[:1].isdigit() and value is not None:
            seq, rnd, event, a, b, got, text = line.split(" ", 6)
            value = chain.link(value, [int(seq), int(rnd), event, int(a), int(b), text])
            assert chain.hexed(value) == got, line
    assert value is not None and lines[-1].split("chain=")[1].split()[0] == chain.hexed(value)
