"""Lamp board: a chain of lamps (WS2812 via neopixel, or 74HC595 shift registers) addressed by spot id."""
from tablectl import const

OFF = const(0)
WIN = const(1)
PUSH = const(2)  # fan-tan ties (FT-8): shown only where the lamps have colour
BET = const(3)   # progressive: a bet on the seat's sensor (CSP-10.1), told apart from a seat that won
NO_LAMP = const(255)
_LEVELS = "lamp levels 0-%d only"  # a level none of a chain's colours is


class Lamps:
    """`backend` takes the whole chain at once (write(levels)). wire(layout, spot_ids) says which spot
    each lamp is wired under. set() only changes the buffer; show() sends it (one bus transfer)."""

    def __init__(self, backend, count):
        self.backend = backend
        self.count = count
        self.levels = bytearray(count)
        self._off = bytes(count)  # clear() copies it in one slice assignment, allocating nothing
        self.wired = 0          # lamps the layout covers (the first `wired` of the chain)
        self._ids = ()          # the controller's spot ids (the core's sequence, not copied)
        self._spot_of = b""     # lamp index -> position in _ids, NO_LAMP where none
        self._layout = ()

    def wire(self, layout, spot_ids):
        """Map a controller's spots (spot_ids, the core's order) onto this chain wired per `layout`
        (spot ids in lamp order: any iterable, taken one id at a time). Returns bytes: position k holds
        the lamp index of spot_ids[k], or NO_LAMP. No id string is kept: a lamp's spot is a position
        in spot_ids (name(i) reads it back)."""
        table = bytearray(len(spot_ids))
        for k in range(len(table)):
            table[k] = NO_LAMP  # until a lamp is found under that spot
        spot_of = bytearray(self.count)
        n = 0
        for spot_id in layout:
            if n >= self.count:
                break  # a chain cut short: the spots after its last lamp have none
            try:
                k = spot_ids.index(spot_id)
            except ValueError:
                k = NO_LAMP  # a spot this controller does not have (a layout shared by games)
            if k != NO_LAMP:
                table[k] = n
            spot_of[n] = k
            n += 1
        self._ids = spot_ids
        self._spot_of = bytes(spot_of)
        self.wired = n
        self._layout = None
        return bytes(table)

    def name(self, i):
        """The spot id under lamp i ('' where none)."""
        k = self._spot_of[i] if i < self.wired else NO_LAMP
        return "" if k == NO_LAMP else self._ids[k]

    @property
    def layout(self):
        """The spot id under each wired lamp ('' where none), as a tuple for the simulator and tests:
        made when first asked for, then kept (the same object) until the next wire()."""
        if self._layout is None:
            self._layout = tuple(self.name(i) for i in range(self.wired))
        return self._layout

    def set(self, i, level):
        if i != NO_LAMP:
            self.levels[i] = level

    def clear(self):
        self.levels[:] = self._off

    def snapshot(self):
        """The picture the chain holds now, for restore() after a test lit other lamps."""
        return bytes(self.levels)

    def restore(self, picture):
        """Show again a picture snapshot() took."""
        self.levels[:] = picture
        self.show()

    def lit(self):
        """Spot ids lit, with their level: what the tests and the simulator read."""
        return dict((self.name(i), self.levels[i]) for i in range(self.wired) if self.levels[i])

    def show(self):
        self.backend.write(self.levels)


class NeoBackend:
    """WS2812 chain through a neopixel.NeoPixel-like object (np[i] = (r, g, b); np.write()). Only the lamps
    whose level changed since the last write are set again (a np[i] is a Python call on a board's neopixel,
    120 of them a quarter of a key's time); the chain gets the same bytes. Nothing else may write np."""

    # off, win (amber), push (sky blue: told apart from a win), bet (green: a chip on the seat, not a win)
    COLOURS = ((0, 0, 0), (255, 160, 0), (64, 160, 255), (40, 200, 90))

    def __init__(self, np):
        self.np = np
        self._sent = None  # the levels np holds (None: not known yet, every lamp is set)
        # each lit level as a one-byte pattern, for bytearray.find: made once, found without allocating
        self._lit = tuple(bytes((v,)) for v in range(1, len(self.COLOURS)))

    def write(self, levels):
        np = self.np
        sent = self._sent
        colours = self.COLOURS
        if sent is None or len(sent) != len(levels):  # the chain's state not known yet: every lamp is set
            for i in range(len(levels)):
                v = levels[i]
                if v >= len(colours):
                    raise ValueError(_LEVELS % (len(colours) - 1))
                np[i] = colours[v]
            self._sent = bytearray(levels)
        elif sent != levels:
            # a lamp that changed is lit now or was lit before: found by find() in C, a few a round, where a
            # Python loop over the whole chain (120 lamps) took 100k instructions a key
            for buf in (levels, sent):
                for lit in self._lit:
                    i = buf.find(lit)
                    while i >= 0:
                        v = levels[i]
                        if sent[i] != v:
                            np[i] = colours[v]
                            sent[i] = v
                        i = buf.find(lit, i + 1)
            if sent != levels:  # a level none of the colours is: no lamp shows it
                raise ValueError(_LEVELS % (len(colours) - 1))
        np.write()


class ShiftBackend:
    """74HC595 chain on SPI (MOSI -> SER, SCK -> SRCLK) with a latch pin (RCLK). Lamp i is output Q(i%8)
    of register i//8, register 0 nearest the MCU: the last register's byte is shifted out first, MSB
    (Q7) first. WIN and BET light a lamp (a plain lamp has no colour: PUSH stays dark; a progressive table
    with plain lamps tells a winner from a bet by the display)."""

    def __init__(self, spi, latch, count):
        self.spi = spi
        self.latch = latch
        self.buf = bytearray((count + 7) // 8)
        latch.value(0)

    def write(self, levels):
        buf = self.buf
        n = len(buf)
        for k in range(n):
            buf[k] = 0
        for i in range(len(levels)):
            if levels[i] == WIN or levels[i] == BET:
                buf[n - 1 - (i >> 3)] |= 1 << (i & 7)
        self.spi.write(buf)
        self.latch.value(1)  # rising RCLK copies the shift registers to the outputs
        self.latch.value(0)
