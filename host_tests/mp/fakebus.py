"""Fake pins and an SPI bus for the driver tests: they record what a driver drives."""


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
