"""The flash log's replay (tablectl.storage.replay) against the survivors of `make mutate` over it that
test_log_mutants.py did not kill (issue 23's last replay session): each test names the mutant it kills, seen
failing with it applied by hand."""
import struct

from harness.logsteps import entry, steps
from harness.ramblockdev import RamBlockDev, _poke, flip, log_frames
from tablectl.crc import crc32
from tablectl.storage import F_END, Log


def dev(blocks=6):
    return RamBlockDev(block_size=2048, blocks=blocks, prog=16)


def played():
    """A log of three rounds' steps in one stretch (no checkpoint due): (its device, the log, its valid frames)."""
    d = dev()
    log = Log(d)
    log.every = 100
    log.commit(full={"round": {"i": -1}})
    steps(log, 3)
    return d, log, [f for f in log_frames(d) if f[5] is not None]


def test_the_frames_after_a_damaged_one_in_its_block_are_replayed_a_configuration_saved_whole_among_them():
    # cosmic-ray: run()'s `continue` after a frame whose payload is damaged made `break`: the rest of its block
    # was never read, so the state lost every later frame of the block and the configuration saved whole
    # again after the damage was still counted lost
    d = dev()
    log = Log(d, vital="config")
    log.commit(full={"config": {"game": "a", "x": 1}, "round": {"i": -1}})
    log.commit(patch={"config": {"x": 2}})  # the frame the damage hits
    log.commit(full={"config": {"game": "a", "x": 3}})
    log.commit(patch={"round": {"i": 7}}, entries=[entry(1)])
    frames = log_frames(d)
    at = [i for i, f in enumerate(frames) if f[5] is not None and f[5].get("p", {}).get("config")][0]
    block, off, flags, seq, n, obj = frames[at]
    assert len(frames) == at + 3 and all(f[0] == block for f in frames[at:])  # the last three in one block
    flip(d, block, off + 12 + n // 2)
    got = Log(d.reboot(), vital="config")
    assert "damaged flash after saved frame" in got.problem, got.problem
    assert not got.vital_lost and got.jseq == 1 and got.seq == log.seq, (got.vital_lost, got.jseq, got.seq)
    assert got.state == {"config": {"game": "a", "x": 3}, "round": {"i": 7}}, got.state



def test_a_copied_frame_in_the_middle_of_a_block_is_named_and_the_frames_after_it_are_still_read():
    # cosmic-ray: run()'s `continue` after a valid frame numbered again made `break`: the rest of its block was
    # never read, so the technician's report lost every frame written after the copy in that block
    d, log, frames = played()
    block, off, flags, seq, n, obj = frames[-2]  # an older frame, copied after the newest...
    raw = bytearray(12 + n + 4)
    d.readblocks(block, raw, off)
    _poke(d, log.head * d.block_size + log.pos, raw)
    log.pos += log.align(len(raw))  # ...and the board goes on writing after it (a forger's flash)
    log.commit(patch={"round": {"i": 50}}, entries=[entry(log.jseq + 1)])
    assert log_frames(d)[-1][0] == block == log.head  # the copy and the frame after it in one block
    got = Log(d.reboot())
    want = "a valid frame numbered #%d after saved frame #%d" % (seq, frames[-1][3])
    assert want in got.problem, got.problem
    assert got.state["round"]["i"] == 50 and got.jseq == log.jseq and got.seq == log.seq, \
        (got.state, got.jseq, got.seq)


def copy_renumbered(d, log, frame, seq):
    """A valid frame's bytes programmed again where the head block's next frame goes, numbered `seq`, its
    header CRC and its payload CRC (which continues the header's) made right: forged flash."""
    block, off, flags, old, n, obj = frame
    raw = bytearray(12 + n + 4)
    d.readblocks(block, raw, off)
    struct.pack_into("<I", raw, 4, seq)
    hcrc = crc32(memoryview(raw)[:8])
    struct.pack_into("<I", raw, 8, hcrc)
    struct.pack_into("<I", raw, 12 + n, crc32(memoryview(raw)[12:12 + n], hcrc))
    _poke(d, log.head * d.block_size + log.pos, raw)


def test_an_end_frame_numbered_as_the_frame_before_it_is_no_base_to_resume_from():
    # cosmic-ray: base()'s `seq > top` made `>=`: a checkpoint's end frame copied after the newest frame and
    # numbered as that one was taken for the newest checkpoint, and boot resumed from it with no problem: the
    # state it restates (none here) for the table's, every record gone silently
    d, log, frames = played()
    end = [f for f in frames if f[2] & F_END][-1]
    copy_renumbered(d, log, end, frames[-1][3])
    assert [f[3] for f in log_frames(d)][-2:] == [frames[-1][3]] * 2
    got = Log(d.reboot())
    want = "a valid frame numbered #%d after saved frame #%d" % (frames[-1][3], frames[-1][3])
    assert want in got.problem, got.problem
    assert got.state == log.state and got.jseq == log.jseq, (got.state, got.jseq)


def test_two_blocks_copied_over_others_the_problem_names_one_of_them_with_the_sequence_number_it_holds():
    # cosmic-ray: the twins' message with `_twins[0]` made `[-1]`: with two copies the block named was the
    # last one and the sequence number the first one's, a pair the flash does not hold
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    i = 0
    while log.bseq < 4:
        i += 1
        log.commit(patch={"round": {"i": i, "pad": "p" * 200}}, entries=[entry(log.jseq + 1)])
    assert log.head == 3, log.head  # blocks 4 and 5 not used yet
    size = d.block_size
    for src, dst in ((0, 4), (1, 5)):
        _poke(d, dst * size, bytes(d.data[src * size:(src + 1) * size]))
    got = Log(d.reboot())
    assert got._twins == [4, 5], got._twins
    want = "damaged flash: block 4 holds sequence number %d, which the ring keeps elsewhere" % got._bseq(4)
    assert got._bseq(4) != got._bseq(5) and want in got.problem, got.problem


def test_a_block_with_a_bad_header_holding_a_copy_of_the_newest_frame_is_free_space_not_damage():
    # cosmic-ray: newer()'s `seq > log.seq` made `>=`: a headerless block holding a frame no newer than the
    # log's last (nothing the ring lacks) was named as damage "newer than the log's last", #N newer than #N
    d, log, frames = played()
    newest = frames[-1]
    block, off, flags, seq, n, obj = newest
    ahead = (log.head + 2) % d.blocks
    raw = bytearray(12 + n + 4)
    d.readblocks(block, raw, off)
    _poke(d, ahead * d.block_size + log.first, raw)  # where a block's first frame goes, in one with no header
    got = Log(d.reboot())
    assert got.problem == "" and got.state == log.state and got.seq == seq, (got.problem, got.seq)
    struct.pack_into("<I", raw, 4, seq + 1)  # the same copy numbered one newer: damage, which boot names
    hcrc = crc32(memoryview(raw)[:8])
    struct.pack_into("<I", raw, 8, hcrc)
    struct.pack_into("<I", raw, 12 + n, crc32(memoryview(raw)[12:12 + n], hcrc))
    _poke(d, ahead * d.block_size + log.first, raw)
    got = Log(d.reboot())
    want = "damaged flash: block %d's header is bad and it holds frame #%d, newer than the log's last (#%d)" % (
        ahead, seq + 1, seq)
    assert got.problem == want, got.problem


def test_a_write_torn_in_a_head_block_holding_frames_is_followed_in_that_block_no_block_spent():
    # cosmic-ray: run()'s `used += 1` (frames met in the head block) as `used += 0`: a torn write in a block
    # that holds frames before it was taken for one in an empty block, the scan resumed at the block's first
    # frame, found it programmed, and the next write went to a new block: one block spent a brown-out boot
    # (issue 20, defect 1). (`used += 2` is equivalent: only `not used` is read.)
    for done in (0, 5, 12, 20, 40):  # the cut before the torn frame's header, inside it, in its payload
        d, log, _ = played()
        head, seq = log.head, log.seq
        d.cut_after(1, done=done)
        try:
            log.commit(patch={"round": {"i": 99, "pad": "x" * 200}}, entries=[entry(log.jseq + 1)])
        except Exception:
            pass
        got = Log(d.reboot())
        assert got.head == head and got.seq >= seq, (done, got.head, head)
        erases = got.dev.erases
        got.commit(patch={"round": {"i": 100}}, entries=[entry(got.jseq + 1)])
        assert got.head == head and got.dev.erases == erases, (done, got.head, head, got.dev.erases)
        again = Log(got.dev.reboot())
        assert again.state["round"]["i"] == 100 and again.problem == "", (done, again.state, again.problem)


def test_after_a_torn_header_the_guard_page_may_be_the_blocks_last_and_never_lies_past_the_block():
    # cosmic-ray: after_tear()'s `pos + UNIT <= log.block_size` as `<`: a guard page ending at the block's end
    # left the block's last page unused (the next frame went to a new block: one spent a brown-out boot); as
    # `pos - UNIT`: a stray byte in the block's last page put the next frame past the block's end
    page = 256
    for stray, want in ((5, 7 * page), (6, 2048), (7, 2048)):  # the page of the byte the cut program left
        d = dev()
        log = Log(d)
        log.commit(full={"round": {"i": -1}})
        head, pos = log.head, log.pos
        _poke(d, head * d.block_size + pos, b"\x00" * 6)  # a header cut halfway: its CRC fails
        _poke(d, head * d.block_size + stray * page + 17, b"\x00")
        log = Log(d.reboot())
        assert log.problem == "" and log.torn and log.pos == want, (stray, log.problem, log.torn, log.pos)
        log.commit(patch={"round": {"i": 77}})
        assert (log.head == head) == (want < 2048) and log.pos <= 2048, (stray, log.head, log.pos)
        got = Log(d.reboot())
        assert got.problem == "" and got.state["round"]["i"] == 77, (stray, got.problem, got.state)
