"""74HC165 parallel-in shift register chain: many inputs (e.g. the seat sensors) on three pins; each input looks like a pin."""


class _BitPin:
    """One input of the chain as Buttons and the controllers read it: value() from the last scan."""

    def __init__(self, chain, bit):
        self._chain = chain
        self._bit = bit

    def value(self):
        return 1 if self._chain.bits & self._bit else 0


class ShiftIn:
    """load: SH/LD (low loads the inputs), clk: CLK (rising shifts), data: QH of the last chip in the
    chain. Input 0 is D7 of the first chip (the one whose QH reaches the MCU): it is read first."""

    def __init__(self, load, clk, data, count=8):
        self._load = load
        self._clk = clk
        self._data = data
        self.count = count
        self.bits = 0
        self.pins = [_BitPin(self, 1 << i) for i in range(count)]
        load.value(1)
        clk.value(0)

    def scan(self):
        self._load.value(0)  # parallel load of every input
        self._load.value(1)
        bits = 0
        for i in range(self.count):
            if self._data.value():
                bits |= 1 << i
            self._clk.value(1)  # the next input moves to QH
            self._clk.value(0)
        self.bits = bits
