"""Money to 7-segment digits: integer cents laid out as MAX7219 code-B symbols, and the part both digit drivers share.

How an amount is shown (both drivers, any number of digits n):
- dollars.cents, right-aligned, the point lit after the units digit, when they fit in n digits
  (8 digits: up to 999999.99; 6 digits: up to 9999.99);
- else whole dollars, the cents dropped (rounded down), with the point lit on the last digit: a point
  with no digit after it says the cents are not shown (8 digits: 1234567.89 shows `1234567.`);
- else (the dollars alone need more than n digits, or a negative amount) a dash on every digit.
"""
from tablectl import const

DASH = const(0x0A)   # code-B '-'
BLANK = const(0x0F)  # code-B blank


def fill_cents(buf, cents):
    """Write `cents` right-aligned into buf (one code-B symbol per digit, left to right) as the module
    docstring says; returns the index of the digit carrying the decimal point, or -1 (dashes)."""
    n = len(buf)
    v = cents
    need = 3
    while v >= 1000:
        v //= 10
        need += 1
    dp = n - 3
    if cents < 0 or need > n:
        v = cents // 100
        need = 1
        t = v
        while t >= 10:
            t //= 10
            need += 1
        if cents < 0 or need > n:
            for i in range(n):
                buf[i] = DASH
            return -1
        dp = n - 1  # the point with nothing after it: the cents are not shown
    else:
        v = cents
    for i in range(n - 1, -1, -1):
        if v == 0 and i < n - need:
            buf[i] = BLANK
        else:
            buf[i] = v % 10
            v //= 10
    return dp


class Digits:
    """What the MAX7219 and TM1637 drivers share: `n` digits, the symbol scratch buffer (allocated once),
    blank() and show_cents(); a driver writes the symbols out in _show(dp)."""

    def __init__(self, digits):
        self.n = digits
        self.sym = bytearray(digits)  # scratch: code-B symbols left to right

    def blank(self):
        for i in range(self.n):
            self.sym[i] = BLANK
        self._show(-1)

    def show_cents(self, cents):
        self._show(fill_cents(self.sym, cents))
