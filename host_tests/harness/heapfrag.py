"""A heap cut into pieces, as after hours of play (the storage tests that read or write a long frame in one;
a module of its own, as harness.logsteps, so that the modules not using it do not carry it on MicroPython)."""
import gc


def fragmented(piece):
    """Fill the heap with pieces of `piece` bytes, then let every other one go: the free heap is in pieces no
    longer than that. Returns what holds the rest (set it to None to give the heap back)."""
    hold = [None] * (gc.mem_free() // piece + 16)  # room for every piece the free heap can give, no more
    n = 0
    try:
        while n < len(hold):
            hold[n] = bytearray(piece)
            n += 1
    except MemoryError:
        pass
    assert n < len(hold), "the heap did not fill"
    for i in range(0, n, 2):
        hold[i] = None
    gc.collect()
    return hold
