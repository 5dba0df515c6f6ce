"""The flash log's replay and ring against the five mutations of them that no test caught (issue 23, rows "log
replay" and "log ring"): each test here fails with its mutation applied."""
# mp-heap: 132K
import struct

from harness.logsteps import entry, steps
from harness.ramblockdev import PowerCut, RamBlockDev, _poke, flip, log_frames
from tablectl.crc import crc32
from tablectl.storage import F_ACK, F_CKPT, F_END, F_ENT, F_VITAL, F_REC, Log, LogError
from tablectl.store import copy as _copy
from mptest import raises


FLASH = bytearray(2048 * 6)  # one flash for every test, erased by dev(): the heap need not find 12 KB in one piece again


def dev(blocks=6):
    data = memoryview(FLASH)[:2048 * blocks]
    for i in range(len(data)):
        data[i] = 0xFF
    return RamBlockDev(block_size=2048, blocks=blocks, data=data, prog=16)


def renumber(d, block, off, seq):
    """A frame given another seq, its header CRC and its payload CRC (which continues the header's) made right."""
    hdr = bytearray(12)
    d.readblocks(block, hdr, off)
    struct.pack_into("<I", hdr, 4, seq)
    hcrc = crc32(memoryview(hdr)[:8])
    struct.pack_into("<I", hdr, 8, hcrc)
    n = struct.unpack_from("<H", hdr, 0)[0]
    payload = bytearray(n)
    d.readblocks(block, payload, off + 12)
    d.data[block * d.block_size + off:block * d.block_size + off + 12] = hdr
    _poke(d, block * d.block_size + off + 12 + n, struct.pack("<I", crc32(payload, hcrc)))


def test_a_record_frame_renumbered_to_the_next_seq_with_its_crcs_made_right_is_a_problem():
    # mutation: the replay's sequence check `seq != last + 1` loosened to `seq > last + 2`
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 4)
    for i in range(6):  # record frames alone: no journal chain to give a skipped frame away
        log.commit(patch={"round": {"k": i}})
    frames = [f for f in log_frames(d) if f[2] is not None and f[2] & F_REC and "k" in f[5].get("p", {}).get("round", {})]
    block, off, flags, seq, n, obj = frames[-3]  # with two record frames after it
    renumber(d, block, off, seq + 1)  # the frame itself says nothing wrong: only its number jumps
    got = Log(d.reboot())
    assert got.problem, got.state


def test_an_acknowledgement_explains_only_the_torn_write_it_names_not_older_damage():
    # mutation: any acknowledgement frame explains any damage before it
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 4)
    log.commit(patch={"round": {"i": 99}})  # the record frame the damage will hit: right before the torn one
    d = d.cut_during(1, lambda: log.commit(patch={"round": {"i": 100}}, entries=[entry(log.jseq + 1, "torn")]))
    log = Log(d)
    assert log.torn and log.problem == ""
    log.commit(entries=[entry(log.jseq + 1, "torn_write")])  # acknowledges the torn write
    assert Log(d.reboot()).problem == "" and Log(d).state["round"]["i"] == 99
    older = [f for f in log_frames(d) if f[5] and f[5].get("p", {}).get("round", {}).get("i") == 99][-1]
    flip(d, older[0], older[1] + 12 + older[4] // 2)
    got = Log(d.reboot())
    assert got.problem, got.state  # the frame that set i=99 is gone: never resumed silently from before it


def test_flash_log_full_comes_before_the_checkpoints_start_block_is_erased_and_a_reboot_resumes():
    # mutation: the checkpoint's start block may be erased (`old >= self.ckpt` -> `old > self.ckpt`)
    d = dev(5)
    log = Log(d)
    log.commit(full={"round": {"i": -1, "pad": "x" * 100}})
    log.every = 100  # checkpoints that keep failing: none comes
    last = None
    i = 0
    while True:
        last = _copy(log.state)
        try:
            steps(log, 1, i)
        except LogError as e:
            assert "flash log full" in str(e)
            break
        i += 1
        assert i < 5000
    got = Log(d.reboot())
    assert got.problem == "" and got.state == last, (got.problem, got.state, last)


def config_damaged_then(later):
    """Boot after a configuration change whose frame is damaged, then `later` committed (commit's arguments)."""
    d = dev()
    log = Log(d, vital="config")
    log.commit(full={"config": {"game": "a", "x": 1}, "round": {"i": -1}})
    log.commit(patch={"config": {"x": 2}})  # the frame the damage hits
    steps(log, 3)
    log.commit(**later)
    steps(log, 2, 3)
    cfg = [f for f in log_frames(d) if f[2] is not None and f[2] & F_VITAL and f[5].get("p", {}).get("config")]
    block, off, flags, seq, n, obj = cfg[0]
    assert obj["p"]["config"] == {"x": 2}
    flip(d, block, off + 12 + n // 2)
    return Log(d.reboot(), vital="config")


def test_a_damaged_configuration_change_stays_config_lost_after_a_later_patch_of_it():
    # mutation: a configuration *patch* clears vital_lost (only a whole configuration may)
    got = config_damaged_then({"patch": {"config": {"x": 3}}})  # a later patch: not the whole configuration
    assert got.problem and got.vital_lost


def test_a_stray_programmed_byte_after_the_last_frame_never_costs_the_next_commit():
    # mutation: the rest of the head block is not checked as erased
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 3)
    head, pos = log.head, log.pos
    _poke(d, head * d.block_size + pos + 20, b"\x00")  # inside where the next frame's payload would go
    log = Log(d.reboot())
    assert log.problem == ""
    log.commit(patch={"round": {"i": 77, "note": "n" * 40}}, entries=[entry(log.jseq + 1)])
    got = Log(d.reboot())
    assert got.problem == "" and got.state["round"]["i"] == 77 and got.torn == 0


def test_damage_to_a_frame_that_held_no_configuration_never_marks_the_configuration_lost():
    # cosmic-ray: a whole configuration saved after the damage set vital_lost instead of clearing it; and
    # any damaged frame counted as one that may have changed the configuration (`f & F_VITAL` -> `|`), which
    # only the run with no whole copy after the damage tells
    for whole_after in (True, False):
        d = dev()
        log = Log(d, vital="config")
        log.commit(full={"config": {"game": "a", "x": 1}, "round": {"i": -1}})
        steps(log, 2)
        log.commit(patch={"round": {"hit": "the frame the damage hits"}})
        steps(log, 2, 2)
        if whole_after:
            log.commit(full={"config": {"game": "a", "x": 2}})  # the configuration saved whole after the damage
        steps(log, 2, 4)
        rnd = [f for f in log_frames(d) if f[5] and f[5].get("p", {}).get("round", {}).get("hit")]
        block, off, flags, seq, n, obj = rnd[0]
        assert flags & F_REC and not flags & F_VITAL
        flip(d, block, off + 12 + n // 2)
        got = Log(d.reboot(), vital="config")
        assert "damaged flash after saved frame" in got.problem and not got.vital_lost, (whole_after, got.problem)


# frames with both CRCs right whose records make no sense on what came before (a firmware that did not write
# them, or flash damage the CRCs missed): each error _apply meets, before and after other damage
NONSENSE = (
    ({"p": {"never_written": {"a": 1}}}, "LogError"),
    ({"p": {"round": 5}}, "TypeError"),
    ({"p": {"round": ["abc"]}}, "ValueError"),
    ({"r": {"round": 5}, "p": {"round": {"a": 1}}}, "AttributeError"),
)


def test_a_frame_that_makes_no_sense_on_the_state_is_a_problem_at_boot_never_a_crash():
    for payload, kind in NONSENSE:
        for damaged_before in (False, True):
            d = dev()
            log = Log(d)
            log.commit(full={"round": {"i": -1}})
            steps(log, 2)
            if damaged_before:
                log.commit(patch={"round": {"hit": 1}})
                block, off, flags, seq, n, obj = log_frames(d)[-1]
                flip(d, block, off + 12 + n // 2)
            log._frame(F_REC, dict(payload))  # written as the firmware writes a frame, CRCs and all
            steps(log, 1, 2)
            try:
                got = Log(d.reboot())
            except Exception as e:
                raise AssertionError("%s (%s, damaged before: %s): boot raised %r" % (payload, kind, damaged_before, e))
            assert "damaged flash after saved frame" in got.problem, (payload, damaged_before, got.problem)


def test_idle_never_erases_the_block_ahead_while_it_holds_live_state():
    # cosmic-ray: idle()'s live-state check negated (it erased the checkpoint's start block)
    d = dev(5)
    log = Log(d)
    log.commit(full={"round": {"i": -1, "pad": "x" * 100}})
    log.every = 100  # checkpoints that keep failing: the ring fills with live state
    last = None
    for i in range(5000):
        last = _copy(log.state)
        try:
            steps(log, 1, i)
        except LogError:
            break
        erases = d.erases
        ahead = (log.head + 1) % 5
        live = log._bseq(ahead) >= log.ckpt > 0
        log.idle()
        assert not (live and d.erases != erases), (i, ahead)
    got = Log(d.reboot())
    assert got.problem == "" and got.state == last, (got.problem, got.state, last)


def checkpointed_twice(d):
    """A log whose first block holds two checkpoints: the fresh log's (no records) and one of two records, with
    frames between them. (The log, the newer checkpoint's frames: its parts, then its end frame.)"""
    log = Log(d)
    log.commit(full={"round": {"i": -1}, "meters": {"in": 5}})
    steps(log, 2)
    log.checkpoint()
    frames = [f for f in log_frames(d) if f[2] is not None and f[2] & (F_CKPT | F_END)]
    assert frames[0][2] & F_END and frames[0][5]["n"] == 0 and frames[0][0] == frames[-1][0] == log.head
    return log, frames[-3:]


def test_a_checkpoint_whose_end_frame_is_torn_resumes_from_the_one_before_it_in_the_same_block():
    # cosmic-ray: base() gave up on the block at an end frame that does not decode (`continue` -> `break`),
    # though an older whole checkpoint stands before it in that block: "no whole checkpoint" at boot
    d = dev()
    log, (part, part2, end) = checkpointed_twice(d)
    want = _copy(log.state)
    block, off, flags, seq, n, obj = end
    flip(d, block, off + 12 + n // 2)  # the end frame's payload, as a power cut during its program leaves it
    got = Log(d.reboot())
    assert got.problem == "" and got.torn == seq - 1 and got.state == want, (got.problem, got.torn, got.state)


def test_a_checkpoint_with_a_damaged_part_is_no_base_the_report_shows_the_state_from_the_one_before():
    # cosmic-ray: parts() took a damaged part for a valid one (`not flags & F_CKPT or ... is None` -> `and`):
    # the replay started at that checkpoint and the technician's report held none of the records
    d = dev()
    log, (part, part2, end) = checkpointed_twice(d)
    want = _copy(log.state)
    steps(log, 1, 2)
    block, off, flags, seq, n, obj = part2
    assert flags & F_CKPT and "round" in obj["r"]
    flip(d, block, off + 12 + n // 2)
    got = Log(d.reboot())
    assert "damaged flash after saved frame #%d" % part[3] in got.problem, got.problem
    assert got.state["meters"] == want["meters"] and got.state["round"]["i"] == 2, got.state


def test_a_frame_of_entries_without_its_chain_value_is_a_problem_naming_the_entry_before_it():
    # cosmic-ray: the message's `%` made `//` (a TypeError at boot): no test met a frame without "c"
    for chain_value in (None, "not hex", "ab" * 31):
        d = dev()
        log = Log(d)
        log.commit(full={"round": {"i": -1}})
        steps(log, 3)
        obj = {"j": [entry(log.jseq + 1)]}
        if chain_value is not None:
            obj["c"] = chain_value
        log._frame(F_ENT, obj)  # written as the firmware writes a frame, CRCs and all
        steps(log, 1, 3)
        got = Log(d.reboot())
        assert got.problem == "journal chain missing after entry #3: a frame this firmware did not write", (
            chain_value, got.problem)


def test_a_checkpoint_spanning_two_blocks_is_the_only_base_once_the_ring_wrapped_and_its_start_block_stays():
    # cosmic-ray: the replay set ckpt to the end frame's block for a checkpoint with parts (`parts is None`
    # negated): after a reboot its start block counted as free, and "flash log full" came after erasing it;
    # and parts() gave up at the newest block not holding the first part (`low <= first` negated): with no
    # older checkpoint left in the ring, "no whole checkpoint" at boot
    d = dev(6)
    log = Log(d)
    log.every = 100  # no checkpoint but the ones asked for
    log.commit(full={"a": {"pad": "a" * 500}, "b": {"pad": "b" * 500}, "round": {"i": -1}})
    i = 0
    while not (log.head == 2 and 600 < log.block_size - log.pos < 1000):  # room for a part, not for all
        steps(log, 1, i)
        i += 1
        assert log.head <= 2, (log.head, log.pos)
    log.checkpoint()  # the first end frame of its start block, block 2
    assert log.ckpt == log.bseq - 1 == 3, (log.ckpt, log.bseq)  # its parts begin a block before its end
    last = None
    for i in range(i, 5000):  # the ring fills up to that block: blocks 0 and 1 erased and written again
        last = _copy(log.state)
        try:
            steps(log, 1, i)
        except LogError as e:
            assert "flash log full" in str(e), e
            break
    got = Log(d.reboot())
    assert got.problem == "" and got.ckpt == 3 and got.state == last, (got.problem, got.ckpt, got.state, last)


def test_after_a_torn_header_the_next_frame_goes_past_a_page_whose_only_programmed_byte_is_at_an_even_offset():
    # cosmic-ray: after_tear() stepped back two bytes at a time (`k -= 1` -> `k -= 2`) and missed a page whose
    # one programmed byte is at an even offset: the next frame was programmed over it, and lost at the next boot
    for at in (2, 0, 255, 128):  # the byte's offset in its page (even ones are what the mutant misses)
        d = dev()
        log = Log(d)
        log.commit(full={"round": {"i": -1}})
        head, pos = log.head, log.pos
        assert pos < 256, pos  # the torn header in the block's first page, the stray byte two pages on
        _poke(d, head * d.block_size + pos, b"\x00" * 6)  # a header cut halfway: its CRC fails
        _poke(d, head * d.block_size + 2 * 256 + at, b"\x00")  # what else the cut program left
        log = Log(d.reboot())
        assert log.problem == "" and log.torn and log.pos == 4 * 256, (at, log.problem, log.torn, log.pos)
        log.commit(patch={"round": {"i": 77}})
        got = Log(d.reboot())
        assert got.problem == "" and got.torn == 0 and got.state["round"]["i"] == 77, (at, got.problem, got.state)


def test_damage_to_a_configuration_change_then_the_configuration_saved_whole_is_no_configuration_lost():
    # cosmic-ray: the replay took the records saved whole after the damage from the frames not flagged vital
    # (`not` added to `flags & F_VITAL`): the configuration saved whole again was still counted lost
    got = config_damaged_then({"full": {"config": {"game": "a", "x": 3}}})  # saved whole after it: it stands alone
    assert "damaged flash after saved frame" in got.problem and not got.vital_lost, (got.problem, got.vital_lost)
    assert got.state["config"] == {"game": "a", "x": 3}, got.state


def test_a_torn_writes_acknowledgement_rides_in_the_next_frame_one_program_and_no_frame_of_its_own():
    # the open survivor of log.py's last run: `if self._checkpointing:` negated wrote the acknowledgement as
    # a frame of its own before an ordinary frame, one program and one seq more, and a cut between the two
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 2)
    d = d.cut_during(1, lambda: log.commit(patch={"round": {"i": 100}}))
    log = Log(d)
    torn, seq, programs = log.torn, log.seq, d.programs
    assert torn and log.problem == ""
    log.commit(patch={"round": {"i": 5}})
    assert d.programs == programs + 1 and log.seq == seq + 1, (d.programs - programs, log.seq - seq)
    block, off, flags, fseq, n, obj = log_frames(d)[-1]
    assert flags & F_ACK and obj["v"] == torn and obj["p"] == {"round": {"i": 5}}, (flags, obj)
    assert Log(d.reboot()).state["round"]["i"] == 5


def test_idle_erases_ahead_from_the_first_block_on_and_nothing_on_a_fresh_log():
    # the open survivor of log.py's last run: idle()'s `self.head < 0` moved by one (`< 1`: no erase ahead
    # while the ring is in block 0, a key waits for it; `< -1`: a fresh log's block 0 erased for nothing)
    d = dev()
    log = Log(d)
    assert not log.idle() and d.erases == 0
    log.commit(full={"round": {"i": -1}})
    assert log.head == 0
    erases = d.erases
    assert log.idle() and d.erases == erases + 1 and log._ready == 1


class _Reads(RamBlockDev):
    """RAM flash noting the blocks whose frames are read (a read past the block header)."""

    def __init__(self, other):
        RamBlockDev.__init__(self, block_size=other.block_size, blocks=other.blocks, data=other.data, prog=other.prog)
        self.framed = set()

    def readblocks(self, block, buf, offset=0):
        if offset >= 16:
            self.framed.add(block)
        RamBlockDev.readblocks(self, block, buf, offset)


def test_boot_reads_no_frame_older_than_the_newest_checkpoints_start_block():
    # cosmic-ray: parts() never stopped at the block holding the checkpoint's first part (`low` never set):
    # a boot read every older block of the ring too (a Pico's boot time: a 4 KB block read per block)
    d = dev(6)
    log = Log(d)
    log.commit(full={"a": {"pad": "a" * 300}, "b": {"pad": "b" * 300}, "round": {"i": -1}})
    i = 0
    while log.bseq < 12 or log.ckpt == log.bseq:  # wrapped, and frames after the newest checkpoint's block
        steps(log, 1, i)
        i += 1
    live = set(log._block_of(b) for b in range(log.ckpt, log.bseq + 1))
    assert len(live) < 6
    reads = _Reads(d)
    got = Log(reads)
    assert got.problem == "" and got.state == log.state
    assert reads.framed <= live, (sorted(reads.framed), sorted(live))


def test_with_idle_run_between_keys_no_key_erases_a_block_or_writes_a_checkpoint():
    # idle()'s promise (a key's frame never waits for an erase or a checkpoint), every block of a wrapping
    # ring: a checkpoint due one block late (`>= self.every` -> `>`) or not at all is written in a key
    d = dev(6)
    log = Log(d)
    log.commit(full={"round": {"i": -1, "pad": "p" * 60}})
    moves = 0
    for i in range(600):
        while log.idle():
            pass
        erases, ckpt, head = d.erases, log.ckpt, log.head
        log.commit(patch={"round": {"i": i}})
        assert d.erases == erases and log.ckpt == ckpt, (i, head, log.head, erases, d.erases, ckpt, log.ckpt)
        moves += log.head != head
    assert moves > 10 and log.bseq > 12  # the ring wrapped twice
    assert Log(d.reboot()).state["round"]["i"] == 599


def test_a_checkpoint_that_is_no_ram_clear_keeps_a_damaged_logs_copied_block_and_its_problem():
    # by hand: `if clear and self.problem:` -> `or`: any checkpoint of a damaged log erased the copied block
    # (the evidence, which only a RAM clear may take) and lifted the guard on the live blocks
    d = dev(6)
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 150)
    head = log.head
    src, dst = (head - 1) % 6, (head - 3) % 6
    d.data[dst * 2048:(dst + 1) * 2048] = d.data[src * 2048:(src + 1) * 2048]
    copy = bytes(d.data[dst * 2048:(dst + 1) * 2048])
    log = Log(d.reboot())
    assert "sequence number" in log.problem, log.problem
    log.checkpoint()  # the state restated, not cleared
    assert bytes(log.dev.data[dst * 2048:(dst + 1) * 2048]) == copy
    assert "sequence number" in Log(log.dev.reboot()).problem


def test_a_sound_log_never_says_its_configuration_was_lost_whatever_it_watched_when_written():
    # cosmic-ray: a sound log's boot left `_vdamage` True (`= False` -> `= True`): vital_lost on a log with no
    # damage, where the configuration was never saved or was saved while the log watched no record
    for written_watching in ("config", None):
        d = dev()
        log = Log(d, vital=written_watching)
        log.commit(full={"round": {"i": -1}})
        steps(log, 3)
        if written_watching is None:
            log.commit(full={"config": {"game": "a"}})
        got = Log(d.reboot(), vital="config")
        assert got.problem == "" and not got.vital_lost, (written_watching, got.problem)



def test_a_torn_first_frame_of_a_new_block_leaves_the_rest_of_that_block_in_use():
    # cosmic-ray: the count of the head block's frames started at -1 (`used = 0`): a block whose only frame is
    # torn was taken for one with none, and the rest of it was left unused (a block spent for each such cut)
    d = dev()
    log = Log(d)
    log.every = 100  # no checkpoint in the way: the new block's first frame is the commit's
    log.commit(full={"round": {"i": -1}})
    i = 0
    while log.pos + 64 <= log.block_size:
        log.commit(patch={"round": {"i": i, "pad": "p" * 20}})
        i += 1
    d.cut_after(3)  # the next block's erase, its header, then the commit's frame, cut halfway
    try:
        log.commit(patch={"round": {"i": 1000, "pad": "q" * 20}})
    except PowerCut:
        pass
    log = Log(d.reboot())
    head = log.head
    assert log.torn and log.problem == "" and log.pos < log.block_size // 2, (log.torn, log.problem, log.pos)
    log.commit(patch={"round": {"i": 1001}})
    assert log.head == head
    assert Log(d.reboot()).state["round"]["i"] == 1001


def copy_frame_to_head(d, log, frame):
    """A valid frame's bytes, header and both CRCs, programmed again where the head block's next frame goes."""
    block, off, flags, seq, n, obj = frame
    raw = bytearray(12 + n + 4)
    d.readblocks(block, raw, off)
    _poke(d, log.head * d.block_size + log.pos, raw)


def test_a_valid_frame_numbered_again_after_the_newest_is_copied_or_forged_flash_a_problem_naming_it():
    # cosmic-ray: `seq <= last` -> `<`: the newest frame copied after itself was taken for frames missing
    # between two valid ones; this firmware writes each number once, so any repeat is named for what it is.
    # Every frame of the log copied, the checkpoint's end frame too (which base() then takes for no base)
    which = 0
    while True:
        d = dev()
        log = Log(d)
        log.every = 100
        log.commit(full={"round": {"i": -1}})
        steps(log, 3)
        frames = [f for f in log_frames(d) if f[5] is not None]
        if which == len(frames):
            break
        frame = frames[-1 - which]  # the newest first
        copy_frame_to_head(d, log, frame)
        got = Log(d.reboot())
        want = "a valid frame numbered #%d after saved frame #%d" % (frame[3], frames[-1][3])
        assert want in got.problem, (which, got.problem)
        assert got.state["round"]["i"] == 2  # the copy changes nothing of the report's state
        got.checkpoint(records={"round": {"i": 7}})  # a RAM clear
        again = Log(got.dev.reboot())
        assert again.problem == "" and again.state == {"round": {"i": 7}}, (which, again.problem, again.state)
        which += 1
    assert which == 5


def test_a_torn_write_then_an_empty_new_head_block_resumes_at_that_blocks_first_frame():
    # cosmic-ray: `used = 0` -> `1`: a head block with no frame at all (the acknowledgement's block started,
    # the power cut before its frame) was scanned for the torn pages and resumed a page of guard past its header
    d = dev()
    log = Log(d)
    log.every = 100
    log.commit(full={"round": {"i": -1}})
    i = 0
    while log.pos + 200 <= log.block_size:
        log.commit(patch={"round": {"i": i, "pad": "p" * 20}})
        i += 1
    torn_in = log.head
    # the commit's frame, in this block, cut halfway
    d = d.cut_during(1, lambda: log.commit(patch={"round": {"i": 1000, "pad": "q" * 20}}))
    log = Log(d)
    log.every = 100
    assert log.torn and log.head == torn_in, (log.torn, log.head)
    d.cut_after(2, done=0)  # the acknowledgement's block (erased already): its header written, the cut before its frame
    try:
        log.commit(patch={"round": {"i": 1001, "pad": "r" * 150}}, entries=[entry(log.jseq + 1, "torn_write")])
    except PowerCut:
        pass
    d = d.reboot()
    log = Log(d)
    assert log.head != torn_in and log.torn and log.problem == "", (log.head, log.torn, log.problem)
    assert log.pos == log.first, log.pos
    log.commit(patch={"round": {"i": 1002}})
    assert [f[1] for f in log_frames(d) if f[0] == log.head] == [log.first]
    assert Log(d.reboot()).state["round"]["i"] == 1002


def test_a_damaged_header_before_the_newest_checkpoint_in_its_block_leaves_that_checkpoint_the_base():
    # cosmic-ray: base()'s scan for end frames stopped at a damaged header (`continue` -> `break`): the
    # checkpoint written after it was passed over for an older one, and boot tilted over damage the
    # checkpoint had made harmless
    d = dev()
    log = Log(d)
    log.every = 100
    log.commit(full={"round": {"i": -1}})
    steps(log, 2)
    frames = [f for f in log_frames(d) if f[5] is not None]
    block, off = frames[-1][0], frames[-1][1]
    flip(d, block, off + 4)  # the newest frame's seq: its header CRC fails
    log.commit(patch={"round": {"i": 50}})
    log.checkpoint()
    assert log.head == block  # the checkpoint in the damaged frame's block
    steps(log, 1, 60)
    got = Log(d.reboot())
    assert got.problem == "" and got.state["round"]["i"] == 60, (got.problem, got.state)
