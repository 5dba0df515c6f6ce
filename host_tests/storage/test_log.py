"""tablectl.log on RAM flash (CPython and the unix port): frames, replay, the ring and its checkpoints, power cuts
at every program and erase, and what boot makes of every kind of damage to every frame."""
# mp-heap: 176K
import gc

from harness.heapfrag import fragmented
from harness.logsteps import entry
from harness.ramblockdev import PowerCut, RamBlockDev, flip, log_frames, skip
from tablectl.storage import F_ENT, F_REC, Log, Refused
from tablectl.store import copy as _copy
from mptest import raises


def dev(blocks=5, size=1024, prog=16):
    return RamBlockDev(block_size=size, blocks=blocks, prog=prog)


def session(log, steps=12):
    """A few saves and entries as a table makes them: a config, then a round record patched step by step,
    an entry with every step, now and then a frame of entries alone. Returns the states before and after
    the last frame (copies)."""
    states = []

    def done():
        states.append(_copy(log.state))
        del states[:-2]

    log.commit(full={"config": {"v": {"game": "x"}, "p": {}}})
    log.commit(full={"round": {"state": "idle", "round": 1, "hist": []}})
    done()
    for i in range(steps):
        with log.atomic():
            log.commit(patch={"round": {"state": "s%d" % (i % 3), "round": 1 + i // 3}})
            log.commit(entries=[entry(log.jseq + 1, "step")])
        done()
        if i % 4 == 1:  # a frame of journal entries alone
            log.commit(entries=[entry(log.jseq + 1, "note")])
            done()
    return states


def test_a_fresh_flash_is_an_empty_log_and_the_first_commit_starts_its_ring():
    d = dev()
    log = Log(d)
    assert log.problem == "" and log.state == {} and log.head == -1 and d.ops == 0  # boot writes nothing
    log.commit(full={"a": {"x": 1}}, entries=[entry(1)])
    assert log.erases == 1 and log.head == 0
    again = Log(d)
    assert again.state == {"a": {"x": 1}} and again.jseq == 1 and again.problem == "" and again.torn == 0


def test_a_flash_this_firmware_did_not_write_is_a_problem_until_a_checkpoint_makes_it_a_log():
    d = dev()
    for i in range(len(d.data)):
        d.data[i] = i * 7 & 0xFF  # another program's data, or an old filesystem
    log = Log(d)
    assert "holds no table log" in log.problem and log.state == {}
    log.checkpoint({"config": {"v": 1}}, [entry(1, "ram_clear")])  # what a RAM clear writes
    assert log.problem == ""
    again = Log(d)
    assert again.problem == "" and again.state == {"config": {"v": 1}} and again.jseq == 1


def test_geometry_the_log_cannot_use_is_refused():
    assert "5 or more blocks" in raises(ValueError, Log, dev(blocks=4))
    assert "1 KB or more" in raises(ValueError, Log, dev(size=512))
    assert "dividing" in raises(ValueError, Log, dev(prog=512))


def test_full_patch_remove_and_entries_replay_after_a_reboot():
    d = dev()
    log = Log(d)
    log.commit(full={"r": {"a": 1, "b": [1, 2]}, "q": {"z": 0}}, entries=[entry(1)])
    log.commit(patch={"r": {"b": [3]}})
    log.commit(gone=["q"], entries=[entry(2), entry(3)])
    again = Log(d)
    assert again.state == {"r": {"a": 1, "b": [3]}} and again.jseq == 3
    assert [e[0] for e in again.entries(10)[0]] == [1, 2, 3]
    assert again.entries(2)[0] == [entry(2), entry(3)] and again.entries(0) == ([], 0)


def test_an_atomic_block_is_one_frame_and_an_exception_inside_writes_nothing():
    d = dev()
    log = Log(d)
    log.commit(full={"r": {"a": 1, "b": 1}})
    frames = log.frames
    with log.atomic():
        log.commit(patch={"r": {"a": 2}})
        log.commit(patch={"r": {"b": 2}}, entries=[entry(1)])
        log.commit(full={"s": {"c": 1}})
        log.commit(patch={"s": {"c": 2}})
        assert log.frames == frames and log.state["r"] == {"a": 1, "b": 1}  # nothing written inside
    assert log.frames == frames + 1 and log.state == {"r": {"a": 2, "b": 2}, "s": {"c": 2}}
    try:
        with log.atomic():
            log.commit(patch={"r": {"a": 3}})
            raise KeyError("the step failed")
    except KeyError:
        pass
    assert log.frames == frames + 1 and log.state["r"]["a"] == 2
    assert Log(d).state == {"r": {"a": 2, "b": 2}, "s": {"c": 2}}


def test_a_frame_larger_than_a_block_is_refused_before_anything_is_written():
    d = dev()
    log = Log(d)
    ops = d.ops
    assert "does not fit" in raises(Refused, log.commit, full={"r": {"big": "x" * 2000}})
    assert d.ops == ops and log.state == {}


def test_the_ring_wraps_many_times_each_block_erased_in_turn_and_the_state_survives():
    d = dev(blocks=5)
    log = Log(d)
    log.commit(full={"config": {"v": "c"}})
    for i in range(400):
        log.commit(patch={"config": {"v": "c%d" % (i % 7)}} if i % 50 == 0 else None,
                   full={"round": {"i": i, "pad": "p" * (i % 40)}}, entries=[entry(log.jseq + 1)])
        if i % 37 == 0:  # a reboot now and then replays from the newest whole checkpoint
            assert Log(d).state == log.state
    again = Log(d)
    assert again.state == log.state and again.jseq == 400 and again.problem == ""
    assert d.erases == log.erases and log.bseq > 5 * 6  # wrapped six times and more
    # the newest entries are kept; the oldest went with their blocks
    kept = again.entries(1000)[0]
    assert kept[-1][0] == 400 and kept[0][0] > 1
    assert [e[0] for e in kept] == list(range(kept[0][0], 401))


def test_a_torn_write_resumes_the_state_before_it_journals_nothing_itself_and_is_acknowledged():
    for done in (0, 1, 8, 40):  # bytes of the cut program that reach the flash (0 and no noise: none)
        for noise in (0, 99):
            d = dev(size=2048)  # room left in the block: the cut comes in a program, not an erase
            log = Log(d)
            states = session(log, 3)
            jseq = log.jseq
            d.cut_after(1, done, noise)
            try:
                log.commit(patch={"round": {"state": "torn"}}, entries=[entry(log.jseq + 1, "torn")])
            except PowerCut:
                pass
            d = d.reboot()
            log = Log(d)
            assert log.problem == "" and log.state == states[-1], (done, noise)
            assert bool(log.torn) == bool(done or noise) and log.jseq == jseq, (done, noise)
            log.commit(patch={"round": {"state": "next"}})  # the next frame acknowledges the torn one
            again = Log(d)
            assert again.problem == "" and again.torn == 0 and again.state["round"]["state"] == "next"


def run_until_cut(d, n, done, steps):
    """Replay the steps on a log of d with the n-th operation cut; the index of the step cut (or None)."""
    log = Log(d)
    d.cut_after(n, done)
    for k in range(len(steps)):
        try:
            steps[k](log)
        except PowerCut:
            return k
    return None


def test_a_power_cut_at_every_program_and_erase_leaves_the_old_state_or_the_new_one():
    """Across the ring's wrap and its checkpoints: after each cut, boot finds no problem and exactly the
    state before or after the step the cut interrupted; the log takes writes again."""
    def step(i):
        def go(log):
            with log.atomic():
                log.commit(full={"round": {"i": i, "pad": "x" * (i * 37 % 300)}} if i % 5 == 0 else None,
                           patch={"round": {"i": i}} if i % 5 else None,
                           entries=[entry(log.jseq + 1)])
        return go

    def first(log):
        log.commit(full={"config": {"v": 1}, "round": {"i": -1}})

    steps = [first] + [step(i) for i in range(40)]
    d = dev(blocks=5)
    image = d.snapshot()
    log = Log(d)
    states, ops = [_copy(log.state)], [d.ops]
    for s in steps:
        s(log)
        states.append(_copy(log.state))
        ops.append(d.ops)
    assert log.bseq > 5  # the ring wrapped
    total = d.ops
    for n in range(1, total + 1):
        for done in (None, 0):
            d.restore(image)
            d = d.reboot()
            k = run_until_cut(d, n, done, steps)
            assert k is not None, n
            d = d.reboot()
            log = Log(d)
            assert log.problem == "", (n, log.problem)
            assert log.state in (states[k], states[k + 1]), (n, k, log.state)
            if "round" in log.state:
                log.commit(patch={"round": {"after": n}})
            else:
                log.commit(full={"round": {"after": n}})
            assert Log(d).state["round"]["after"] == n


def test_damage_to_any_frame_is_explained_or_tilts_and_never_resumes_a_wrong_state():
    """Every frame of a session, damaged in its header, its payload or its CRC, zeroed, or its tail cut
    short: boot never fails; without a problem the state is the true one, or (the newest frame only) the
    one before it with the tear acknowledged; journal-only damage loses entries, never state."""
    d = dev(blocks=6)
    log = Log(d)
    states = session(log, 60)  # past a second checkpoint: frames before it no longer matter
    assert log.ckpt > 1
    final = states[-1]
    image = d.snapshot()
    frames = log_frames(d, payloads=False)
    seqs = [f[3] for f in frames]
    assert seqs == list(range(seqs[0], seqs[0] + len(frames)))  # the ring wrapped: the oldest are gone
    outcomes = set()
    for i in range(len(frames)):
        block, off, flags, seq, n, obj = frames[i]
        base = block * d.block_size + off
        for how in ("header", "payload", "crc", "zeros", "tail"):
            d.restore(image)
            data = d.data
            if how == "header":
                data[base + 5] ^= 0x01
            elif how == "payload":
                data[base + 12 + n // 2] ^= 0x40
            elif how == "crc":
                data[base + 12 + n] ^= 0x80
            elif how == "zeros":
                for k in range(base + 3, base + 12 + n // 2):
                    data[k] = 0
            else:
                for k in range(base + 12 + n // 2, base + 12 + n + 4):
                    data[k] = 0xFF
            gc.collect()
            got = Log(d.reboot())
            last = i == len(frames) - 1
            if got.problem:
                outcomes.add("tilt")
                assert "damaged" in got.problem or "checkpoint" in got.problem, got.problem
                assert not last, (i, how)  # a damaged newest frame is a torn write, never a tilt
                continue
            if got.state == final:
                journal_only = flags & F_ENT and not flags & F_REC
                assert got.lost == 1 and journal_only or got.lost == 0, (i, how)
                outcomes.add("lost" if got.lost else "sound")
            else:
                assert last and got.torn and got.state == states[-2], (i, how, got.state)
                outcomes.add("torn")
    assert outcomes == {"tilt", "torn", "sound", "lost"}, outcomes


def test_damaged_journal_frames_are_skipped_and_counted_never_fatal():
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"r": 1}})
    for i in range(1, 6):
        log.commit(entries=[[i, 1, "e", i, 0, "caf\u00e9 %d" % i]])  # text the journal would have cleaned
    frames = [f for f in log_frames(d) if f[5] is not None and f[5].get("j")]
    block, off, flags, seq, n, obj = frames[2]
    flip(d, block, off + 12 + n - 3, 0x80)  # a byte inside the entry's text: no longer UTF-8, nor the CRC
    got = Log(d)
    assert got.problem == "" and got.lost == 1 and got.state == {"round": {"r": 1}} and got.jseq == 5
    entries, damaged = got.entries(10)
    assert [e[0] for e in entries] == [1, 2, 4, 5] and damaged == 1


def long_record(k):
    """About 800 bytes of JSON: longer than the page buffer, as a checkpoint's part or a baccarat round's are."""
    return {"hist": [[i, "card %02d" % i, i * k] for i in range(40)]}


def test_a_long_frame_reads_back_whole_and_any_damage_to_it_is_caught():
    """A frame longer than the page buffer is read a few bytes at a time on MicroPython (json.load on the
    flash): it reads back whole, and a flipped byte anywhere in its payload or its CRC makes it damaged,
    as a short frame's does."""
    d = dev(blocks=5, size=2048)
    log = Log(d)
    log.commit(full={"h": long_record(1)}, entries=[entry(1, "y" * 300)])
    log.commit(patch={"h": long_record(2)})
    again = Log(d)
    assert again.state == {"h": long_record(2)} and again.entries(5)[0] == [entry(1, "y" * 300)]
    frames = [f for f in log_frames(d) if f[4] > 256]
    assert len(frames) == 2 and all(f[5] is not None for f in frames)
    image = d.snapshot()
    for block, off, flags, seq, n, obj in frames:
        for at in range(12, 12 + n + 4, 7):
            d.restore(image)
            flip(d, block, off + at, 0x04)
            damaged = [f for f in log_frames(d) if f[1] == off and f[0] == block][0]
            assert damaged[5] is None, (seq, at)


def test_a_long_frame_is_read_in_a_heap_with_no_free_block_as_long_as_it():
    """After hours of play a 64 KB heap may hold its free memory in small pieces: the journal's reports and
    a replay of the log still read a frame of a kilobyte (the ring's entries and the records are read here
    with every free block of the heap a few hundred bytes long at most)."""
    import sys
    if sys.implementation.name != "micropython":
        skip("CPython has no heap of its own to fragment")
    d = dev(blocks=5, size=4096)
    log = Log(d)
    log.commit(full={"h": long_record(3)}, entries=[entry(i, "a round's step %d" % i) for i in range(1, 30)])
    want = [entry(i, "a round's step %d" % i) for i in range(1, 30)]
    again = Log(d)  # the board's Log object, made in a whole heap as at boot; its reading is what is tested
    gc.collect()
    # pieces longer than any one object the read makes (a 40-item list: 512 bytes on a 64-bit port), far
    # shorter than the frame (1.7 KB)
    hold = fragmented(640)
    try:
        got = log.entries(40)
        again.reopen()  # read the whole log from flash again, as a boot does
        state = again.state
    finally:
        hold = None
        gc.collect()
    assert got == (want, 0) and state == {"h": long_record(3)}


def test_writing_a_long_frame_in_a_heap_with_no_free_block_as_long_as_it():
    """json.dumps builds a frame's text in one piece when the heap has the block; with every free block of the
    heap far shorter than the frame the text is streamed into flash instead, and reads back the same."""
    import sys
    if sys.implementation.name != "micropython":
        skip("CPython has no heap of its own to fragment")
    d = dev(blocks=5, size=4096)
    log = Log(d)
    log.commit(full={"h": {"k": 0}})
    value = long_record(3)
    gc.collect()
    hold = fragmented(640)
    try:
        try:
            bytearray(1700)
            whole = True
        except MemoryError:
            whole = False
        log.commit(full={"h": value}, entries=[entry(1, "long")])
    finally:
        hold = None
        gc.collect()
    assert not whole  # the heap had no block as long as the frame: it was streamed
    again = Log(d)
    assert again.state == {"h": long_record(3)} and again.jseq == 1 and again.problem == ""


def test_every_frame_is_read_back_while_the_ring_is_still_in_its_first_block():
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"n": 1}}, entries=[entry(1)])
    log.commit(entries=[entry(2)])
    assert log.head == 0  # the ring starts at block 0
    got = [obj for flags, obj in Log(d).payloads()]
    assert [o.get("j") for o in got if o.get("j")] == [[entry(1)], [entry(2)]]
    assert got[-2]["r"] == {"round": {"n": 1}}


def test_a_frame_of_a_whole_block_fits_and_one_byte_more_is_refused_naming_the_block():
    import json
    for prog in (16, 256):
        d = dev(size=1024, prog=prog)
        log = Log(d)
        log.commit(full={"a": {"n": 1}})
        usable = 1024 - log.first
        fill = usable - 16 - len(json.dumps({"r": {"big": {"t": ""}}}))  # header 12, CRC 4
        log.commit(full={"big": {"t": "x" * fill}})
        assert Log(d).state["big"]["t"] == "x" * fill
        ops = d.ops
        why = raises(Refused, log.commit, full={"big": {"t": "x" * (fill + 1)}})
        assert why == "a frame of %d bytes does not fit a flash block of 1024" % (usable - 16 + 1), why
        assert d.ops == ops and Log(d).state["big"]["t"] == "x" * fill


def test_a_log_whose_only_checkpoint_is_damaged_with_frames_after_it_is_a_problem_not_an_empty_table():
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"n": 1}}, entries=[entry(1)])
    log.commit(patch={"round": {"n": 2}})
    frames = log_frames(d)
    assert frames[0][5] == {"n": 0, "js": 0, "c": frames[0][5]["c"]}  # the first checkpoint: nothing to restate
    block, off, flags, seq, n, obj = frames[0]
    flip(d, block, off + 12 + n // 2)
    got = Log(d.reboot())
    assert got.problem == "the log has no whole checkpoint to resume from (flash damaged)", got.problem


def test_on_a_ring_of_16_blocks_a_checkpoint_starts_every_8th_block_and_may_take_6_blocks():
    gc.collect()  # 16 KB of flash in one piece
    d = dev(blocks=16, size=1024)
    log = Log(d)
    starts = []
    i = 0
    while log.bseq < 40:
        with log.atomic():
            log.commit(full={"round": {"i": i, "pad": "p" * 40}}, entries=[entry(log.jseq + 1)])
        if not starts or log.ckpt != starts[-1]:
            starts.append(log.ckpt)
        i += 1
    assert starts == [1, 9, 17, 25, 33], starts
    assert log.room() == (16 - 8 - 2) * (1024 - log.first)


def test_a_frame_header_whose_length_runs_past_its_block_is_damage_of_unknown_kind_a_problem():
    """Its CRC right and its flags saying 'entries only' (which would make it a lost journal frame): a length
    that ends past the block is no frame this firmware wrote, so what it held is not known."""
    import struct
    from harness.ramblockdev import _poke
    from tablectl.crc import crc32
    d = dev(blocks=8)
    log = Log(d)
    session(log, 4)
    while log.bseq - log.ckpt < 1:
        session(log, 4)
    target = log._block_of(log.bseq - 1)  # a whole block after the checkpoint starts, valid frames after it
    block, off, flags, seq, n, obj = [f for f in log_frames(d) if f[0] == target][-1]
    hdr = bytearray(12)
    struct.pack_into("<HBBI", hdr, 0, 1024 - off - 8, F_ENT, 0, seq)  # ends 8 bytes past the block
    struct.pack_into("<I", hdr, 8, crc32(memoryview(hdr)[:8]))
    _poke(d, block * 1024 + off, hdr)
    got = Log(d.reboot())
    assert "damaged flash after saved frame" in got.problem and got.lost == 0, (got.problem, got.lost)


def test_a_device_that_names_no_program_unit_is_written_in_units_of_16_bytes():
    class Plain:  # the block protocol and nothing else
        def __init__(self, ram):
            self.ram = ram

        def readblocks(self, block, buf, offset=0):
            self.ram.readblocks(block, buf, offset)

        def writeblocks(self, block, buf, offset=0):
            self.ram.writeblocks(block, buf, offset)

        def ioctl(self, op, arg):
            return self.ram.ioctl(op, arg)

    ram = dev(prog=16)
    log = Log(Plain(ram))
    assert log.prog == 16 and log.first == 16
    log.commit(full={"round": {"n": 1}})
    assert all(off % 16 == 0 for block, off, flags, seq, n, obj in log_frames(ram))
    assert Log(Plain(ram)).state == {"round": {"n": 1}}


def test_checkpoints_whose_records_span_two_blocks_are_resumed_as_the_ring_wraps():
    gc.collect()  # 16 KB of flash in one piece
    d = dev(blocks=16, size=1024)
    log = Log(d)
    big = {"a": {"t": "a" * 500}, "b": {"t": "b" * 500}, "c": {"t": "c" * 500}}
    for name in big:  # one frame each: together more than a block, as every checkpoint restates them
        log.commit(full={name: big[name]})
    for i in range(400):
        log.commit(full={"round": {"i": i, "pad": "p" * 40}})
        if i % 10 == 9:
            back = Log(d)
            assert back.problem == "" and back.state["round"]["i"] == i and back.state["a"] == big["a"], (
                i, back.problem)
    assert log.bseq > 32  # the ring went round twice


def test_idle_erases_the_block_ahead_so_the_key_that_moves_the_ring_onto_it_erases_nothing():
    d = dev(blocks=8, size=1024)
    log = Log(d)
    i = 0
    while log.bseq < 12:  # the ring has wrapped: the block ahead holds old frames
        log.commit(full={"round": {"i": i, "pad": "p" * 40}})
        i += 1
    while log.idle():  # what is due first (a checkpoint, the erase ahead)
        pass
    ahead = (log.head + 1) % 8
    erases, head = d.erases, log.head
    log2 = Log(d)  # a boot finds it erased too
    assert log2._ready == ahead == log._ready
    while log.head == head:
        log.commit(full={"round": {"i": i, "pad": "p" * 40}})
        i += 1
    assert log.head == ahead and d.erases == erases  # the key's frame waited for no erase


def test_after_a_checkpoint_with_entries_the_last_entry_is_the_last_one_it_wrote():
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"n": 1}}, entries=[[1, 7, "a", 0, 0, ""], [2, 7, "b", 0, 0, ""]])
    log.checkpoint({"round": {"n": 2}}, [[3, 9, "ram_clear", 0, 0, ""], [4, 9, "after", 0, 0, ""]])
    assert log.jseq == log.last_entry() == 4 and Log(d).jseq == 4


def test_a_long_frame_that_ends_at_the_flashs_last_byte_reads_back():
    """The stream reader (MicroPython) reads the frame's CRC and not a byte past it: there is none."""
    import json
    d = dev(blocks=5, size=1024)
    log = Log(d)
    i = 0
    while not (log.head == 4 and 1024 - log.pos >= 600):
        log.commit(full={"round": {"i": i}})
        i += 1
    k = 1024 - log.pos - 16 - len(json.dumps({"r": {"tail": {"t": ""}}}))
    log.commit(full={"tail": {"t": "x" * k}})
    assert log.head == 4 and log.pos == 1024  # the frame's CRC is the flash's last 4 bytes
    back = Log(d.reboot())
    assert back.problem == "" and back.state["tail"]["t"] == "x" * k


def test_a_flash_this_firmware_did_not_write_gives_no_journal_frames():
    d = dev()
    for i in range(len(d.data)):
        d.data[i] = (i * 7) & 0xFF
    log = Log(d)
    assert log.problem and list(log.payloads()) == [] and log.entries(5) == ([], 0)
