"""The storage writer against the survivors of `make mutate` on the code of the bad-header block kept (_keep)
and the copied blocks a RAM clear erases (issue 23, after issue 20's table-level fixes): each test names the
mutant it kills, seen failing with it applied by hand."""
from harness.logsteps import steps
from harness.ramblockdev import RamBlockDev, flip
from tablectl.storage import Log


def test_after_a_ram_clear_the_ring_goes_round_every_block_twice_the_once_kept_block_among_them():
    # cosmic-ray: checkpoint()'s `self._keep = -1` for a RAM clear made 1 (or 0): the clear left a block "kept",
    # and the first time the ring came round to it in the same boot the commit raised LogError on a sound log
    d = RamBlockDev(block_size=2048, blocks=6, prog=16)
    log = Log(d)
    log.commit(full={"round": {"i": -1}})
    steps(log, 40)
    head = log.head
    d = d.reboot()
    flip(d, head, 9, 0x40)  # the newest block's header: a bad header over the log's newest frames
    log = Log(d)
    assert log.problem and log._keep == head, (log.problem, log._keep, head)
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
