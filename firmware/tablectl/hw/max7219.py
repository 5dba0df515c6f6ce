"""MAX7219 8-digit 7-segment driver for the jackpot display (SPI bus and chip-select pin injected)."""
from tablectl import const

from tablectl.hw.digits import Digits

_DIGIT0 = const(0x01)       # digit registers 1..8, digit 0 is the rightmost
_DECODE_MODE = const(0x09)
_INTENSITY = const(0x0A)
_SCAN_LIMIT = const(0x0B)
_SHUTDOWN = const(0x0C)
_DISPLAY_TEST = const(0x0F)
_DP = const(0x80)           # decimal point bit of a code-B digit


class Max7219(Digits):
    def __init__(self, spi, cs, digits=8, intensity=8):
        self.spi = spi
        self.cs = cs
        Digits.__init__(self, digits)
        self._cmd = bytearray(2)
        cs.value(1)
        for reg, val in ((_SHUTDOWN, 0), (_DISPLAY_TEST, 0), (_SCAN_LIMIT, digits - 1),
                         (_DECODE_MODE, 0xFF), (_INTENSITY, intensity & 0x0F)):
            self._write(reg, val)
        self.blank()
        self._write(_SHUTDOWN, 1)

    def _write(self, reg, val):
        self._cmd[0] = reg
        self._cmd[1] = val
        self.cs.value(0)
        self.spi.write(self._cmd)
        self.cs.value(1)  # data is latched on CS rising

    def _show(self, dp):
        n = self.n
        for i in range(n):
            self._write(_DIGIT0 + n - 1 - i, self.sym[i] | (_DP if i == dp else 0))

    def brightness(self, level):
        self._write(_INTENSITY, level & 0x0F)
