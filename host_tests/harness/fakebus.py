"""Fake pins, an SPI bus and an I2C bus for the driver tests: they record what a driver drives."""


class Pin:
    def __init__(self, v=0, log=None, name=""):
        self.v = v
        self.log = log if log is not None else []
        self.name = name

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v
        self.log.append((self.name, v))


class Spi:
    def __init__(self):
        self.writes = []

    def write(self, buf):
        self.writes.append(bytes(buf))


class I2c:
    """machine.I2C's writes: each (address, the bytes sent), writevto's buffers as one write."""

    def __init__(self):
        self.writes = []

    def writeto(self, addr, buf):
        self.writes.append((addr, bytes(buf)))

    def writevto(self, addr, bufs):
        self.writes.append((addr, b"".join(bytes(b) for b in bufs)))
