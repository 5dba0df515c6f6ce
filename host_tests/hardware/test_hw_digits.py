"""The jackpot digits: integer cents laid out on code-B symbols, the exact register writes of a MAX7219 and the
bytes on a TM1637's two wires, and how each shows an amount too long for its digits (tablectl.hw.digits)."""
# mp-heap: 40K
from harness.fakebus import Pin, Spi
from tablectl.hw.digits import fill_cents
from tablectl.hw.max7219 import Max7219
from tablectl.hw.tm1637 import Tm1637


def symbols(cents, n=8):
    buf = bytearray(n)
    dp = fill_cents(buf, cents)
    return "".join("0123456789-" [b] if b <= 10 else " " for b in buf), dp


def test_cents_laid_out_on_digits():
    assert symbols(123456) == ("  123456", 5)  # 1234.56: the point after the 4
    assert symbols(5) == ("     005", 5)       # 0.05
    assert symbols(0) == ("     000", 5)
    assert symbols(99999999) == ("99999999", 5)
    assert symbols(123456789) == (" 1234567", 7)  # too long for cents: whole dollars, the point last
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


class Tm1637Wires:
    """The TM1637's side of CLK and DIO: a Pin's log that decodes the levels as they come into transactions
    (lists of bytes, in `out`): start = DIO falls with CLK high, stop = DIO rises with CLK high, a bit is
    DIO at a CLK rising edge, the 9th bit of a byte is the ACK. Nothing of the trace is kept."""

    def __init__(self):
        self.clk = self.dio = 1
        self.out, self.bits, self.cur = [], [], None

    def append(self, change):
        name, v = change
        if name == "clk":
            if v and not self.clk and self.cur is not None:
                self.bits.append(self.dio)
                if len(self.bits) == 9:
                    self.cur.append(sum(self.bits[i] << i for i in range(8)))
                    self.bits = []
            self.clk = v
        else:
            if self.clk and self.dio and not v:
                self.cur, self.bits = [], []
            elif self.clk and not self.dio and v and self.cur is not None:
                self.out.append(self.cur)
                self.cur = None
            self.dio = v


def test_tm1637_bytes_for_an_amount():
    wires = Tm1637Wires()
    t = Tm1637(Pin(1, wires, "clk"), Pin(1, wires, "dio"), digits=6, brightness=7)
    assert wires.out == [[0x40], [0xC0, 0, 0, 0, 0, 0, 0], [0x8F]]  # blank
    wires.out = []
    t.show_cents(123456)
    # 1 2 3 4. 5 6 in gfedcba segments (the point is bit 7 of the digit before it)
    assert wires.out == [[0x40], [0xC0, 0x06, 0x5B, 0x4F, 0xE6, 0x6D, 0x7D], [0x8F]]


def max7219_text(d, spi, cents):
    """What a MAX7219's digits show for `cents`, read back from the register writes ('.' after a lit point)."""
    del spi.writes[:]
    del d.cs.log[:]
    d.show_cents(cents)
    regs = dict((w[0], w[1]) for w in spi.writes)
    return "".join("0123456789-EHLP "[regs[r] & 0x0F] + ("." if regs[r] & 0x80 else "") for r in range(d.n, 0, -1))


def tm1637_text(t, wires, cents):
    """What a TM1637's digits show for `cents`, read back from the bytes on its two wires."""
    wires.out = []
    t.show_cents(cents)
    shown = ""
    for seg in wires.out[1][1:]:
        shown += {0x3F: "0", 0x06: "1", 0x5B: "2", 0x4F: "3", 0x66: "4", 0x6D: "5", 0x7D: "6", 0x07: "7",
                  0x7F: "8", 0x6F: "9", 0x40: "-", 0x00: " "}[seg & 0x7F] + ("." if seg & 0x80 else "")
    return shown


def amounts():
    """0, 1, 99 and 2**30 - 1 cents, every power of ten with its neighbours, and 300 amounts between."""
    for cents in (0, 1, 99, (1 << 30) - 1):
        yield cents
    for k in range(1, 10):
        for cents in (10 ** k - 1, 10 ** k, 10 ** k + 1):
            yield cents
    x = 12345
    for _ in range(300):
        x = (x * 1103515245 + 12345) % (1 << 30)
        yield x >> (x % 23)


def test_large_amounts_never_lose_their_cents_silently_on_either_driver():
    """The rule of tablectl.hw.digits, read back from what each driver sends: dollars.cents where they
    fit; else whole dollars with the point on the last digit (the cents not shown, rounded down); else
    dashes. Every power of ten and its neighbours up to the 2**30 cents a meter holds, and a spread of
    amounts between (a linear congruential walk: the same on both runtimes, made as it is used)."""
    spi = Spi()
    d = Max7219(spi, Pin(1, [], "cs"), digits=8)
    wires = Tm1637Wires()
    t = Tm1637(Pin(1, wires, "clk"), Pin(1, wires, "dio"), digits=6)
    for n, show in ((8, lambda c: max7219_text(d, spi, c)), (6, lambda c: tm1637_text(t, wires, c))):
        for cents in amounts():
            text = show(cents)
            digits = text.replace(".", "").strip()
            if max(len("%d" % cents), 3) <= n:  # the cents fit: one point, two digits after it
                assert text.find(".") == len(text) - 3 and text.count(".") == 1 and int(digits) == cents, (n, cents, text)
            elif len("%d" % (cents // 100)) <= n:  # whole dollars and the last digit's point
                assert text.endswith(".") and text.count(".") == 1 and int(digits) == cents // 100, (n, cents, text)
            else:
                assert text == "-" * n, (n, cents, text)
    assert max7219_text(d, spi, 123456789) == " 1234567."  # 1,234,567.89 on 8 digits
    assert max7219_text(d, spi, 99999999) == "999999.99"
    assert tm1637_text(t, wires, 25000000) == "250000."  # the default seed on 6 digits
    assert tm1637_text(t, wires, 10 ** 8) == "------"
