"""make bench's simheap (tools/bench/simheap.py): the bisection of the heap sizes finds the smallest passing one
in as few sessions as the steps allow, every step between its bounds and every outcome (a session is a
simulator started and its reports read: each one it saves is seconds of the bench)."""
import math
import pathlib

import pytest

from bench.__main__ import load

simheap = load(pathlib.Path(load.__code__.co_filename).parent / "simheap.py")
STEPS = list(range(simheap.LO + simheap.STEP, simheap.HI + 1, simheap.STEP))  # the heaps a figure can be
MOST = math.ceil(math.log2(len(STEPS)))  # sessions a bisection of them needs at most


@pytest.mark.parametrize("passes_from", STEPS + [None])
def test_the_smallest_passing_heap_in_at_most_log2_sessions(passes_from):
    runs = []

    def run(heap_k):
        runs.append(heap_k)
        return None if passes_from is not None and heap_k >= passes_from else "out of heap at %dK" % heap_k

    k, why = simheap.smallest(run)
    assert (k, why) == ((passes_from, None) if passes_from else (None, "out of heap at %dK" % simheap.HI))
    assert len(runs) == len(set(runs)), runs  # no heap run twice
    assert len(runs) <= MOST + (passes_from in (None, simheap.HI)), runs  # the top only when nothing below passed
    assert all(simheap.LO < r <= simheap.HI and r % simheap.STEP == 0 for r in runs), runs
