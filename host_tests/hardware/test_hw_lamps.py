"""The WS2812 lamp chain's speed without a byte changed: NeoBackend sets only the lamps whose level changed since
its last write, and the chain still holds every lamp's colour; clear() and restore() set every level."""
# mp-heap: 32K
from tablectl.hw.lamps import BET, PUSH, WIN, Lamps, NeoBackend
from mptest import raises


class Np:
    """A neopixel.NeoPixel stand-in that counts the pixels set (each a Python call on a board)."""

    def __init__(self, n):
        self.px = [None] * n
        self.sets = 0
        self.writes = 0

    def __setitem__(self, i, v):
        self.sets += 1
        self.px[i] = v

    def write(self):
        self.writes += 1


def test_ws2812_chain_gets_every_lamps_colour_while_only_changed_lamps_are_set():
    n = 24
    np = Np(n)
    lamps = Lamps(NeoBackend(np), n)
    lamps.show()
    assert np.sets == n and np.px == [(0, 0, 0)] * n  # the first write: every lamp, the chain's state unknown
    x = 12345
    for step in range(300):  # pseudo-random pictures: set, clear, restore, shows with nothing changed
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        if step % 17 == 0:
            lamps.clear()
        elif step % 23 == 0:
            picture = lamps.snapshot()
            lamps.set(x % n, WIN)
            lamps.restore(picture)
        for k in range(x % 4):
            lamps.set((x >> (4 * k)) % n, (x >> (8 + k)) % 4)  # off, win, push, bet
        changed = sum(1 for i in range(n) if np.px[i] != NeoBackend.COLOURS[lamps.levels[i]])
        sets, writes = np.sets, np.writes
        lamps.show()
        for i in range(n):  # what writing every lamp would give
            assert np.px[i] == NeoBackend.COLOURS[lamps.levels[i]], (step, i)
        assert np.sets - sets == changed and np.writes == writes + 1, step


def test_clear_and_restore_set_every_level():
    np = Np(5)
    lamps = Lamps(NeoBackend(np), 5)
    for i in range(5):
        lamps.set(i, WIN if i % 2 else PUSH)
    picture = lamps.snapshot()
    lamps.clear()
    assert bytes(lamps.levels) == bytes(5) and np.writes == 0  # clear() does not show
    lamps.restore(picture)
    assert bytes(lamps.levels) == picture == bytes([PUSH, WIN, PUSH, WIN, PUSH]) and np.writes == 1
    assert np.px == [NeoBackend.COLOURS[v] for v in picture]


def test_a_long_chain_sets_only_the_lamps_that_changed_and_a_level_without_a_colour_is_refused():
    n = 120  # the sim board's chain: the lamps are found by find(), not by a loop over all of them
    np = Np(n)
    lamps = Lamps(NeoBackend(np), n)
    lamps.set(119, 9)
    assert raises(ValueError, lamps.show) == "lamp levels 0-3 only"  # the chain's first write
    lamps.clear()
    lamps.show()
    for i, level in ((0, WIN), (7, BET), (64, PUSH), (119, WIN)):
        lamps.set(i, level)
    sets = np.sets
    lamps.show()
    assert np.sets - sets == 4 and np.px[119] == NeoBackend.COLOURS[WIN] and np.px[7] == NeoBackend.COLOURS[BET]
    lamps.clear()
    lamps.set(64, BET)  # 0, 7 and 119 go off, 64 changes colour
    sets = np.sets
    lamps.show()
    assert np.sets - sets == 4 and np.px == [NeoBackend.COLOURS[v] for v in lamps.levels]
    lamps.set(3, 4)
    assert raises(ValueError, lamps.show) == "lamp levels 0-3 only"
    assert np.px[3] == NeoBackend.COLOURS[0] and np.px[64] == NeoBackend.COLOURS[BET]  # the rest as it was
