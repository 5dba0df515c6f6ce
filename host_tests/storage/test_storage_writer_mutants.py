"""The storage writer, ring, frame and records against the survivors of `make mutate` over them (issue 23):
each test here names the mutant it kills, seen failing with it applied by hand."""
import json

from harness.logsteps import entry, steps
from harness.ramblockdev import RamBlockDev, flip, log_frames
from tablectl.storage import F_ACK, F_END, Log, LogError, Refused


def dev(blocks=6):
    return RamBlockDev(block_size=2048, blocks=blocks, prog=16)


def test_idle_does_nothing_on_a_damaged_log_nor_inside_an_atomic_block():
    # cosmic-ray: idle()'s `self.depth or self.problem` made `and`: it erased ahead (and could write a
    # checkpoint) on a log whose damage the table tilts for, and in the middle of an atomic() block
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 3)
    with log.atomic():
        log.commit(patch={"round": {"i": 50}})
        erases = d.erases
        assert not log.idle() and d.erases == erases and log._ready == -1
    assert log.idle() and d.erases == erases + 1  # the block ahead was erasable all along
    d = d.reboot()
    block, off, flags, seq, n, obj = log_frames(d)[-2]
    flip(d, block, off + 12 + n // 2)
    log = Log(d)
    assert "damaged flash after saved frame" in log.problem, log.problem
    ahead = (log.head + 1) % d.blocks
    image = bytes(d.data)
    assert not log.idle() and d.erases == 0 and log._ready == -1 and bytes(d.data) == image, ahead


def test_idle_does_nothing_until_the_next_frame_has_acknowledged_a_torn_write():
    # cosmic-ray: idle()'s `self.problem or self._ack` made `and`: between the boot that found a torn write
    # and the key whose frame acknowledges it, idle() erased ahead and could write a checkpoint (its own frame
    # of acknowledgement, not the key's)
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 150)  # the ring wrapped: the block ahead holds old frames, which idle() would erase
    d = d.cut_during(1, lambda: log.commit(patch={"round": {"i": 100}}))
    log = Log(d)
    assert log.torn and log._ack and log.problem == ""
    erases, programs = d.erases, d.programs
    assert not log.idle() and (d.erases, d.programs) == (erases, programs)
    log.commit(patch={"round": {"i": 5}})
    assert not log._ack and log.idle() and d.erases == erases + 1


def fill_to(log, target):
    """Frames committed until the head block's next frame goes at `target` exactly (a frame takes 48 or more)."""
    left = target - log.pos
    while left:
        take = left if left <= 512 else 256
        assert take >= 48, (log.pos, target)
        log.commit(patch={"round": {"s": "x" * (take - 43)}})  # 27 bytes of JSON around it, 16 of header and CRC
        left -= take
    assert log.pos == target


def test_idle_writes_the_due_checkpoint_once_the_head_block_is_half_full_not_a_frame_before():
    # cosmic-ray: `self.pos * 2 >= self.block_size` made `>` (or `* 3`): the checkpoint a block half full made
    # due left to the next frame; and `self.bseq + 1` made `+ 2`: one written a block before it is due
    for pos, every, due in ((1008, 1, False), (1024, 1, True), (1024, 2, False)):
        d = dev()
        log = Log(d)
        log.commit(full={"round": {"i": -1}})
        log.every = every  # 1: the next block would write a checkpoint (due); 2: it would not
        fill_to(log, pos)
        assert log.idle() and log._ready >= 0  # the erase ahead comes first
        seq = log.seq
        assert log.idle() == due and (log.seq > seq) == due, (pos, log.seq - seq)
        if due:
            assert log_frames(d)[-1][2] & F_END  # the checkpoint, in the head block still


def test_a_checkpoint_comes_every_8_blocks_or_every_blocks_less_3_on_a_smaller_ring():
    # cosmic-ray: `every = 8` made 7 or 9, `self.blocks - 3` made 2 or 4 (or `+ 3`), and the checkpoint due
    # one block late (`bseq - self.ckpt >= self.every` made `>`): the ring's live state then spans more
    # blocks than the room it keeps for it, or checkpoints come more often than needed
    for blocks, every in ((5, 2), (6, 3), (16, 8)):
        d = dev(blocks)
        log = Log(d)
        assert log.every == every, (blocks, log.every)
        log.commit(full={"round": {"i": -1, "pad": ""}})
        starts = [log.ckpt]
        for i in range(6 * blocks * every):
            log.commit(patch={"round": {"i": i, "pad": "p" * 300}})
            if log.ckpt != starts[-1]:
                starts.append(log.ckpt)
            if len(starts) == 4:
                break
        assert [b - a for a, b in zip(starts, starts[1:])] == [every] * 3, (blocks, starts)


def records_of(total):
    """Three records whose checkpoint (three parts, a page for the end frame) takes `total` bytes exactly: a part
    whose 16 bytes of header and CRC end it on a program unit, two whose payload is 15 bytes short of one."""
    parts = total - 256  # UNIT: _fits() counts a page for the end frame
    p = parts // 48 * 16  # each part a whole number of program units
    short = {"a": 0, "b": 15, "c": 15}
    size = {"a": p, "b": p, "c": parts - 2 * p}
    return dict((k, {"v": "x" * (size[k] - 16 - short[k] - len(json.dumps({"r": {k: {"v": ""}}})))}) for k in size)


def test_a_checkpoint_of_exactly_the_room_the_ring_keeps_is_taken_and_one_unit_more_refused():
    # cosmic-ray: room()'s figures (`- 2`, `self.blocks - 3`, each `-` made `+`), _fits()'s count of a part
    # (`FHDR + n + 4`) and its bound (`total > self.room()` made `>=`): each moves the edge by a unit or more
    for every in (None, 100):  # 100: as tests and a big ring set it, room() takes blocks - 3 instead
        d = dev(6)
        log = Log(d)
        if every:
            log.every = every
        room = log.room()
        assert room == 2032, room  # (6 - 3 - 2) blocks of 2032 bytes of frames after the block header
        records = records_of(room)
        log.checkpoint(records)  # a RAM clear's: exactly the room
        d = d.reboot()
        assert log.state == records and Log(d).state == records
        log = Log(d)
        if every:
            log.every = every
        try:
            log.checkpoint(records_of(room + 32))
        except Refused as e:
            assert "more than a ring of 6 blocks" in str(e) and "(2032)" in str(e), e
        else:
            raise AssertionError("a checkpoint one unit over the room was taken (every=%r)" % every)
        assert Log(d.reboot()).state == records


def test_a_frame_of_exactly_a_blocks_room_is_written_and_one_unit_more_refused():
    # cosmic-ray: `need > self.usable()` made `>=`, and the new block's room `self.pos + need <= self.block_size`
    # made `<` (every block tried, then refused): the largest frame a block holds refused
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    big = {"a": "x" * (2032 - 16 - len(json.dumps({"r": {"big": {"a": ""}}})))}  # with header and CRC: a block's room
    log.commit(full={"big": big})
    d = d.reboot()
    assert log.pos == 2048 and Log(d).state["big"] == big, log.pos
    log = Log(d)
    seq = log.seq
    try:
        log.commit(full={"big": {"a": big["a"] + "y" * 16}})
    except Refused as e:
        assert "does not fit a flash block of 2048" in str(e), e
    else:
        raise AssertionError("a frame one unit longer than a block's room was written")
    assert log.seq == seq and Log(d.reboot()).state["big"] == big


def test_a_frame_that_fills_the_head_block_exactly_goes_in_it():
    # cosmic-ray: `self.pos + need > self.block_size` made `>=` (the frame that ends at the block's end moved to
    # the next block, or refused)
    d = dev()
    log = Log(d)
    log.every = 100
    log.commit(full={"round": {"i": -1}})
    fill_to(log, 2048 - 64)
    head = log.head
    log.commit(patch={"round": {"s": "x" * (64 - 43)}})
    assert (log.head, log.pos) == (head, 2048), (head, log.head, log.pos)
    log.commit(patch={"round": {"i": 1}})
    assert log.head == (head + 1) % 6 and Log(d.reboot()).state["round"]["i"] == 1


def test_last_entry_counts_the_entries_an_atomic_block_holds_the_last_of_them():
    # cosmic-ray: last_entry()'s `held[3][-1][0]` (the last held entry's seq) made [0] or [1], its tests of
    # what is held made `or` or negated
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}}, entries=[entry(1), entry(2)])
    assert log.last_entry() == 2
    with log.atomic():
        log.commit(patch={"round": {"i": 0}})
        assert log.last_entry() == 2  # records held, no entry: the committed journal's
        log.commit(entries=[entry(3, "a"), entry(4, "b")])
        log.commit(entries=[entry(5, "c")])
        assert log.last_entry() == 5
    assert log.last_entry() == log.jseq == 5


def test_adopt_replaces_a_record_present_and_creates_none():
    # cosmic-ray: adopt()'s `if name in self.state` negated
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    mine = {"i": -1}
    log.adopt("round", mine)
    log.adopt("never", {"x": 1})
    assert log.get("round") is mine and log.names() == ["round"]


def test_a_patch_of_a_record_never_saved_whole_is_a_value_error_naming_it_and_writes_nothing():
    # cosmic-ray: the message's `%` made `//` (a TypeError, not the refusal the caller catches)
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    seq, programs = log.seq, d.programs
    for args in ({"patch": {"meters": {"in": 1}}}, {"deep": {"meters": {"in": {"a": 1}}}}):
        try:
            log.commit(**args)
        except ValueError as e:
            assert str(e) == "record 'meters': a patch needs the record saved whole first", e
        else:
            raise AssertionError("%r was taken" % args)
    assert (log.seq, d.programs) == (seq, programs) and log.names() == ["round"]


def test_a_checkpoint_of_a_damaged_log_keeps_whether_its_configuration_was_lost():
    # cosmic-ray: checkpoint()'s `if self.vital_lost:` negated: the end frame said the configuration lost where
    # the damage held none of it, and not where it did
    for config_hit in (True, False):
        d = dev()
        log = Log(d, vital="config")
        log.commit(full={"config": {"game": "a", "x": 1}, "round": {"i": -1}})
        if config_hit:
            log.commit(patch={"config": {"x": 2}})
        else:
            log.commit(patch={"round": {"hit": 1}})
        steps(log, 3)
        frames = [f for f in log_frames(d) if f[5] and ("config" if config_hit else "round") in f[5].get("p", {})]
        block, off, flags, seq, n, obj = frames[0]
        flip(d, block, off + 12 + n // 2)
        log = Log(d.reboot(), vital="config")
        assert log.problem and log.vital_lost == config_hit, (config_hit, log.problem, log.vital_lost)
        log.checkpoint()  # the state restated, the problem kept: no RAM clear
        got = Log(d.reboot(), vital="config")
        assert got.problem == log.problem and got.vital_lost == config_hit, (config_hit, got.problem, got.vital_lost)


def test_a_frame_no_block_has_room_for_after_its_checkpoint_is_refused_never_programmed_past_the_block():
    # cosmic-ray: the check after the search for a block (`self.pos + need > self.block_size` made `-`): a ring
    # whose every new block starts with a checkpoint (every = 1; the firmware's is 2 or more) leaves each block too
    # little room for the frame, which was then programmed past the end of its block, over the next one; and the
    # refusal's bytes left (`self.block_size - self.pos` made `+`)
    d = dev()
    log = Log(d)
    log.every = 1
    log.commit(full={"a": {"v": "a" * 1400}})
    try:
        log.commit(full={"b": {"v": "b" * 900}})
    except Refused as e:
        n = len(json.dumps({"r": {"b": {"v": "b" * 900}}}))
        assert str(e) == "a frame of %d bytes does not fit the ring's next block (%d bytes left)" % (n, 2048 - log.pos), e
    else:
        raise AssertionError("a frame longer than any block's room after its checkpoint was written")
    got = Log(d.reboot())
    assert got.problem == "" and got.names() == ["a"] and got.state["a"]["v"] == "a" * 1400, (got.problem, got.names())


def seen(log):
    return (log.head, log.bseq, log.pos, log.seq, log.jseq, log.torn, log.lost, log.problem, log.vital_lost, log.ckpt,
            log._ack, log.frames, log.depth, log.state)


def test_what_a_fresh_log_a_first_commit_and_a_reboot_leave_every_figure_exactly():
    # cosmic-ray: the first values Log sets (head -1, bseq, pos, seq, jseq, torn, lost, frames, depth, ckpt, _ack
    # 0; problem '', vital_lost False) each moved by one or flipped, and frames counted by 2 or 0
    d = dev()
    log = Log(d, vital="config")
    assert seen(log) == (-1, 0, 0, 0, 0, 0, 0, "", False, 0, 0, 0, 0, {}), seen(log)
    log.commit(full={"round": {"i": 1}}, entries=[entry(1)])  # the fresh log's checkpoint, then the commit
    assert seen(log) == (0, 1, 288, 2, 1, 0, 0, "", False, 1, 0, 2, 0, {"round": {"i": 1}}), seen(log)
    log = Log(d.reboot(), vital="config")
    assert seen(log) == (0, 1, 288, 2, 1, 0, 0, "", False, 1, 0, 0, 0, {"round": {"i": 1}}), seen(log)


def test_an_exception_inside_an_atomic_block_goes_out_of_it_and_nothing_of_the_block_is_written():
    # cosmic-ray: _Atomic.__exit__'s `return False` made True (the exception swallowed), its `kind is None`
    # and `held is not None` tests, and the nesting count
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    seq = log.seq
    try:
        with log.atomic():
            log.commit(patch={"round": {"i": 1}}, entries=[entry(1)])
            with log.atomic():
                log.commit(patch={"round": {"j": 2}})
            assert log.seq == seq and log.depth == 1  # the inner block's end writes nothing
            raise KeyError("the step failed")
    except KeyError:
        pass
    else:
        raise AssertionError("the exception was swallowed by the atomic block")
    assert (log.seq, log.depth, log.held, log.state) == (seq, 0, None, {"round": {"i": -1}})
    with log.atomic():
        pass  # holds nothing: writes nothing
    assert log.seq == seq
    with log.atomic():
        log.commit(patch={"round": {"i": 1}})
        with log.atomic():
            log.commit(patch={"round": {"j": 2}}, entries=[entry(1)])
    assert log.seq == seq + 1 and Log(d.reboot()).state == {"round": {"i": 1, "j": 2}} and log.jseq == 1


def test_the_last_of_three_entries_is_the_journals_seq_after_a_commit_and_after_a_checkpoint():
    # cosmic-ray: `self.jseq = entries[-1][0]` made [0], [1] or [-2], in _commit() and in checkpoint(): with one
    # or two entries some of them read the same entry
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}}, entries=[entry(1), entry(2), entry(3)])
    d = d.reboot()
    log = Log(d)
    assert log.jseq == 3
    log.checkpoint(entries=[entry(4), entry(5), entry(6)])
    assert log.jseq == 6 and log.last_entry() == 6 and Log(d.reboot()).jseq == 6


def test_a_record_saved_whole_and_patched_in_one_commit_needs_no_earlier_save():
    # cosmic-ray: the patch check's `(full or ())` made `and` (a record saved whole in the same frame refused)
    d = dev()
    log = Log(d)
    log.commit(full={"meters": {"in": 1, "out": 2}}, patch={"meters": {"in": 5}})
    assert log.state["meters"] == {"in": 5, "out": 2} and Log(d.reboot()).state["meters"] == {"in": 5, "out": 2}


def test_a_heap_that_cannot_hold_a_frames_text_is_a_memory_error_where_no_stream_can_take_it(monkeypatch):
    # cosmic-ray: `if not STREAM: raise` negated: where json.dump cannot write to the page buffer (CPython, a
    # MicroPython without io.IOBase) the MemoryError became a TypeError out of the half-staged buffer
    import tablectl.storage.writer as writer
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    seq, programs = log.seq, d.programs

    def dumps(obj):
        raise MemoryError("no block of heap as long as the text")

    monkeypatch.setattr(writer.json, "dumps", dumps)
    try:
        log.commit(patch={"round": {"i": 1}})
    except MemoryError:
        pass
    else:
        raise AssertionError("a frame whose text the heap cannot hold was taken")
    monkeypatch.undo()
    assert (log.seq, d.programs) == (seq, programs) and Log(d.reboot()).state == {"round": {"i": -1}}


def test_only_the_first_frame_after_a_torn_write_acknowledges_it():
    # cosmic-ray: _frame()'s `if flags & F_ACK: self._ack = 0` negated, and 0 made -1: every later frame
    # acknowledged the torn write again, or a torn write at seq -1
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 2)
    d = d.cut_during(1, lambda: log.commit(patch={"round": {"i": 100}}))
    log = Log(d)
    torn = log.torn
    log.commit(patch={"round": {"i": 5}})
    log.commit(patch={"round": {"i": 6}})
    log.checkpoint()
    acks = [(f[2] & F_ACK, f[5].get("v")) for f in log_frames(d) if f[5] is not None and f[3] > torn]
    assert acks[0] == (F_ACK, torn) and all(a == (0, None) for a in acks[1:]), acks
    assert log._ack == 0


def test_a_ram_clear_of_a_log_whose_configuration_was_lost_says_it_is_lost_no_more():
    # cosmic-ray: checkpoint()'s `self._vdamage = self.vital_lost = False` made True for a RAM clear
    d = dev()
    log = Log(d, vital="config")
    log.commit(full={"config": {"game": "a", "x": 1}, "round": {"i": -1}})
    log.commit(patch={"config": {"x": 2}})
    steps(log, 3)
    block, off, flags, seq, n, obj = [f for f in log_frames(d) if f[5] and "config" in f[5].get("p", {})][0]
    flip(d, block, off + 12 + n // 2)
    d = d.reboot()
    log = Log(d, vital="config")
    assert log.problem and log.vital_lost
    log.checkpoint({"config": {"game": "a", "x": 9}})  # a RAM clear with the configuration set again
    assert log.problem == "" and not log.vital_lost
    got = Log(d.reboot(), vital="config")
    assert got.problem == "" and not got.vital_lost and got.state == {"config": {"game": "a", "x": 9}}


def test_the_smallest_geometry_the_log_takes_and_each_one_a_step_past_it():
    # ring.py, by hand ahead of its run: each bound of the device check moved by one (5 blocks, 1 KB, a block a
    # multiple of 256 bytes, a program unit dividing 256)
    for blocks, size, prog in ((5, 1024, 16), (5, 1024, 256), (5, 1024, 1), (5, 1280, 128)):
        log = Log(RamBlockDev(block_size=size, blocks=blocks, prog=prog))
        log.commit(full={"round": {"i": 1}})
        assert (log.blocks, log.block_size, log.prog) == (blocks, size, prog)
    for blocks, size, prog in ((4, 1024, 16), (5, 768, 16), (5, 1024 + 128, 16), (5, 1024, 512), (5, 1024, 48)):
        try:
            Log(RamBlockDev(block_size=size, blocks=blocks, prog=prog))
        except ValueError as e:
            assert str(e).startswith("flash: %d blocks of %d bytes, program unit %d: " % (blocks, size, prog)), e
        else:
            raise AssertionError("flash of %d blocks of %d bytes, unit %d taken" % (blocks, size, prog))


def random_commit(rnd, names):
    """One commit's arguments of the kinds Store makes: whole values, patches, deep patches, removals."""
    name = rnd.choice(names)
    k = rnd.random()
    if k < 0.3:
        return {"full": {name: {"a": {"x": rnd.randint(0, 9)}, "b": rnd.randint(0, 9)}}}
    if k < 0.55:
        return {"patch": {name: {rnd.choice("ab"): {"x": rnd.randint(0, 9)}}}}
    if k < 0.8:
        return {"deep": {name: {rnd.choice("ab"): {rnd.choice("xy"): rnd.randint(0, 9)}}}}
    return {"gone": [name]}


def test_an_atomic_block_leaves_the_state_its_commits_leave_one_by_one_and_value_follows_it():
    # records.py, by hand ahead of its run: hold() and held_value() (what an atomic() block folds its commits
    # into) against the same commits written one frame each, for seeded random runs of every kind of commit
    import random
    from tablectl.store import copy
    for seed in range(60):
        rnd = random.Random(seed)
        names = ["m", "n"]
        one, folded = Log(dev()), Log(dev())
        for log in (one, folded):
            log.commit(full={"m": {"a": {"x": 0}, "b": 0}, "n": {"a": {"x": 1}, "b": 1}})
        with folded.atomic():
            for step in range(rnd.randint(1, 8)):
                args = random_commit(rnd, names)
                try:
                    one.commit(**copy(args))
                except (ValueError, LogError, TypeError, AttributeError):
                    continue  # a patch of a record removed, or of a key holding no dict: not a commit Store makes
                folded.commit(**copy(args))
                for name in names:
                    assert folded.value(name) == one.get(name), (seed, step, name, folded.value(name), one.get(name))
        assert folded.state == one.state, (seed, folded.state, one.state)
        before = copy(folded.state)
        try:
            with folded.atomic():  # a block that fails: what value() and hold() made of it touches no record
                for step in range(4):
                    folded.commit(**random_commit(rnd, ["m", "n"]))
                    folded.value("m"), folded.value("n")
                raise KeyError("the step failed")
        except (KeyError, ValueError, LogError, TypeError, AttributeError):
            pass
        assert folded.state == before, (seed, folded.state, before)
        assert Log(folded.dev.reboot()).state == one.state, seed


def test_idle_says_it_did_nothing_while_the_block_ahead_holds_live_state():
    # cosmic-ray: idle()'s `return False  # live state there` made True: a caller that runs idle() until it
    # says it did nothing (`while log.idle()`) never stopped, though nothing was erased or written
    d = dev(5)
    log = Log(d)
    log.commit(full={"round": {"i": -1, "pad": "x" * 100}})
    log.every = 100  # no checkpoint comes: the ring fills with live state
    for i in range(5000):
        ahead = (log.head + 1) % 5
        if log._bseq(ahead) >= log.ckpt > 0 and log.pos * 2 < log.block_size:
            break
        steps(log, 1, i)
    erases, seq = d.erases, log.seq
    assert log.idle() is False and (d.erases, log.seq) == (erases, seq)


def test_no_entries_asked_reads_none_and_counts_no_damage():
    # ring.py's first run: entries()'s `n <= 0` made `<= -1`: entries(0) read the newest block and counted its
    # damaged journal frames, which the caller then reported as damage met
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 3)
    block, off, flags, seq, n, obj = log_frames(d)[-2]
    flip(d, block, off + 12 + n // 2)
    log = Log(d.reboot())
    assert log.entries(0) == ([], 0) and log.entries(-1) == ([], 0)
    assert log.entries(5)[1] == 1


def test_a_frame_whose_crcs_are_right_but_whose_payload_is_no_json_is_damage_never_a_crash():
    # ring.py's first run: _payload()'s `except (ValueError, UnicodeError)` replaced: a payload that is not
    # JSON, or not UTF-8, with both CRCs right (a firmware that did not write it) raised out of boot
    import struct
    from tablectl.crc import crc32
    for junk in (b"x", b"\xff\xfe"):
        d = dev()
        log = Log(d)
        log.commit(full={"round": {"i": -1}})
        steps(log, 3)
        block, off, flags, seq, n, obj = log_frames(d)[-2]
        start = block * d.block_size + off
        hcrc = struct.unpack_from("<I", d.data, start + 8)[0]
        payload = (junk * n)[:n]
        d.data[start + 12:start + 12 + n] = payload
        d.data[start + 12 + n:start + 16 + n] = struct.pack("<I", crc32(payload, hcrc))
        try:
            got = Log(d.reboot())
        except Exception as e:
            raise AssertionError("%r: boot raised %r" % (junk, e))
        assert "damaged flash after saved frame" in got.problem, (junk, got.problem)


def test_payloads_gives_every_frame_of_the_ring_oldest_first_not_only_the_head_blocks():
    # ring.py's first run: payloads()'s walk back to the oldest block never run (ZeroIterationForLoop): only the
    # head block's frames were given
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 60)
    assert log.bseq > 2
    want = [(f[2], f[5]) for f in log_frames(d)]
    assert list(log.payloads()) == want and len(set(f[0] for f in log_frames(d))) > 1


def test_entries_reads_back_only_as_far_as_the_entries_asked_for_need():
    # ring.py's second run: entries()'s `len(out) >= n` made `>`: it never stopped at the block that completed
    # the n entries, read the whole ring and counted the damage of blocks older than any entry it gave; and
    # `n - len(out)` made `+`: an older block gave more entries than the n still needed
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 90)
    frames = log_frames(d)
    blocks = []  # the ring's blocks oldest first, each with its entries
    for block, off, flags, seq, n, obj in frames:
        if not blocks or blocks[-1][0] != block:
            blocks.append((block, []))
        blocks[-1][1].extend(obj.get("j", ()))
    assert len(blocks) >= 4 and blocks[-1][0] == log.head
    block, off, flags, seq, n, obj = [f for f in frames if f[0] == blocks[0][0] and "j" in f[5]][0]
    flip(d, block, off + 12 + n // 2)  # damage in the oldest block
    log = Log(d.reboot())
    newer = blocks[-1][1]
    older = blocks[-2][1] + newer
    for k in (1, len(newer), len(newer) + 1, len(older)):  # the head block's, then one block back
        assert log.entries(k) == (older[len(older) - k:], 0), k
    assert log.entries(1000)[1] == 1  # the whole ring read: the damaged frame met


def test_programs_counts_each_program_the_device_receives():
    # ring.py's first run: `self.programs = 0` made 1 and `self.programs += 1` made `+= 2`: the figure the
    # benchmarks report as flash programs (tools/bench/mp/fwsession.py) was off from what the flash received
    d = dev()
    log = Log(d)
    assert log.programs == d.programs == 0
    log.commit(full={"round": {"i": -1}})
    steps(log, 60)  # across blocks, a checkpoint among them
    assert log.programs == d.programs > 60
    d = d.reboot()
    log = Log(d)
    log.commit(patch={"round": {"i": 0}})
    assert log.programs == d.programs == 1


def test_a_programmed_byte_in_the_header_slot_after_a_blocks_last_frame_is_damage_also_in_its_last_16_bytes():
    # ring.py's first run: _frames()'s `off + FHDR + 4 <= size` made `<` (or `+ 5`): the slot of a block's last
    # 16 bytes, where no frame fits but a header is read, was never read, so a byte programmed there after
    # a block's last frame passed for erased flash, where it is damage in any slot before it
    for tail in (32, 16):
        d = dev()
        log = Log(d)
        log.commit(full={"round": {"i": -1}})
        fill_to(log, d.block_size - tail)
        block = log.head
        log.commit(patch={"round": {"s": "x" * 40}})  # no room left: a new block
        assert log.head != block
        flip(d, block, d.block_size - tail + 2, 0x01)
        got = Log(d.reboot())
        assert "damaged flash after saved frame" in got.problem, (tail, got.problem)


def test_a_block_whose_frames_end_in_its_last_16_bytes_reads_as_sound_with_a_finer_program_unit():
    # ring.py's second run: _frames()'s `off + FHDR + 4 <= size` made `- 4`: with a program unit below 16 a
    # header slot in the block's last 16 bytes was read, 12 bytes running past the block into the next one,
    # and taken for damage on sound flash; made `+ 3`: the last 15 bytes, where no frame fits, read as a
    # header slot, so that a head block filled to there was resumed at it, not taken as full
    for prog in (1, 4, 8):
        for tail in (8, 12, 15):
            if tail % prog:
                continue
            d = RamBlockDev(block_size=2048, blocks=6, prog=prog)
            log = Log(d)
            log.commit(full={"round": {"i": -1}})
            fill_to(log, d.block_size - tail)
            block = log.head
            assert Log(d.reboot()).pos == d.block_size, (prog, tail)  # full: no frame fits in what is left
            d = d.reboot()
            log = Log(d)
            log.commit(patch={"round": {"i": 7}})  # no room left: a new block
            assert log.head != block
            got = Log(d.reboot())
            assert got.problem == "" and got.state["round"]["i"] == 7, (prog, tail, got.problem)


def test_a_header_whose_frame_would_end_one_byte_past_its_block_is_no_frame():
    # ring.py's second run: _frames()'s `align(off + FHDR + n + 4) <= size` made `+ 3`: a header (its CRC right)
    # whose frame runs one byte past the block was taken for a frame: its seq counted, and the head block
    # given up (pos past its end) where the original takes it for a torn write and goes on in the block
    from tablectl.storage.frame import pack_header
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 5)
    block, pos, seq = log.head, log.pos, log.seq
    hdr = bytearray(12)
    pack_header(hdr, d.block_size - pos - 16 + 1, 1, seq + 1)
    at = block * d.block_size + pos
    d.data[at:at + 12] = hdr
    got = Log(d.reboot())
    assert (got.problem, got.torn, got.seq, got.head) == ("", seq, seq, block)
    assert pos < got.pos < d.block_size
    got.commit(patch={"round": {"i": 9}})
    assert got.head == block and Log(d.reboot()).state["round"]["i"] == 9


def entries_by_block(d):
    out = {}
    for block, off, flags, seq, n, obj in log_frames(d):
        out.setdefault(block, []).extend((obj or {}).get("j", ()))
    return out


def test_the_ring_is_read_back_from_the_head_only_to_the_first_block_whose_header_breaks_it():
    # ring.py's second run: _ring()'s `bseq < 1 or ...` made `and`, or `bseq < 0`: the walk back from the head
    # went past a block whose header does not continue the ring (damaged, or before the first block of a ring
    # that never wrapped), and entries() and payloads() gave that block's frames, an older lap's or a copy's
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 10)
    want, frames = entries_by_block(d)[0], len(log_frames(d))
    last = d.blocks - 1  # the block before bseq 1: a copy of block 0 there, its header damaged
    d.data[last * d.block_size:(last + 1) * d.block_size] = d.data[:d.block_size]
    flip(d, last, 9)
    log = Log(d.reboot())
    assert log.entries(1000) == (want, 0) and len(list(log.payloads())) == frames

    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 150)  # the ring wrapped
    ring = list(log._ring())
    assert len(ring) == d.blocks
    by_block = entries_by_block(d)
    flip(d, ring[3][0], 9)  # the fourth block back from the head: its header damaged
    log = Log(d.reboot())
    newer = [block for block, bseq in reversed(ring[:3])]
    want = [e for block in newer for e in by_block[block]]
    assert log.entries(1000) == (want, 0)
    assert len(list(log.payloads())) == sum(1 for f in log_frames(d) if f[0] in newer)


def test_entries_across_a_frame_whose_header_is_damaged_count_it_and_give_the_rest():
    # ring.py's second run: entries()'s `crc is not None and flags & F_ENT` made `or`: a damaged header (flags
    # None) raised a TypeError out of the journal's read instead of being counted as damage
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 5)
    frames = log_frames(d)
    block, off, flags, seq, n, obj = frames[-3]
    want = [e for f in frames if f is not frames[-3] for e in (f[5] or {}).get("j", ())]
    flip(d, block, off + 1)  # its length: the header's CRC fails
    log = Log(d.reboot())
    assert log.entries(1000) == (want, 1)


class ReadBounded(RamBlockDev):
    """A flash that refuses a read past its block, as a partition's last block does."""

    def readblocks(self, block, buf, offset=0):
        if offset + len(buf) > self.block_size:
            raise IndexError("read past block %d: offset %d + %d" % (block, offset, len(buf)))
        RamBlockDev.readblocks(self, block, buf, offset)


def test_a_frame_ending_at_its_blocks_end_is_read_without_reading_past_the_block():
    # ring.py's second run: _payload()'s `bytearray(n + 4)` made `n + 5`: the payload and its CRC read with one
    # byte more, past the block where the frame ends it (the partition's end, for its last block)
    d = ReadBounded(block_size=2048, blocks=6, prog=16)
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 3)
    fill_to(log, d.block_size)
    log.commit(patch={"round": {"i": 8}}, entries=[entry(log.jseq + 1)])
    got = Log(ReadBounded(d.block_size, d.blocks, d.data, d.prog))  # a boot
    assert got.problem == "" and got.state["round"]["i"] == 8 and len(got.entries(100)[0]) == 4


def test_a_block_header_is_valid_only_with_the_magic_the_version_and_its_crc_all_right():
    # frame.py's run: block_seq()'s `h[:4] != MAGIC or h[4] != VERSION` made `and`: a header of another version
    # (or with another magic) whose CRC is right was taken for a block of this layout
    import struct
    from tablectl.crc import crc32
    from tablectl.storage.frame import MAGIC, VERSION, block_seq, pack_block_header

    def header(magic, version, bseq=7):
        h = bytearray(magic + bytes((version, 0, 0, 0)) + struct.pack("<I", bseq) + b"\0\0\0\0")
        struct.pack_into("<I", h, 12, crc32(memoryview(h)[:12]))
        return h

    h = bytearray(16)
    pack_block_header(h, 7)
    assert h == header(MAGIC, VERSION) and block_seq(h) == 7
    assert block_seq(header(MAGIC, VERSION + 1)) == 0
    assert block_seq(header(b"TLOH", VERSION)) == 0
    assert block_seq(header(b"TLOH", VERSION + 1)) == 0
    h[13] ^= 1
    assert block_seq(h) == 0


class PageBounded(RamBlockDev):
    """A flash that refuses a program longer than a page (the page buffer's UNIT), and keeps each length."""

    def writeblocks(self, block, buf, offset=None):
        self.lengths.append(len(buf))
        if len(buf) > 256:
            raise IndexError("a program of %d bytes" % len(buf))
        RamBlockDev.writeblocks(self, block, buf, offset)


def test_a_long_frame_is_programmed_a_page_at_a_time_from_the_one_page_buffer():
    # frame.py's run: raw()'s `size - self.fill` made `+`: a streamed frame's bytes went on into the page buffer
    # past its end (a bytearray grows), and the whole frame was programmed at once from a buffer of its length
    d = PageBounded(block_size=4096, blocks=6, prog=16)
    d.lengths = []
    log = Log(d)
    log.commit(full={"round": {"i": -1, "s": "x" * 1500}})  # one frame of six pages and more
    assert len(d.lengths) >= 7 and max(d.lengths) == 256 and len(log._pages.buf) == 256
    assert Log(d.reboot()).state["round"]["s"] == "x" * 1500


def test_the_stream_reader_gives_a_long_payload_byte_for_byte_whatever_the_size_asked_then_checks_its_crc():
    # frame.py's run: Reader.readinto()'s `buf[at + i]` made `at - i`: on MicroPython json.load asks one byte at a
    # time (i is 0), so only a caller asking more tells; Reader's contract is any size (io's readinto)
    # (and refill()'s `k == CHUNK` negated: a last chunk shorter than the buffer read and CRC'd whole)
    from tablectl.storage.frame import CHUNK
    for extra in range(CHUNK):
        reader_reads(extra)


def reader_reads(extra):
    from tablectl.storage.frame import FHDR, Reader
    d = dev()
    log = Log(d)
    log.commit(full={"round": {"i": -1, "s": "y" * (700 + extra)}})
    block, off, flags, seq, n, obj = log_frames(d)[-1]
    start = block * d.block_size + off
    payload = bytes(d.data[start + FHDR:start + FHDR + n])
    hcrc = int.from_bytes(d.data[start + 8:start + 12], "little")
    for ask in (1, 3, 32, 33, 1000):
        reader = Reader(d, block, off + FHDR, n, hcrc)
        got = bytearray()
        buf = bytearray(ask)
        while True:
            k = reader.readinto(buf)
            if not k:
                break
            got += buf[:k]
        assert bytes(got) == payload and reader.rest(), ask
    flip(d, block, off + FHDR + n // 2, 0x01)
    reader = Reader(d, block, off + FHDR, n, hcrc)
    reader.readinto(bytearray(10))
    assert not reader.rest()


def test_frames_about_a_page_long_each_byte_length_either_side_are_written_and_read_back():
    # frame.py's run: write()'s `fill + n <= UNIT - 4` made `- 3`: a frame of 253 bytes before its CRC was staged
    # with no room left in the page for the CRC
    import json as _json
    for n in range(234, 250):  # header and payload from 246 to 261 bytes: either side of a page less its CRC
        d = dev()
        log = Log(d)
        log.commit(full={"round": {"i": -1}})
        value = "x" * (n - len(_json.dumps({"p": {"round": {"s": ""}}})))
        log.commit(patch={"round": {"s": value}})
        assert log_frames(d)[-1][4] == n
        assert Log(d.reboot()).state["round"]["s"] == value, n
