"""The sim board's graphic display (env TABLECTL_DISPLAY=SSD1306, python -m sim --oled): a virtual SSD1306 on
its I2C bus, imported only by a board that has one (a module of its own: the other boards' heap stays as it was)."""


class VirtualSsd1306:
    """The I2C side of an SSD1306 (machine.I2C's writeto/writevto): its commands set the column and page window
    (0x21, 0x22, horizontal addressing) and the display on or off (0xAF/0xAE); the data after a 0x40
    control byte goes into its RAM, `ram` (a page per 8 pixel rows, a byte per column, the top pixel bit 0)
    as the panel shows it. Each frame tells the board's listeners 'display'."""

    ADDR = 0x3C
    _ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}

    def __init__(self, board, width=128, height=64):
        self._board = board
        self.width = width
        self.pages = height // 8
        self.ram = bytearray(width * self.pages)
        self.on = False
        self._cmd = []  # a command waiting for its arguments
        self._window = [0, width - 1, 0, self.pages - 1]
        self._at = 0  # the next RAM byte a data write fills

    def writeto(self, addr, buf):
        self._write(addr, bytes(buf))

    def writevto(self, addr, bufs):
        self._write(addr, b"".join(bytes(b) for b in bufs))

    def _write(self, addr, data):
        if addr != self.ADDR:
            raise OSError(19)  # ENODEV: nothing answers at that address, as machine.I2C says
        if data[:1] == b"\x40":
            self._data(data[1:])
        else:
            for k in range(0, len(data) - 1, 2):  # Co=1 pairs: a control byte 0x80, then a command byte
                self._command(data[k + 1])

    def _command(self, c):
        cmd = self._cmd
        if not cmd:
            if c in (0xAE, 0xAF):
                self.on = c == 0xAF
            if c not in self._ARGS:
                return
        cmd.append(c)
        if len(cmd) == 1 + self._ARGS[cmd[0]]:
            if cmd[0] == 0x21:
                self._window[0:2] = cmd[1:]
            elif cmd[0] == 0x22:
                self._window[2:4] = cmd[1:]
            self._at = 0
            del cmd[:]

    def _data(self, data):
        x0, x1, p0, p1 = self._window
        w = x1 - x0 + 1
        n = w * (p1 - p0 + 1)
        for b in data:
            k = self._at % n
            self.ram[(p0 + k // w) * self.width + x0 + k % w] = b
            self._at += 1
        self._board.changed("display")
