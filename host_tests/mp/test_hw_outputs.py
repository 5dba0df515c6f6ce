"""Output drivers on fake pins and buses: the exact bytes a 74HC595 chain, MAX7219, TM1637 and HD44780 get;
shaker maximum on-time and cover interlock (SB-2.1); bell pulse (SB-3.1); WS2812 colours; cents on digits."""
# mp-heap: 68K
from mptest import raises
from tablectl.hw.clock import VirtualClock
from tablectl.hw.digits import fill_cents
from tablectl.hw.lamps import NO_LAMP, PUSH, WIN, Lamps, NeoBackend, ShiftBackend
from tablectl.hw.lcd import Lcd
from tablectl.hw.max7219 import Max7219
from tablectl.hw.outputs import Bell, Shaker
from tablectl.hw.tm1637 import Tm1637


class Pin:
    def __init__(self, v=0, log=None, name=""):
        self.v = v
        self.log = log if log is not None else []
        self.name = name

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v
        self.log.append((self.name, v))


class Spi:
    def __init__(self):
        self.writes = []

    def write(self, buf):
        self.writes.append(bytes(buf))


# -- shaker and bell ---------------------------------------------------------------------------
def test_shaker_runs_its_time_then_stops():
    clk = VirtualClock()
    pin = Pin()
    s = Shaker(pin, clk.ticks_ms, max_on_ms=5000)
    s.on(3000)
    assert pin.v == 1 and s.service()
    clk.advance(2999)
    assert s.service() and pin.v == 1
    clk.advance(1)
    assert not s.service() and pin.v == 0


def test_shaker_refuses_more_than_its_maximum_and_stays_off():
    clk = VirtualClock()
    pin = Pin()
    s = Shaker(pin, clk.ticks_ms, max_on_ms=5000)
    raises(ValueError, s.on, 5001)
    raises(ValueError, s.on, 0)
    raises(ValueError, s.on, -5)
    assert pin.v == 0 and not s.is_on


def test_shaker_will_not_start_with_the_cover_unclipped_SB_2_1():
    clk = VirtualClock()
    pin, cover = Pin(), Pin(0)
    s = Shaker(pin, clk.ticks_ms, 5000, interlock=cover)
    raises(ValueError, s.on, 1000)
    assert pin.v == 0
    cover.v = 1
    s.on(1000)
    assert pin.v == 1
    cover.v = 0  # the cover comes off mid-shake: the next service stops the motor
    assert not s.service() and pin.v == 0


def test_active_low_relay_is_driven_high_when_off():
    clk = VirtualClock()
    pin = Pin(0)
    s = Shaker(pin, clk.ticks_ms, 5000, active_high=False)
    assert pin.v == 1
    s.on(10)
    assert pin.v == 0
    s.off()
    assert pin.v == 1


def test_bell_gives_one_pulse_SB_3_1():
    clk = VirtualClock()
    pin = Pin()
    b = Bell(pin, clk.ticks_ms, pulse_ms=300)
    b.ring()
    assert pin.v == 1 and b.pulses == 1
    clk.advance(299)
    b.service()
    assert pin.v == 1
    clk.advance(1)
    b.service()
    assert pin.v == 0


# -- lamps ---------------------------------------------------------------------------------------
def test_shift_register_chain_bytes_and_latch():
    spi = Spi()
    latch = Pin(name="latch")
    lamps = Lamps(ShiftBackend(spi, latch, 16), 16)
    lamps.set(0, WIN)
    lamps.set(9, WIN)
    lamps.set(15, WIN)
    lamps.set(3, PUSH)  # a plain lamp has no colour for a push: stays dark
    del latch.log[:]
    lamps.show()
    # the far register (lamps 8..15) is shifted first; Q7 first: lamp 15 -> 0x80, lamp 9 -> 0x02
    assert spi.writes == [b"\x82\x01"]
    assert latch.log == [("latch", 1), ("latch", 0)]


def test_shift_register_chain_of_17_lamps_uses_3_bytes():
    spi = Spi()
    lamps = Lamps(ShiftBackend(spi, Pin(), 17), 17)
    lamps.set(16, WIN)
    lamps.show()
    assert spi.writes == [b"\x01\x00\x00"]


class Np:
    def __init__(self, n):
        self.px = [None] * n
        self.writes = 0

    def __setitem__(self, i, v):
        self.px[i] = v

    def write(self):
        self.writes += 1


def test_ws2812_colours_per_level_and_one_write_per_show():
    np = Np(4)
    lamps = Lamps(NeoBackend(np), 4)
    lamps.wire(("a", "b", "c", "d"), ("d", "c", "b", "a"))
    lamps.set(1, WIN)
    lamps.set(3, PUSH)
    lamps.show()
    assert np.writes == 1
    assert np.px[0] == (0, 0, 0) and np.px[2] == (0, 0, 0)
    assert np.px[1] != (0, 0, 0) and np.px[3] != (0, 0, 0) and np.px[1] != np.px[3]
    assert lamps.lit() == {"b": WIN, "d": PUSH}


def test_layout_wiring_maps_core_spots_to_lamps_and_skips_spots_without_one():
    lamps = Lamps(NeoBackend(Np(2)), 2)
    # the chain is wired small, big, odd but has only 2 lamps: 'odd' and 'nope' have none
    table = lamps.wire(("small", "big", "odd"), ("odd", "big", "small", "nope"))
    assert list(table) == [NO_LAMP, 1, 0, NO_LAMP]
    assert lamps.layout == ("small", "big")
    lamps.set(NO_LAMP, WIN)
    assert lamps.lit() == {}
    lamps.set(table[1], WIN)
    assert lamps.lit() == {"big": WIN}


# -- jackpot digits --------------------------------------------------------------------------
def symbols(cents, n=8):
    buf = bytearray(n)
    dp = fill_cents(buf, cents)
    return "".join("0123456789-" [b] if b <= 10 else " " for b in buf), dp


def test_cents_laid_out_on_digits():
    assert symbols(123456) == ("  123456", 5)  # 1234.56: the point after the 4
    assert symbols(5) == ("     005", 5)       # 0.05
    assert symbols(0) == ("     000", 5)
    assert symbols(99999999) == ("99999999", 5)
    assert symbols(123456789) == (" 1234567", -1)  # too long for cents: whole units, no point
    assert symbols(10 ** 10) == ("--------", -1)     # too long even in units
    assert symbols(-1) == ("--------", -1)
    assert symbols(123456, 6) == ("123456", 3)


def test_max7219_init_and_digit_registers():
    spi = Spi()
    log = []
    cs = Pin(1, log, "cs")
    d = Max7219(spi, cs, digits=8, intensity=8)
    init = [tuple(w) for w in spi.writes]
    assert init[:5] == [(0x0C, 0), (0x0F, 0), (0x0B, 7), (0x09, 0xFF), (0x0A, 8)]
    assert init[5:13] == [(r, 0x0F) for r in range(8, 0, -1)]  # blank (code B 0x0F)
    assert init[13] == (0x0C, 1) and len(init) == 14
    # every 2-byte write framed by CS low .. high
    assert log[0] == ("cs", 1) and log[1:] == [("cs", 0), ("cs", 1)] * 14
    del spi.writes[:]
    d.show_cents(123456)
    assert [tuple(w) for w in spi.writes] == [(8, 0x0F), (7, 0x0F), (6, 1), (5, 2), (4, 3), (3, 0x84), (2, 5), (1, 6)]


def decode_tm1637(log):
    """Transactions (lists of bytes) from the CLK/DIO trace: start = DIO falls with CLK high,
    stop = DIO rises with CLK high, a bit is DIO at a CLK rising edge, the 9th bit of a byte is the ACK."""
    clk = dio = 1
    out, bits, cur = [], [], None
    for name, v in log:
        if name == "clk":
            if v and not clk and cur is not None:
                bits.append(dio)
                if len(bits) == 9:
                    cur.append(sum(bits[i] << i for i in range(8)))
                    bits = []
            clk = v
        else:
            if clk and dio and not v:
                cur, bits = [], []
            elif clk and not dio and v and cur is not None:
                out.append(cur)
                cur = None
            dio = v
    return out


def test_tm1637_bytes_for_an_amount():
    log = []
    clk, dio = Pin(1, log, "clk"), Pin(1, log, "dio")
    t = Tm1637(clk, dio, digits=6, brightness=7)
    blank = decode_tm1637(log)
    assert blank == [[0x40], [0xC0, 0, 0, 0, 0, 0, 0], [0x8F]]
    del log[:]
    t.show_cents(123456)
    # 1 2 3 4. 5 6 in gfedcba segments (the point is bit 7 of the digit before it)
    assert decode_tm1637(log) == [[0x40], [0xC0, 0x06, 0x5B, 0x4F, 0xE6, 0x6D, 0x7D], [0x8F]]


class I2c:
    def __init__(self):
        self.writes = []

    def writeto(self, addr, buf):
        self.writes.append((addr, bytes(buf)))


def lcd_bytes(writes):
    """(rs, byte) pairs from E-strobed nibble pairs; checks the E framing of each write."""
    nibbles = []
    for addr, buf in writes:
        assert addr == 0x27 and len(buf) == 2
        assert buf[0] & 0x04 and not buf[1] & 0x04 and buf[0] & ~0x04 == buf[1]  # E high, then low
        assert buf[1] & 0x08  # backlight on
        nibbles.append((buf[1] & 0x01, buf[1] >> 4))
    return [(nibbles[i][0], (nibbles[i][1] << 4) | nibbles[i + 1][1]) for i in range(0, len(nibbles), 2)]


def test_hd44780_init_sequence_and_text():
    bus = I2c()
    lcd = Lcd(bus, 0x27, cols=16, rows=2)
    assert [b[1][1] >> 4 for b in bus.writes[:4]] == [3, 3, 3, 2]  # 8-bit resets, then 4-bit mode
    assert lcd_bytes(bus.writes[4:]) == [(0, 0x28), (0, 0x0C), (0, 0x01), (0, 0x06)]
    del bus.writes[:]
    lcd.text(1, "HI\u00e9")
    sent = lcd_bytes(bus.writes)
    assert sent[0] == (0, 0xC0)  # DDRAM address 0x40: second row
    assert sent[1:4] == [(1, ord("H")), (1, ord("I")), (1, ord("?"))]
    assert sent[4:] == [(1, 32)] * 13 and lcd.lines[1] == "HI\u00e9"
    del bus.writes[:]
    lcd.text(1, "HI\u00e9")
    assert bus.writes == []  # unchanged: nothing sent
    raises(ValueError, lcd.text, 2, "x")

