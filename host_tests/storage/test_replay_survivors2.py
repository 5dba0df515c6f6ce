"""The flash log's replay (tablectl.storage.replay) against the survivors of `make mutate` over it after the
bad-header block's and the twin head's fixes (issue 23, replay's run on today's code): the log's numbers going
on past every frame where no checkpoint is whole (numbers()) and past a bad-header block's frames (newer()).
Each test names the mutants it kills, seen failing with each applied by hand."""
from harness.logsteps import entry
from harness.ramblockdev import RamBlockDev, flip, log_frames
from tablectl.storage import Log


def written(entries_per_frame, frames):
    """A log of `frames` frames after its first record, each a patch with that many journal entries (none: records
    only, each frame as long), no checkpoint due: (its device, the log)."""
    d = RamBlockDev(block_size=2048, blocks=6, prog=16)
    log = Log(d)
    log.every = 100
    log.commit(full={"round": {"i": -1}})
    for k in range(frames):
        log.commit(patch={"round": {"i": k, "pad": "" if entries_per_frame else "." * 150}},
                   entries=[entry(log.jseq + 1 + i) for i in range(entries_per_frame)] or None)
    return d, log


def test_with_no_whole_checkpoint_the_numbers_go_on_past_the_last_entry_of_a_frame_of_several():
    # cosmic-ray on numbers(): j[-1][0] as j[-2][0], j[0][0], j[1][0] or j[-1][1] (a number below the frame's
    # last entry: the next entry given a number written before), the loops never run, and `continue` past the
    # damaged header as `break` (the frames after it in its block never read)
    d, log = written(3, 5)
    assert log.jseq == 15
    block, off = log_frames(d)[0][:2]  # the first checkpoint's end frame, the only one: its header damaged
    assert block == log.head
    flip(d, block, off + 5)
    got = Log(d.reboot())
    assert "no whole checkpoint" in got.problem, got.problem
    assert (got.seq, got.jseq) == (log.seq, 15), (got.seq, got.jseq)


def test_with_no_whole_checkpoint_and_no_entry_ever_written_the_journals_next_number_is_1():
    # cosmic-ray on numbers(): 'js' defaulting to 1, and `j[-1][0] if j else 0` made `else 1`, for frames that
    # carry neither: the journal, empty, would go on at #2
    d, log = written(0, 4)
    assert log.jseq == 0
    flip(d, log_frames(d)[0][0], log_frames(d)[0][1] + 5)
    got = Log(d.reboot())
    assert "no whole checkpoint" in got.problem, got.problem
    assert (got.seq, got.jseq) == (log.seq, 0), (got.seq, got.jseq)


def bad_header_on_the_newest_block(entries_per_frame):
    """A log over three blocks, the newest one's header damaged: (the device, the log as written, the newest
    block, its frames as log_frames() gave them before the damage)."""
    d, log = written(entries_per_frame, 22)
    head = log.head
    mine = [f for f in log_frames(d) if f[0] == head]
    assert head >= 2 and len(mine) >= 3, (head, len(mine))
    flip(d, head, 5)
    return d, log, head, mine


def test_a_bad_header_blocks_frames_carry_the_numbers_on_to_its_last_entry_and_the_block_is_kept():
    # cosmic-ray on newer(): j[-1][0] as j[-2][0], j[0][0], j[1][0] or j[-1][1], `seq = max(...)` or `_keep` not
    # reached for each frame: the next frame or entry numbered among the block's, which a RAM clear or a tilted
    # boot's entry would give again
    d, log, head, mine = bad_header_on_the_newest_block(3)
    first = mine[0][3]
    got = Log(d.reboot())
    want = "block %d's header is bad and it holds frame #%d, newer than the log's last (#%d)" % (head, first, first - 1)
    assert want in got.problem, got.problem
    assert (got.seq, got.jseq, got._keep) == (log.seq, log.jseq, head), (got.seq, got.jseq, got._keep)


def test_a_bad_header_blocks_frames_without_entries_leave_the_journals_next_number_at_1():
    # cosmic-ray on newer(): 'js' defaulting to 1, and `else 0` made `else 1`, for frames carrying neither
    d, log, head, mine = bad_header_on_the_newest_block(0)
    got = Log(d.reboot())
    assert "block %d's header is bad" % head in got.problem, got.problem
    assert (got.seq, got.jseq, got._keep) == (log.seq, 0, head), (got.seq, got.jseq, got._keep)


def test_a_damaged_frame_in_a_bad_header_block_leaves_the_numbers_going_on_past_the_frames_after_it():
    # cosmic-ray on newer(): `continue` past a frame whose header is damaged made `break`: the block's later
    # frames never read, the log's numbers left among them
    d, log, head, mine = bad_header_on_the_newest_block(3)
    flip(d, head, mine[1][1] + 5)  # its second frame's header
    got = Log(d.reboot())
    assert "block %d's header is bad and it holds frame #%d" % (head, mine[0][3]) in got.problem, got.problem
    assert (got.seq, got.jseq, got._keep) == (log.seq, log.jseq, head), (got.seq, got.jseq, got._keep)
