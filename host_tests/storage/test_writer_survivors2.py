"""The storage writer against the survivors of `make mutate` on the code of the bad-header block kept (_keep)
and the copied blocks a RAM clear erases (issue 23, after issue 20's table-level fixes): each test names the
mutant it kills, seen failing with it applied by hand."""
import pytest

from harness.logsteps import steps
from harness.ramblockdev import RamBlockDev, flip
from tablectl.storage import Log, LogError


def kept_head(n=40):
    """A log of n steps whose newest block's header then went bad over its newest frames: boot keeps that block
    (`_keep`) and tilts until a RAM clear. (flash, log, the kept block)"""
    d = RamBlockDev(block_size=2048, blocks=6, prog=16)
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, n)
    head = log.head
    d = d.reboot()
    flip(d, head, 9, 0x40)
    log = Log(d)
    assert log.problem and log._keep == head, (log.problem, log._keep, head)
    return d, log, head


def test_after_a_ram_clear_the_ring_goes_round_every_block_twice_the_once_kept_block_among_them():
    # cosmic-ray: checkpoint()'s `self._keep = -1` for a RAM clear made 1 (or 0): the clear left a block "kept",
    # and the first time the ring came round to it in the same boot the commit raised LogError on a sound log
    d, log, head = kept_head()
    log.checkpoint({"round": {"i": 0}})  # a RAM clear
    assert log.problem == ""
    start, seen = log.bseq, set()
    while log.bseq < start + 2 * d.blocks:
        steps(log, 1, log.state["round"]["i"] + 1)
        seen.add(log.head)
    assert seen == set(range(d.blocks)), seen
    i = log.state["round"]["i"]
    log = Log(d.reboot())
    assert log.problem == "" and log.state["round"]["i"] == i


def test_a_damaged_logs_own_checkpoint_never_goes_past_the_kept_block_only_a_ram_clear_does():
    # cosmic-ray: checkpoint()'s `if clear and self.problem:` made `or`: the checkpoint restating a damaged log's
    # state (no RAM clear) went past the block with a bad header over its newest frames, erasing the next block
    d, log, head = kept_head()
    after = (head + 1) % d.blocks * 2048
    image = bytes(d.data[head * 2048:after + 2048])  # the kept block and the one after it
    with pytest.raises(LogError):
        log.checkpoint()
    assert bytes(d.data[head * 2048:after + 2048]) == image
    log.checkpoint({"round": {"i": 0}})  # a RAM clear goes past it
    assert Log(d.reboot()).state == {"round": {"i": 0}}


def copied_ahead(blocks=16):
    """A log whose ring has gone round, with the block two ahead of its head overwritten by the block two behind
    it (a copy: its sequence number kept elsewhere in the ring): the table tilts until a RAM clear."""
    d = RamBlockDev(block_size=2048, blocks=blocks, prog=16)
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    while log.bseq < blocks + 3:
        steps(log, 5, log.state["round"]["i"] + 1)
    src, dst = (log.head - 2) % blocks * 2048, (log.head + 2) % blocks * 2048
    d.data[dst:dst + 2048] = d.data[src:src + 2048]
    d = d.reboot()
    log = Log(d)
    assert "copied" in log.problem and log._twins == [dst // 2048], (log.problem, log._twins)
    return d, log, dst // 2048


def test_a_ram_clear_erases_the_copied_block_but_never_a_block_of_its_own_checkpoint():
    # seen failing before the fix: a clear's checkpoint that went on into the copied block past its first block
    # (four records of 1.5 KB) had it erased as the copy once whole: the next boot found no whole checkpoint (the
    # clear's records gone, the table tilted again). cosmic-ray, before the fix: `self._bseq(block) and block !=
    # self.head` made `or`: the copied block the clear's head, erased with its end frame
    where = set()
    for n in (0, 1, 2, 3, 4):
        d, log, copy = copied_ahead()
        records = {"r%d" % k: {"s": "x" * 1500} for k in range(n)}
        log.checkpoint(records)
        again = Log(d.reboot())
        assert again.problem == "" and again.state == records, (n, again.problem)
        if copy not in [b for b, _ in again._ring()]:
            assert not again._bseq(copy), n  # the copy erased
            where.add("erased")
        else:
            where.add("head" if copy == again.head else "within")
    assert where == {"erased", "head", "within"}, where


def test_a_ram_clear_next_to_the_kept_block_is_whole_at_the_next_boot_whatever_room_its_head_block_had():
    # seen failing before the fix: the clear's first part went in the head block, its end frame past the kept
    # block (its number skipped); the next boot walked back from the new head, stopped at the kept block's bad
    # header and found no whole checkpoint: the table tilted again, the clear's records gone
    for n in (0, 1, 2, 3):
        d, log, head = kept_head(40 + 7 * n)
        log.checkpoint({"round": {"i": 0}, "config": {"game": "sicbo"}})
        again = Log(d.reboot())
        assert again.problem == "" and again.state == {"round": {"i": 0}, "config": {"game": "sicbo"}}, (n, again.problem)
