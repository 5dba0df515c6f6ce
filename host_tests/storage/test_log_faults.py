"""tablectl.log under repeated faults (issue 20): brown-out boot series that never spend the ring, a damage tilt
no reboot clears, a bad block header over programmed frames, duplicated blocks, a RAM clear's room on the
smallest ring, and nothing ever programmed outside its block."""
# mp-heap: 384K
import gc

from harness.logsteps import entry
from harness.bounded import Bounded
from harness.ramblockdev import PowerCut, RamBlockDev, flip, log_frames
from tablectl.storage import Log, LogError, Refused
from tablectl.store import copy as _copy
from mptest import raises

BLOCK = 4096
FLASH = bytearray(BLOCK * 32)  # allocated once: the 64-block series (2 KB blocks) and every smaller one share it


def dev(blocks, size=BLOCK, prog=256):
    data = memoryview(FLASH)[:size * blocks]
    for i in range(len(data)):
        data[i] = 0xFF
    return RamBlockDev(block_size=size, blocks=blocks, data=data, prog=prog)


def play(log, steps, pad=40):
    """A config and a round record, then steps of a patch and an entry each (what a table's round makes)."""
    if "config" not in log.state:
        log.commit(full={"config": {"game": "x", "pad": "c" * pad}})
    if "round" not in log.state:
        log.commit(full={"round": {"state": "idle", "i": 0}})
    for i in range(steps):
        with log.atomic():
            log.commit(patch={"round": {"i": log.state["round"]["i"] + 1, "p": "r" * (i % 50)}})
            log.commit(entries=[entry(log.jseq + 1, "step")])


def tear(d, log):
    """A write the power cut tore half way (nothing valid after it)."""
    d.cut_after(1)
    try:
        log.commit(patch={"round": {"state": "torn"}}, entries=[entry(log.jseq + 1, "torn")])
    except PowerCut:
        pass
    return d.reboot()


def booted(d):
    """What App does first at a boot after a torn write: one frame (the journal's torn_write or tilt)."""
    log = Log(d)
    log.commit(entries=[entry(log.jseq + 1, "torn_write" if log.torn else "boot")])
    return log


def test_brownout_boot_series_never_spend_the_ring_on_5_8_16_and_64_blocks():
    """A torn write, then boot after boot cut at its first, second or third flash operation (the erase, the
    new block's header, the acknowledgement: done, half done or not at all) for three rounds of the ring: the
    boot after the supply steadies resumes the state before the tear and plays on."""
    for blocks in (5, 8, 16, 64):
        d = dev(blocks, BLOCK if blocks < 64 else BLOCK // 2)
        log = Log(d)
        play(log, 30)
        before = _copy(log.state)
        d = tear(d, log)
        for k in range(3 * blocks):
            gc.collect()
            log = Log(d)
            assert log.problem == "", (blocks, k, log.problem)
            d.cut_after(1 + k % 3, (None, 0, BLOCK)[k // 3 % 3])
            try:
                log.commit(entries=[entry(log.jseq + 1, "torn_write")])
            except PowerCut:
                pass
            d = d.reboot()
        log = booted(d)
        assert log.problem == "" and log.state == before, (blocks, log.problem)
        play(log, 5)
        again = Log(d.reboot())
        assert again.problem == "" and again.state["round"]["i"] == before["round"]["i"] + 5, blocks


def test_a_boot_cut_right_after_the_new_blocks_header_reuses_that_block():
    d = dev(8)
    log = Log(d)
    play(log, 10)
    d = tear(d, log)
    erases = d.erases
    for _ in range(20):
        d.cut_after(3, 0)  # the erase, the header: done; the acknowledgement: cut before it
        try:
            booted(d)
        except PowerCut:
            pass
        d = d.reboot()
    assert d.erases <= erases + 1, d.erases - erases  # the first boot's erase, none after it


def test_ack_torn_series_keep_to_the_block_then_end_in_play_or_a_tilt_a_ram_clear_clears():
    """The acknowledgement itself torn at boot after boot (noisy cuts): each boot's frame goes after the torn one
    in the same block (a page of guard left), so a few blocks take dozens of such boots; a longer series may
    fill the ring (the checkpoint never gets its turn), which is a problem a RAM clear's checkpoint clears."""
    d = dev(5)
    log = Log(d)
    play(log, 10)
    before = _copy(log.state)
    d = tear(d, log)
    bseq, full = log.bseq, None
    for k in range(60):
        log = Log(d)
        assert log.problem == "" and log.state == before, (k, log.problem)
        if k == 12:
            assert log.bseq <= bseq + 2, log.bseq - bseq  # 12 boots in two blocks, not twelve
        d.cut_after(1 if log.pos < log.block_size else 3, None, k + 1)
        try:
            log.commit(entries=[entry(log.jseq + 1, "torn_write")])
        except PowerCut:
            pass
        except LogError as e:
            full = str(e)
            break
        d = d.reboot()
    log = Log(d.reboot())
    if full is None:  # the supply steadies: the boot's frame
        try:
            log.commit(entries=[entry(log.jseq + 1, "torn_write")])
            assert log.problem == "" and log.state == before
            return
        except LogError as e:
            full = str(e)
    assert "flash log full" in full and log.state == before
    log = Log(d.reboot())
    assert "flash log full" in raises(LogError, log.commit, entries=[entry(log.jseq + 1, "boot")])
    log.checkpoint({"config": before["config"]}, [entry(log.jseq + 1, "ram_clear")])
    again = Log(d.reboot())
    assert again.problem == "" and again.state == {"config": before["config"]}


def frames_of(d):
    return log_frames(d, payloads=False)


def damaged_tilt(blocks):
    """A log with a damaged record frame under later frames: the table's tilt."""
    d = dev(blocks)
    log = Log(d)
    play(log, 20)
    f = [x for x in frames_of(d) if x[2] is not None and x[2] & 1][-3]  # a record frame, later ones after it
    d.data[f[0] * BLOCK + f[1] + 12 + f[4] // 2] ^= 0x10
    d = d.reboot()
    log = Log(d)
    assert "damaged" in log.problem
    return d, log.problem


def test_a_damage_tilt_is_never_cleared_by_reboots_only_by_a_checkpoint_given_the_state():
    for blocks in (5, 6, 16):
        d, why = damaged_tilt(blocks)
        for k in range(4 * blocks * 16):  # every tilted boot journals its tilt: checkpoints come due
            log = Log(d)
            assert log.problem == why, (blocks, k, log.problem)
            log.commit(entries=[entry(log.jseq + 1, "tilt")])
            d = d.reboot()
        log = Log(d)
        assert log.problem == why and log.bseq > 2 * blocks  # the ring went round more than once in tilt
        log.checkpoint({"config": {"game": "x"}}, [entry(log.jseq + 1, "ram_clear")])
        again = Log(d.reboot())
        assert again.problem == "" and again.state == {"config": {"game": "x"}}


def test_every_byte_of_the_newest_blocks_header_damaged_or_zeroed_or_garbage_is_a_tilt():
    d = dev(6)
    log = Log(d)
    play(log, 60)
    head = log.head
    assert log.pos > log.first + 256  # the newest block holds frames
    image = d.snapshot()
    base = head * BLOCK
    cases = [[(i, 1 << (i % 8))] for i in range(16)]
    cases += [[(i, 0xFF) for i in range(16)], [(i, (i * 37 + 5) & 0xFF) for i in range(16)]]
    for case in cases:
        d.restore(image)
        for i, mask in case:
            d.data[base + i] ^= mask
        got = Log(d.reboot())
        assert got.problem and "header" in got.problem, (case, got.problem, got.state)
    for i in range(16):  # an older block of the live state: a tilt too
        d.restore(image)
        d.data[((head - 1) % 6) * BLOCK + i] ^= 0x04
        got = Log(d.reboot())
        assert got.problem, i


def test_a_torn_header_over_an_erased_block_is_free_space():
    d = dev(6)
    log = Log(d)
    play(log, 10)
    state = _copy(log.state)
    nxt = (log.head + 1) % 6
    d.data[nxt * BLOCK + 0] = 0x54  # 'T' of a header the cut stopped after one byte
    got = Log(d.reboot())
    assert got.problem == "" and got.state == state
    play(got, 200)  # the ring goes through that block
    assert Log(d.reboot()).problem == ""


def test_a_duplicated_block_tilts_with_a_reason_a_checkpoint_clears():
    for blocks in (5, 8):
        d = dev(blocks)
        log = Log(d)
        play(log, 80 * blocks)
        head = log.head
        prev = (head - 1) % blocks
        d.data[head * BLOCK:(head + 1) * BLOCK] = d.data[prev * BLOCK:(prev + 1) * BLOCK]
        d = d.reboot()
        log = Log(d)
        assert "sequence number" in log.problem, log.problem
        try:  # the tilt journalled, or the flash refuses it (App takes that as the flash failing: still a tilt)
            log.commit(entries=[entry(log.jseq + 1, "tilt")])
        except LogError:
            pass
        d = d.reboot()
        log = Log(d)
        assert "sequence number" in log.problem
        log.checkpoint({"config": {"game": "x"}}, [entry(log.jseq + 1, "ram_clear")])
        again = Log(d.reboot())
        assert again.problem == "" and again.state == {"config": {"game": "x"}}, again.problem
        play(again, 40 * blocks)
        assert Log(d.reboot()).problem == ""


def test_a_ram_clear_finds_room_on_the_smallest_ring_with_its_newest_checkpoint_damaged():
    for blocks in (5, 6, 8):
        d = dev(blocks)
        log = Log(d)
        play(log, 40)
        log.checkpoint({"config": log.state["config"]}, [entry(log.jseq + 1, "ram_clear")])
        log.commit(full={"round": {"state": "idle", "i": 0}})
        play(log, 3)
        end = [f for f in frames_of(d) if f[2] is not None and f[2] & 8][-1]
        d.data[end[0] * BLOCK + end[1] + 14] ^= 0x01
        d = d.reboot()
        log = Log(d)
        assert log.problem, blocks
        for _ in range(3):  # tilted boots journal their tilt
            log.commit(entries=[entry(log.jseq + 1, "tilt")])
            log = Log(d.reboot())
        log.checkpoint({"config": {"game": "x"}}, [entry(log.jseq + 1, "ram_clear")])
        again = Log(d.reboot())
        assert again.problem == "" and again.state == {"config": {"game": "x"}}, (blocks, again.problem)
        play(again, 30)
        assert Log(d.reboot()).problem == ""


def test_a_ring_full_of_live_state_is_a_problem_and_a_ram_clear_still_has_room():
    d = dev(5)
    log = Log(d)
    play(log, 5)
    log.every = 50  # checkpoints that never come: the ring fills with live state
    assert "flash log full" in raises(LogError, play, log, 2000)
    assert "flash log full" in log.problem
    log.checkpoint({"config": {"game": "x"}}, [entry(log.jseq + 1, "ram_clear")])
    again = Log(d.reboot())
    assert again.problem == "" and again.state == {"config": {"game": "x"}}


def test_nothing_is_programmed_outside_its_block_with_large_records_on_5_blocks():
    """Records whose checkpoint spills over a block: on a 5-block ring the second block a frame moves on to took
    a whole checkpoint (a page programmed at the block's end); now every write fits its block or is refused in
    one line, and what the log holds is what it held."""
    for size in (1500, 1700, 1800):
        data = memoryview(FLASH)[:BLOCK * 5]
        for i in range(len(data)):
            data[i] = 0xFF
        d = Bounded(block_size=BLOCK, blocks=5, data=data, prog=256)
        log = Log(d)
        big = "b" * size
        try:
            log.commit(full={"config": {"game": "x", "pad": big}})
            log.commit(full={"hits": {"pad": big[:1000]}})
            for i in range(300):
                log.commit(full={"round": {"i": i, "pad": big[:size - i % 200]}}, entries=[entry(log.jseq + 1)])
        except Refused as e:
            assert "\n" not in str(e) and "ring" in str(e), str(e)
        assert Log(d.reboot()).state == log.state, size


def test_a_checkpoint_the_ring_cannot_hold_is_refused_before_anything_is_written():
    d = dev(5)
    log = Log(d)
    for name in "abc":
        log.commit(full={name: {"p": "x" * 1300}})
    ops = d.ops
    why = raises(LogError, log.checkpoint)
    assert "ring" in why and "\n" not in why and d.ops == ops, why


def test_a_ram_clear_erases_a_copied_block_far_from_the_head_so_no_reboot_finds_it_again():
    """The copy sits where neither the ring nor the RAM clear's checkpoint writes next: only the clear's own
    erase of it makes the log sound again."""
    d = dev(8, size=2048)
    log = Log(d)
    play(log, 200)
    head = log.head
    src, dst = (head - 2) % 8, (head - 6) % 8
    d.data[dst * 2048:(dst + 1) * 2048] = d.data[src * 2048:(src + 1) * 2048]
    log = Log(d.reboot())
    d = log.dev
    assert "sequence number" in log.problem, log.problem
    log.checkpoint({"config": {"game": "x"}}, [entry(log.jseq + 1, "ram_clear")])
    assert d.data[dst * 2048:dst * 2048 + 4] == b"\xff" * 4  # the copy is gone
    again = Log(d.reboot())
    assert again.problem == "" and again.state == {"config": {"game": "x"}}, again.problem


def test_a_ram_clear_crossing_a_block_where_a_checkpoint_falls_due_is_read_back_whole():
    """A checkpoint of several records that spills into a new block when the ring is `every` blocks past the
    last one: the new block must not start a checkpoint of its own in the middle of this one. Tried at every
    step of a few blocks of play."""
    d = dev(6, size=1024, prog=16)
    log = Log(d)
    play(log, 1, pad=10)
    records = {"a": {"t": "a" * 150}, "b": {"t": "b" * 150}, "c": {"t": "c" * 150}, "config": {"game": "y"}}
    image = None
    for step in range(60):
        play(log, 1, pad=10)
        image = d.snapshot(into=image)
        log.checkpoint(records, [entry(log.jseq + 1, "ram_clear")])
        back = Log(d.reboot())
        assert back.problem == "" and back.state == records, (step, back.problem, sorted(back.state))
        d = back.dev
        d.restore(image)
        log = Log(d.reboot())
        d = log.dev


def test_a_torn_write_whose_header_is_torn_too_keeps_to_its_block_past_a_page_of_guard():
    """The scan cannot say where such a frame ends: the head block takes frames again one page past its last
    programmed byte, not from the next block (a flickering supply tears write after write)."""
    d = dev(8)
    log = Log(d)
    play(log, 3)
    head, pos = log.head, log.pos
    d = tear(d, log)
    flip(d, head, pos + 2)  # the torn frame's flags: its header no longer checks
    got = Log(d)
    assert got.torn and got.problem == "" and got.head == head, (got.torn, got.problem)
    last = pos + 256  # what the cut programmed: one page of the frame (its header and some of its payload)
    assert got.pos == last + 256, (got.pos, last)  # a page of guard after it
    got.commit(patch={"round": {"i": 99}}, entries=[entry(got.jseq + 1, "after")])
    assert got.head == head
    back = Log(d.reboot())
    assert back.problem == "" and back.state["round"]["i"] == 99


def test_a_torn_write_with_its_header_whole_keeps_to_its_block_right_after_the_torn_frame():
    d = dev(8)
    log = Log(d)
    play(log, 3)
    head = log.head
    d = tear(d, log)
    got = Log(d)
    assert got.torn and got.problem == "" and got.head == head and got.pos < BLOCK, (got.torn, got.pos)
    got.commit(patch={"round": {"i": 99}}, entries=[entry(got.jseq + 1, "after")])
    assert got.head == head  # no block spent on the tear
    back = Log(d.reboot())
    assert back.problem == "" and back.state["round"]["i"] == 99


def test_a_block_ahead_with_only_its_first_byte_programmed_is_erased_before_it_is_used():
    d = dev(8, size=2048)
    log = Log(d)
    play(log, 20)
    ahead = (log.head + 1) % 8
    assert log._bseq(ahead) == 0  # erased: a fresh ring has not been there yet
    d.data[ahead * 2048] = 0x00  # a stray byte where its header's magic goes
    log = Log(d.reboot())
    d = log.dev
    for i in range(500):  # onto that block, and a few frames into it
        play(log, 1)
        if log.head == ahead and log.pos > 512:
            break
    assert log.head == ahead
    got = Log(d.reboot())
    assert got.problem == "" and got.state["round"]["i"] == log.state["round"]["i"], got.problem
