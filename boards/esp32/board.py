"""ESP32 (WROOM-32) board: pins by role from pins.csv, the drivers wired on them.

Differences from the Pico reference: the seat sensors come through a 74HC165 shift register (three
pins instead of seven), the jackpot digits are a 6-digit TM1637 (two pins). The keypad, text display,
lamp board, shaker, bell and watchdog are wired as on the Pico (see boards/pico/board.py).
"""
from machine import I2C, RTC, Pin, Signal
import neopixel

from tablectl.hw.clock import ticks_ms
from tablectl.hw.keypad import PANEL_4X5, Matrix
from tablectl.hw.lamps import Lamps, NeoBackend
from tablectl.hw.rtc import MachineRTC
from tablectl.hw.outputs import Bell, Lamp, Shaker
from tablectl.hw.shiftin import ShiftIn
from tablectl.hw.tm1637 import Tm1637
from tablectl.hw.watchdog import LazyWdt
from tablectl.hw.wiring import I2C_HZ, Board, beside, read_pins, service_key, table_flash, text_display
from tablectl.rules import SEATS

LAMP_COUNT = 120
SHAKER_MAX_MS = 8000
WDT_MS = 5000
ROOT = "/"


def log_region():
    """The partition labelled 'tablelog' (a partition table with one: docs/technicians.md), else None."""
    import esp32
    found = esp32.Partition.find(esp32.Partition.TYPE_DATA, label="tablelog")
    return found[0] if found else None


def make():
    p = read_pins(beside(globals().get("__file__", "/board.py"), "pins.csv"))
    rows = [Pin(p["KEY_ROW%d" % i], Pin.OUT, value=1) for i in range(1, 5)]
    cols = [Pin(p["KEY_COL%d" % i], Pin.IN, Pin.PULL_UP if p["KEY_COL%d" % i] < 34 else None)
            for i in range(1, 6)]
    keypad = Matrix(rows, cols, PANEL_4X5)
    key = service_key(p, keypad, lambda n: Pin(n, Pin.IN, Pin.PULL_UP))
    seats = ShiftIn(Pin(p["SEATS_LOAD"], Pin.OUT, value=1), Pin(p["SEATS_CLK"], Pin.OUT, value=0),
                    Pin(p["SEATS_DATA"], Pin.IN), count=8)
    cover = Signal(Pin(p["COVER"], Pin.IN, Pin.PULL_UP), invert=True)  # 1 = clipped (switch to GND)
    np = neopixel.NeoPixel(Pin(p["LAMPS_DATA"], Pin.OUT), LAMP_COUNT)
    i2c = I2C(0, sda=Pin(p["LCD_SDA"]), scl=Pin(p["LCD_SCL"]), freq=I2C_HZ[p.get("DISPLAY", "HD44780")])
    return Board(
        buttons=keypad.pins,
        service_key=key,
        scanners=(keypad, seats),
        seats=seats.pins[:SEATS],
        shaker=Shaker(Pin(p["SHAKER"], Pin.OUT, value=0), ticks_ms, SHAKER_MAX_MS, interlock=cover),
        bell=Bell(Pin(p["BELL"], Pin.OUT, value=0), ticks_ms),
        betting_lamp=Lamp(Pin(p["BETTING_LAMP"], Pin.OUT, value=0)),
        lamps=Lamps(NeoBackend(np), LAMP_COUNT),
        display=text_display(p, i2c),  # pins.csv DISPLAY: HD44780 (0x27) or SSD1306 (0x3C)
        jackpot=Tm1637(Pin(p["JACKPOT_CLK"], Pin.OUT, value=1), Pin(p["JACKPOT_DIO"], Pin.OUT, value=1), digits=6),
        # hardware timer 0 for the watchdog hold: MicroPython 1.26 refuses the virtual one (-1) on the ESP32
        wdt=LazyWdt(WDT_MS, timer_id=0),
        ticks_ms=ticks_ms,
        rtc=MachineRTC(RTC()),  # the journal's time of day (not kept without power: set it again)
        flash=table_flash(log_region(), 16),
    )
