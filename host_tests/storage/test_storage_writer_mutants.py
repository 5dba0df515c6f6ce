"""The storage writer, ring, frame and records against the survivors of `make mutate` over them (issue 23):
each test here names the mutant it kills, seen failing with it applied by hand."""
from harness.ramblockdev import PowerCut, RamBlockDev, flip, log_frames
from tablectl.storage import F_END, Log


def dev(blocks=6):
    return RamBlockDev(block_size=2048, blocks=blocks, prog=16)


def entry(seq, event="e"):
    return [seq, 1, event, 0, 0, ""]


def steps(log, n, start=0):
    for i in range(start, start + n):
        with log.atomic():
            log.commit(patch={"round": {"i": i}})
            log.commit(entries=[entry(log.jseq + 1)])


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
    d.cut_after(1)
    try:
        log.commit(patch={"round": {"i": 100}})
    except PowerCut:
        pass
    d = d.reboot()
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
    # cosmic-ray: `self.pos * 2 >= self.block_size` made `>`: the checkpoint a block half full made due left to
    # the next frame
    for pos, due in ((1008, False), (1024, True)):
        d = dev()
        log = Log(d)
        log.commit(full={"round": {"i": -1}})
        log.every = 1  # the next block would write a checkpoint: due
        fill_to(log, pos)
        assert log.idle() and log._ready >= 0  # the erase ahead comes first
        seq = log.seq
        assert log.idle() == due and (log.seq > seq) == due, (pos, log.seq - seq)
        if due:
            assert log_frames(d)[-1][2] & F_END  # the checkpoint, in the head block still
