"""The sim board's virtual hardware: pins, WS2812 chain, MAX7219 bus, text display, watchdog, service key, and
the board that wires the firmware's real drivers onto them (SimBoard). boards/sim runs it on the unix port,
boards/qemu on an emulated Cortex-M3; the tests and the simulator read and drive it there (see
boards/sim/board.py)."""

from tablectl.hw.clock import VirtualClock, ticks_ms
from tablectl.hw.lamps import Lamps, NeoBackend
from tablectl.hw.max7219 import Max7219
from tablectl.hw.outputs import Bell, Lamp, Shaker
from tablectl.hw.rtc import TickRTC
from tablectl.rules import SEATS

ROLES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "CLEAR", "ENTER",
         "SHAKE", "BELL", "CONFIRM", "VOID", "LOCK", "HIT", "HISTORY")
LAMP_COUNT = 120  # enough for the sic bo layout (117 spots)
SHAKER_MAX_MS = 8000
WDT_TIMEOUT_MS = 5000
_CODE_B = "0123456789-EHLP "


class VirtualPin:
    """A GPIO: value() reads, value(v) drives; a change notifies the board's listeners by the pin's name, and
    runs the handler irq() gave it first, as a pin's interrupt would (machine.Pin's irq, both edges)."""

    IRQ_FALLING = 4  # machine.Pin's values on the rp2 port
    IRQ_RISING = 8

    def __init__(self, board, name, v=0):
        self._board = board
        self.name = name
        self._v = v
        self._irq = None

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING):
        self._irq = handler

    def value(self, v=None):
        if v is None:
            return self._v
        v = 1 if v else 0
        if v != self._v:
            self._v = v
            if self._irq is not None:
                self._irq(self)
            self._board.changed(self.listened())

    __call__ = value

    def listened(self):
        return self.name


class ButtonPin(VirtualPin):
    """A dealer's button, named by its role: listeners hear 'button_ROLE' (the name made when it changes, so
    that twenty buttons keep no strings of their own)."""

    def listened(self):
        return "button_" + self.name


class VirtualText:
    """A character display (what tablectl.hw.lcd.Lcd offers): text(row, s), lines, cols, rows."""

    def __init__(self, board, cols=16, rows=2):
        self._board = board
        self.cols = cols
        self.rows = rows
        self.lines = [""] * rows

    def text(self, row, s):
        if not 0 <= row < self.rows:
            raise ValueError("row %d outside 0..%d" % (row, self.rows - 1))
        s = s[:self.cols]
        if s != self.lines[row]:
            self.lines[row] = s
            self._board.changed("display")


class VirtualNeoPixel:
    """A WS2812 chain (neopixel.NeoPixel's interface): np[i] = (r, g, b); write() shows the buffer. The colours
    are kept as neopixel keeps them, three bytes a lamp: buf (written) and shown (sent down the chain)."""

    def __init__(self, board, n):
        self._board = board
        self.n = n
        self.buf = bytearray(3 * n)
        self.shown = bytearray(3 * n)
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        buf = self.buf
        buf[3 * i], buf[3 * i + 1], buf[3 * i + 2] = rgb

    def __getitem__(self, i):
        return self.pixel(i, self.buf)

    def pixel(self, i, buf=None):
        """Lamp i's (r, g, b) as the chain shows it (or as `buf` holds it)."""
        b = self.shown if buf is None else buf
        return (b[3 * i], b[3 * i + 1], b[3 * i + 2])

    def write(self):
        self.writes += 1
        if self.shown != self.buf:
            self.shown[:] = self.buf  # in place: no new buffer a write
            self._board.changed("lamps")


class VirtualMax7219Bus:
    """The SPI side of a MAX7219: keeps the registers each 2-byte write sets, decodes the digits."""

    def __init__(self, board):
        self._board = board
        self.regs = bytearray(16)
        self.writes = 0

    def write(self, buf):
        self.writes += 1
        reg, val = buf[0], buf[1]
        if self.regs[reg] != val:
            self.regs[reg] = val
            if 1 <= reg <= 8:
                self._board.changed("jackpot")

    def text(self, digits=8):
        """The digits as shown, left to right, '.' after a digit whose point is lit."""
        out = ""
        for reg in range(digits, 0, -1):
            v = self.regs[reg]
            out += _CODE_B[v & 0x0F] + ("." if v & 0x80 else "")
        return out


class VirtualWDT:
    """machine.WDT's interface; records feeds; tripped() once timeout_ms pass without one."""

    def __init__(self, clock, timeout_ms=WDT_TIMEOUT_MS):
        self._clock = clock
        self.timeout_ms = timeout_ms
        self.feeds = 0
        self.last = clock()
        self.held = False

    def feed(self):
        self.feeds += 1
        self.last = self._clock()

    def hold(self):
        """LazyWdt.hold(): fed by a timer from now on (the firmware was stopped at the REPL)."""
        self.held = True
        return True

    def tripped(self):
        from tablectl.hw.clock import ticks_diff
        return not self.held and ticks_diff(self._clock(), self.last) >= self.timeout_ms


class SimBoard:
    def __init__(self, virtual_clock=False):
        self.listeners = []
        self.clock = VirtualClock() if virtual_clock else None
        self.ticks_ms = self.clock.ticks_ms if virtual_clock else ticks_ms
        self.roles = ROLES  # the dealer's buttons in panel order (the link sends them to the page)
        self.buttons = dict((r, ButtonPin(self, r, 1)) for r in ROLES)  # pulled up: 1 = released
        self.seats = [VirtualPin(self, "seat_%d" % (i + 1), 0) for i in range(SEATS)]  # 1 = chip on the sensor
        self.cover = VirtualPin(self, "cover", 1)  # the shaker cover's clip switch: 1 = clipped
        self.service_key = VirtualPin(self, "service_key", 0)  # the technician's key switch: 1 = on
        self.shaker_pin = VirtualPin(self, "shaker", 0)
        self.bell_pin = VirtualPin(self, "bell", 0)
        self.betting_pin = VirtualPin(self, "betting_lamp", 0)
        self.shaker = Shaker(self.shaker_pin, self.ticks_ms, SHAKER_MAX_MS, interlock=self.cover)
        self.bell = Bell(self.bell_pin, self.ticks_ms)
        self.betting_lamp = Lamp(self.betting_pin)
        self.neopixel = VirtualNeoPixel(self, LAMP_COUNT)
        self.lamps = Lamps(NeoBackend(self.neopixel), LAMP_COUNT)
        self.display = VirtualText(self)
        self.jackpot_bus = VirtualMax7219Bus(self)
        self.jackpot = Max7219(self.jackpot_bus, VirtualPin(self, "jackpot_cs", 1))
        self.wdt = VirtualWDT(self.ticks_ms)
        self.rtc = TickRTC(self.ticks_ms)  # the time of day, counted from the ticks: lost at a reset
        self.extra_tasks = []

    def changed(self, what):
        for fn in self.listeners:
            fn(what)

    # -- inputs ------------------------------------------------------------------------------
    def press(self, role):
        self._button(role).value(0)

    def release(self, role):
        self._button(role).value(1)

    def _button(self, role):
        if role not in self.buttons:
            raise ValueError("no button %r (roles: %s)" % (role, " ".join(ROLES)))
        return self.buttons[role]

    def set_seat(self, seat, on):
        if not 1 <= seat <= SEATS:
            raise ValueError("seat %r outside 1..%d" % (seat, SEATS))
        self.seats[seat - 1].value(1 if on else 0)

    def set_cover(self, clipped):
        self.cover.value(1 if clipped else 0)

    def set_service_key(self, on):
        self.service_key.value(1 if on else 0)

    # -- outputs -----------------------------------------------------------------------------
    def snapshot(self):
        return {
            "lamps": self.lit(),
            "display": list(self.display.lines),
            "jackpot": self.jackpot_bus.text(),
            "betting_lamp": self.betting_pin.value(),
            "shaker": self.shaker_pin.value(),
            "bell": self.bell_pin.value(),
            "seats": [p.value() for p in self.seats],
            "service_key": self.service_key.value(),
            "wdt_feeds": self.wdt.feeds,
        }

    def lit(self):
        """{spot id: level} of the lamps the chain shows now (decoded from the colours written)."""
        colours = NeoBackend.COLOURS
        lamps = self.lamps
        out = {}
        for i in range(lamps.wired):
            level = colours.index(self.neopixel.pixel(i))
            if level:
                out[lamps.name(i)] = level
        return out

    def tasks(self):
        """Extra coroutines App.run() starts: extra_tasks (a board adds its links and REPL)."""
        return list(self.extra_tasks)
