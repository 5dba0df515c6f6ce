"""Keypad matrix scanner: rows driven low one at a time, columns read with pull-ups; each key looks like a pin."""


# The dealer's panel of the reference boards: a 4 x 5 matrix, one role per key ('' = no key there).
PANEL_4X5 = (("1", "2", "3", "SHAKE", "LOCK"),
             ("4", "5", "6", "BELL", "HIT"),
             ("7", "8", "9", "CONFIRM", "HISTORY"),
             ("CLEAR", "0", "ENTER", "VOID", "SERVICE_KEY"))  # the technician's key switch, where a board
# has no GPIO for it (pins.csv: SERVICE_KEY,KEYPAD): read as the switch, never as a button (wiring.service_key)


class _KeyPin:
    """What Buttons reads for one key of the matrix: value() is 0 while pressed (like a pulled-up GPIO)."""

    def __init__(self, matrix, bit):
        self._m = matrix
        self._bit = bit

    def value(self):
        return 0 if self._m.down & self._bit else 1


class Matrix:
    """rows: output pins, cols: input pins (pull-up), keys: one string per row, one role per column,
    e.g. (('1','2','3','SHAKE'), ...). scan() reads every key into the bit mask `down`."""

    def __init__(self, rows, cols, keys):
        if len(keys) != len(rows) or any(len(k) != len(cols) for k in keys):
            raise ValueError("keypad: keys must be %d rows of %d roles" % (len(rows), len(cols)))
        self._rows = rows
        self._cols = cols
        self.down = 0
        self.pins = {}
        bit = 1
        for r in range(len(rows)):
            rows[r].value(1)
            for c in range(len(cols)):
                if keys[r][c]:  # '' marks a position with no key
                    self.pins[keys[r][c]] = _KeyPin(self, bit)
                bit <<= 1

    def scan(self):
        down = 0
        bit = 1
        for row in self._rows:
            row.value(0)
            for col in self._cols:
                if not col.value():
                    down |= bit
                bit <<= 1
            row.value(1)
        self.down = down
