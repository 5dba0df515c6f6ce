"""HD44780 character LCD (e.g. 16x2) behind a PCF8574 I2C backpack: the dealer's text display."""
from tablectl import const

# PCF8574 outputs: P0 RS, P1 RW, P2 E, P3 backlight, P4..P7 -> D4..D7 (the common backpack wiring)
_RS = const(0x01)
_E = const(0x04)
_BACKLIGHT = const(0x08)
_ROW_ADDR = (0x00, 0x40, 0x14, 0x54)


def changed_row(display, row, s):
    """What a text display's text(row, s) shows: `s` cut to its width, kept in its lines; None when that row
    shows it already (not sent again). ValueError for a row the display has not."""
    if not 0 <= row < display.rows:
        raise ValueError("row %d outside 0..%d" % (row, display.rows - 1))
    s = s[:display.cols]
    if s == display.lines[row]:
        return None
    display.lines[row] = s
    return s


class Lcd:
    """text(row, s) writes one row, padded or cut to the width; an unchanged row is not resent."""

    def __init__(self, i2c, addr=0x27, cols=16, rows=2):
        self.i2c = i2c
        self.addr = addr
        self.cols = cols
        self.rows = rows
        self.lines = [""] * rows
        self._buf = bytearray(2)
        for nib in (0x3, 0x3, 0x3, 0x2):  # reset into 4-bit mode (HD44780 datasheet, figure 24)
            self._nibble(nib, 0)
        for cmd in (0x28, 0x0C, 0x01, 0x06):  # 2 lines 5x8, display on, clear, entry increment
            self._send(cmd, 0)

    def _nibble(self, nib, rs):
        b = (nib << 4) | rs | _BACKLIGHT
        self._buf[0] = b | _E
        self._buf[1] = b  # data latched on E falling
        self.i2c.writeto(self.addr, self._buf)

    def _send(self, byte, rs):
        self._nibble(byte >> 4, rs)
        self._nibble(byte & 0x0F, rs)

    def text(self, row, s):
        s = changed_row(self, row, s)
        if s is None:
            return
        self._send(0x80 | _ROW_ADDR[row], 0)
        for ch in s:
            c = ord(ch)
            self._send(c if 32 <= c < 127 else 63, _RS)  # outside ASCII: '?'
        for _ in range(self.cols - len(s)):
            self._send(32, _RS)
