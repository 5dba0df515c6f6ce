"""The SSD1306 panel as tablectl.hw.oled's layout tests see it, without a bus (both runtimes)."""


class Panel:
    """What Oled uses of the driver (width, height, buffer, show, write_cmd, write_data) for the layout tests
    on both runtimes: it counts the rows sent."""

    def __init__(self, width=128, height=64):
        self.width = width
        self.height = height
        self.buffer = bytearray(width * height // 8)
        self.shows = 0

    def show(self):
        self.shows += 1

    def write_cmd(self, c):
        pass

    def write_data(self, buf):
        self.shows += 1
