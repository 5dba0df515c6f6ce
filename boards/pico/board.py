"""Raspberry Pi Pico (RP2040), the reference board: pins by role from pins.csv, the drivers wired on them.

Dealer's panel: a 4 x 5 key matrix (rows driven, columns pulled up) laid out as keypad.PANEL_4X5. Text display:
16x2 HD44780 on a PCF8574 backpack (I2C0, address 0x27), or by pins.csv's DISPLAY row a 128x64 SSD1306 (0x3C). Jackpot digits: MAX7219, 8 digits (SPI0).
Lamp board: WS2812 chain of LAMP_COUNT (neopixel). Seat sensors: 7 GPIO inputs. The shaker output
runs at most SHAKER_MAX_MS and only with the cover clipped; the watchdog starts at its first feed
(App.run), so a hung firmware resets the board within WDT_MS; one stopped with Ctrl-C at the REPL keeps
the board up for the technician (LazyWdt.hold, on the virtual timer -1).
"""
from machine import I2C, RTC, SPI, Pin, Signal
import neopixel

from tablectl.hw.clock import ticks_ms
from tablectl.hw.keypad import PANEL_4X5, Matrix
from tablectl.hw.lamps import Lamps, NeoBackend
from tablectl.hw.max7219 import Max7219
from tablectl.hw.rtc import MachineRTC
from tablectl.hw.outputs import Bell, Lamp, Shaker
from tablectl.hw.watchdog import LazyWdt
from tablectl.hw.wiring import I2C_HZ, Board, beside, read_pins, service_key, table_flash, text_display
from tablectl.rules import SEATS

LOG_BYTES = 1 << 20  # the flash log's raw region: a build whose filesystem leaves the last 1 MB of the
# storage area free (docs/technicians.md); a stock build's filesystem takes it all, and the log is a file
LAMP_COUNT = 120
SHAKER_MAX_MS = 8000
WDT_MS = 5000
ROOT = "/"


def log_region():
    """rp2.Flash over the storage area's last LOG_BYTES when the filesystem does not reach them, else None."""
    import os
    import rp2
    whole = rp2.Flash()
    size = whole.ioctl(4, 0) * whole.ioctl(5, 0)
    st = os.statvfs("/")
    if size - st[0] * st[2] < LOG_BYTES:
        return None
    return rp2.Flash(start=size - LOG_BYTES, len=LOG_BYTES)


def make():
    p = read_pins(beside(globals().get("__file__", "/board.py"), "pins.csv"))
    rows = [Pin(p["KEY_ROW%d" % i], Pin.OUT, value=1) for i in range(1, 5)]
    cols = [Pin(p["KEY_COL%d" % i], Pin.IN, Pin.PULL_UP) for i in range(1, 6)]
    keypad = Matrix(rows, cols, PANEL_4X5)
    key = service_key(p, keypad, lambda n: Pin(n, Pin.IN, Pin.PULL_UP))
    cover = Signal(Pin(p["COVER"], Pin.IN, Pin.PULL_UP), invert=True)  # 1 = clipped (switch to GND)
    np = neopixel.NeoPixel(Pin(p["LAMPS_DATA"], Pin.OUT), LAMP_COUNT)
    spi = SPI(0, baudrate=1000000, sck=Pin(p["JACKPOT_SCK"]), mosi=Pin(p["JACKPOT_MOSI"]))
    i2c = I2C(0, sda=Pin(p["LCD_SDA"]), scl=Pin(p["LCD_SCL"]), freq=I2C_HZ[p.get("DISPLAY", "HD44780")])
    return Board(
        buttons=keypad.pins,
        service_key=key,
        scanners=(keypad,),
        seats=[Pin(p["SEAT%d" % i], Pin.IN, Pin.PULL_DOWN) for i in range(1, SEATS + 1)],
        shaker=Shaker(Pin(p["SHAKER"], Pin.OUT, value=0), ticks_ms, SHAKER_MAX_MS, interlock=cover),
        bell=Bell(Pin(p["BELL"], Pin.OUT, value=0), ticks_ms),
        betting_lamp=Lamp(Pin(p["BETTING_LAMP"], Pin.OUT, value=0)),
        lamps=Lamps(NeoBackend(np), LAMP_COUNT),
        display=text_display(p, i2c),  # pins.csv DISPLAY: HD44780 (0x27) or SSD1306 (0x3C)
        jackpot=Max7219(spi, Pin(p["JACKPOT_CS"], Pin.OUT, value=1), digits=8),
        wdt=LazyWdt(WDT_MS),
        ticks_ms=ticks_ms,
        rtc=MachineRTC(RTC()),  # the journal's time of day (not kept without power: set it again)
        flash=table_flash(log_region(), 256),  # a Pico's flash programs 256-byte pages
    )
