"""The flash log's replay and ring against the five mutations of them that no test caught (issue 23, rows "log
replay" and "log ring"): each test here fails with its mutation applied."""
# mp-heap: 100K
import struct

from harness.ramblockdev import PowerCut, RamBlockDev, _poke, flip, log_frames
from tablectl.crc import crc32
from tablectl.storage import F_VITAL, F_REC, Log, LogError
from tablectl.store import copy as _copy
from mptest import raises


FLASH = bytearray(2048 * 6)  # one flash for every test, erased by dev(): the heap need not find 12 KB in one piece again


def dev(blocks=6):
    data = memoryview(FLASH)[:2048 * blocks]
    for i in range(len(data)):
        data[i] = 0xFF
    return RamBlockDev(block_size=2048, blocks=blocks, data=data, prog=16)


def entry(seq, event="e"):
    return [seq, 1, event, 0, 0, ""]


def steps(log, n, start=0):
    for i in range(start, start + n):
        with log.atomic():
            log.commit(patch={"round": {"i": i}})
            log.commit(entries=[entry(log.jseq + 1)])


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
    d.cut_after(1)
    try:
        log.commit(patch={"round": {"i": 100}}, entries=[entry(log.jseq + 1, "torn")])
    except PowerCut:
        pass
    d = d.reboot()
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


def test_a_damaged_configuration_change_stays_config_lost_after_a_later_patch_of_it():
    # mutation: a configuration *patch* clears vital_lost (only a whole configuration may)
    d = dev()
    log = Log(d, vital="config")
    log.commit(full={"config": {"game": "a", "x": 1}, "round": {"i": -1}})
    log.commit(patch={"config": {"x": 2}})  # the frame the damage hits
    steps(log, 3)
    log.commit(patch={"config": {"x": 3}})  # a later patch: not the whole configuration
    steps(log, 2, 3)
    cfg = [f for f in log_frames(d) if f[2] is not None and f[2] & F_VITAL and f[5].get("p", {}).get("config")]
    block, off, flags, seq, n, obj = cfg[0]
    assert obj["p"]["config"] == {"x": 2}
    flip(d, block, off + 12 + n // 2)
    got = Log(d.reboot(), vital="config")
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
    # cosmic-ray: a whole configuration saved after the damage set vital_lost instead of clearing it
    d = dev()
    log = Log(d, vital="config")
    log.commit(full={"config": {"game": "a", "x": 1}, "round": {"i": -1}})
    steps(log, 2)
    log.commit(patch={"round": {"hit": "the frame the damage hits"}})
    steps(log, 2, 2)
    log.commit(full={"config": {"game": "a", "x": 2}})  # the configuration saved whole after the damage
    steps(log, 2, 4)
    rnd = [f for f in log_frames(d) if f[5] and f[5].get("p", {}).get("round", {}).get("hit")]
    block, off, flags, seq, n, obj = rnd[0]
    assert flags & F_REC and not flags & F_VITAL
    flip(d, block, off + 12 + n // 2)
    got = Log(d.reboot(), vital="config")
    assert "damaged flash after saved frame" in got.problem and not got.vital_lost, (got.problem, got.vital_lost)


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
