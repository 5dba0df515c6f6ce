"""Output drivers on fake pins and buses: the exact bytes a 74HC595 chain and HD44780 get; shaker maximum
on-time and cover interlock (SB-2.1); bell pulse (SB-3.1); WS2812 colours (the jackpot digits: test_hw_digits)."""
# mp-heap: 42K
from harness.fakebus import Pin, Spi
from mptest import raises
from tablectl.hw.clock import VirtualClock
from tablectl.hw.lamps import BET, NO_LAMP, PUSH, WIN, Lamps, NeoBackend, ShiftBackend
from tablectl.hw.lcd import Lcd
from tablectl.hw.outputs import Bell, Shaker


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


def test_a_bet_lights_a_plain_lamp_and_has_its_own_colour_on_a_neopixel_chain_CSP_10_1():
    spi = Spi()
    lamps = Lamps(ShiftBackend(spi, Pin(), 8), 8)
    lamps.set(1, BET)  # a chip on seat 2: its bet-accepted light, on a chain without colours too
    lamps.set(4, WIN)
    lamps.show()
    assert spi.writes == [b"\x12"]
    colours = NeoBackend.COLOURS
    assert len(set(colours)) == len(colours) == 4 and colours[BET] != colours[WIN]  # told apart


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

