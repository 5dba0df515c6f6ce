"""The storage writer, ring, frame and records against the survivors of `make mutate` over them (issue 23):
each test here names the mutant it kills, seen failing with it applied by hand."""
from harness.ramblockdev import RamBlockDev, flip, log_frames
from tablectl.storage import Log


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
