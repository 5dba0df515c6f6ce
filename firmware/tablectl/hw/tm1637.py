"""TM1637 4/6-digit 7-segment driver for the jackpot display, bit-banged on two injected pins (CLK, DIO)."""
from tablectl import const
import time

from tablectl.hw.digits import Digits

_DATA_AUTO = const(0x40)   # data command: write, auto-increment address
_ADDR0 = const(0xC0)       # address command: digit 0 (leftmost)
_DISPLAY_ON = const(0x88)  # display control: on, OR brightness 0..7
_DP = const(0x80)
# segments gfedcba for code-B symbols 0..15: digits, then '-' (0x0A) ... blank (0x0F)
_SEGMENTS = b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f\x40\x00\x00\x00\x00\x00"
_sleep_us = getattr(time, "sleep_us", None)


class Tm1637(Digits):
    """Data is clocked LSB first, sampled on CLK rising; each byte is followed by an ACK clock."""

    def __init__(self, clk, dio, digits=6, brightness=7):
        self.clk = clk
        self.dio = dio
        Digits.__init__(self, digits)
        self.seg = bytearray(digits)
        self.level = brightness & 7
        clk.value(1)
        dio.value(1)
        self.blank()

    def _bit_delay(self):
        if _sleep_us:
            _sleep_us(5)

    def _start(self):
        self.dio.value(1)
        self.clk.value(1)
        self._bit_delay()
        self.dio.value(0)  # DIO falling while CLK high = start
        self._bit_delay()
        self.clk.value(0)

    def _stop(self):
        self.clk.value(0)
        self.dio.value(0)
        self._bit_delay()
        self.clk.value(1)
        self._bit_delay()
        self.dio.value(1)  # DIO rising while CLK high = stop

    def _byte(self, b):
        for _ in range(8):
            self.clk.value(0)
            self.dio.value(b & 1)
            self._bit_delay()
            self.clk.value(1)
            self._bit_delay()
            b >>= 1
        self.clk.value(0)  # ninth clock: the chip pulls DIO low to acknowledge
        self.dio.value(1)
        self._bit_delay()
        self.clk.value(1)
        self._bit_delay()
        self.clk.value(0)

    def _command(self, c):
        self._start()
        self._byte(c)
        self._stop()

    def _show(self, dp):
        for i in range(self.n):
            self.seg[i] = _SEGMENTS[self.sym[i]] | (_DP if i == dp else 0)
        self._command(_DATA_AUTO)
        self._start()
        self._byte(_ADDR0)
        for b in self.seg:
            self._byte(b)
        self._stop()
        self._command(_DISPLAY_ON | self.level)

