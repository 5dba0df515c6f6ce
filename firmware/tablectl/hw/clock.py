"""Tick arithmetic that behaves like MicroPython's on CPython too, and a virtual clock for the sim board and tests."""
import time

try:
    ticks_ms = time.ticks_ms
    ticks_add = time.ticks_add
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython: the same 2**30 wrap as MicroPython's ports
    _PERIOD = 1 << 30
    _HALF = _PERIOD >> 1

    def ticks_ms():
        return int(time.monotonic() * 1000) & (_PERIOD - 1)

    def ticks_add(t, delta):
        return (t + delta) & (_PERIOD - 1)

    def ticks_diff(a, b):
        return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF


class VirtualClock:
    """A ticks_ms() that moves only when told (advance), so tests decide what time it is."""

    def __init__(self, start=0):
        self.now = start

    def ticks_ms(self):
        return self.now

    def advance(self, ms):
        self.now = ticks_add(self.now, ms)
        return self.now



def sleep_ms(ms):
    """asyncio.sleep_ms on MicroPython, asyncio.sleep in seconds on CPython (imported when first used,
    so the drivers import without asyncio)."""
    import asyncio
    fn = getattr(asyncio, "sleep_ms", None)
    return fn(ms) if fn is not None else asyncio.sleep(ms / 1000)
