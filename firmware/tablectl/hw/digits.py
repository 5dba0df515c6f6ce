"""Money to 7-segment digits: integer cents laid out as MAX7219 code-B symbols, and the part both digit drivers share."""
try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

DASH = const(0x0A)   # code-B '-'
BLANK = const(0x0F)  # code-B blank


def fill_cents(buf, cents):
    """Write `cents` right-aligned into buf (one code-B symbol per digit, left to right) as units.cents;
    returns the index of the digit carrying the decimal point, or -1. If the cents do not fit, whole
    units are shown without a point; if those do not fit either (or cents < 0), every digit is a dash."""
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
        dp = -1
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
