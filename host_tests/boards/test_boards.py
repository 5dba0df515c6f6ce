"""The real boards' wiring on CPython with a fake `machine`/`neopixel` (registered once, as mock_machine does):
pins.csv sane for the chip, make() builds the contract's board, a keypad key and a seat sensor reach the
firmware through the matrix and the 74HC165, the shaker interlock reads the cover switch the right way."""
import importlib.util
import pathlib
import sys
import types

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
PRESSED = set()   # (row gpio, col gpio) of keys held down
LEVEL = {}        # gpio -> level forced on an input (sensors, switches)
ROWS = {}


class Pin:
    OUT, IN, PULL_UP, PULL_DOWN = 1, 0, 2, 3
    table = {}

    def __init__(self, gpio, mode=IN, pull=None, value=None):
        self.gpio, self.mode, self.pull = gpio, mode, pull
        self.level = value if value is not None else (1 if pull == Pin.PULL_UP else 0)
        Pin.table[gpio] = self

    def value(self, v=None):
        if v is not None:
            self.level = 1 if v else 0
            return None
        if self.mode == Pin.OUT:
            return self.level
        for row, col in PRESSED:  # a key connects its row to its column
            if col == self.gpio and Pin.table[row].level == 0:
                return 0
        return LEVEL.get(self.gpio, self.level)


class Signal:
    def __init__(self, pin, invert=False):
        self.pin, self.invert = pin, invert

    def value(self):
        return self.pin.value() ^ (1 if self.invert else 0)


class Bus:
    made = []

    def __init__(self, *a, **kw):
        self.sent = []
        self.kw = kw
        Bus.made.append(self)

    def write(self, buf):
        self.sent.append(bytes(buf))

    def writeto(self, addr, buf):
        self.sent.append((addr, bytes(buf)))


class WDT:
    made = []

    def __init__(self, timeout):
        self.timeout = timeout
        self.feeds = 0
        WDT.made.append(self)

    def feed(self):
        self.feeds += 1


class RTC:
    """machine.RTC as an RP2040's reads after power-up (2021-01-01, a Friday), set by datetime(tuple)."""

    def __init__(self):
        self.dt = (2021, 1, 1, 4, 0, 0, 0, 0)

    def datetime(self, dt=None):
        if dt is None:
            return self.dt
        self.dt = tuple(dt)


class Timer:
    PERIODIC = 1
    made = []

    def __init__(self, id, mode=None, period=None, callback=None):
        self.id, self.mode, self.period, self.callback = id, mode, period, callback
        Timer.made.append(self)


class NeoPixel:
    def __init__(self, pin, n):
        self.px = [(0, 0, 0)] * n

    def __setitem__(self, i, v):
        self.px[i] = v

    def write(self):
        pass


class Flash:
    """rp2.Flash: the storage area (a Pico's 1.4 MB), or start/len inside it; 4 KB blocks."""
    SIZE = 352 * 4096

    def __init__(self, start=-1, len=-1):
        self.start = max(start, 0)
        self.len = len if len > 0 else Flash.SIZE - self.start
        assert self.start + self.len <= Flash.SIZE and self.start % 4096 == 0

    def ioctl(self, op, arg):
        return {4: self.len // 4096, 5: 4096}.get(op, 0)

    def readblocks(self, n, buf, off=0):
        pass

    writeblocks = readblocks


class Partition:
    """esp32.Partition.find: FOUND lists what the partition table has."""
    TYPE_DATA = 1
    FOUND = []

    @staticmethod
    def find(kind, label=None):
        found = []
        for name in Partition.FOUND:
            if name == label:
                part = Flash(len=256 * 1024)  # a partition: the same block protocol
                part.label = name
                found.append(part)
        return found


@pytest.fixture(autouse=True)
def fake_machine(monkeypatch):
    machine = types.ModuleType("machine")
    machine.Pin, machine.Signal, machine.I2C, machine.SPI, machine.WDT = Pin, Signal, Bus, Bus, WDT
    machine.Timer, machine.RTC = Timer, RTC
    WDT.made.clear()
    Timer.made.clear()
    neo = types.ModuleType("neopixel")
    neo.NeoPixel = NeoPixel
    rp2 = types.ModuleType("rp2")
    rp2.Flash = Flash
    esp32 = types.ModuleType("esp32")
    esp32.Partition = Partition
    Partition.FOUND = ["tablelog"]
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "neopixel", neo)
    monkeypatch.setitem(sys.modules, "rp2", rp2)
    monkeypatch.setitem(sys.modules, "esp32", esp32)
    # a Pico build whose filesystem leaves the last 1 MB of the storage area to the log
    monkeypatch.setattr("os.statvfs", lambda path: (4096, 4096, (Flash.SIZE - (1 << 20)) // 4096, 0, 0, 0, 0, 0, 0, 255))
    Pin.table.clear()
    PRESSED.clear()
    LEVEL.clear()


def load(name):
    spec = importlib.util.spec_from_file_location("board_" + name, ROOT / "boards" / name / "board.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def pins(name):
    from tablectl.hw.wiring import read_pins
    return read_pins(str(ROOT / "boards" / name / "pins.csv"))


def test_pico_pins_are_rp2040_gpios_each_used_once():
    p = pins("pico")
    assert p.pop("SERVICE_KEY") == "KEYPAD"  # every GPIO is taken: the key switch sits in the keypad matrix
    assert p.pop("DISPLAY") == "HD44780"  # on the I2C pins (an SSD1306 is the other choice)
    assert set(p.values()) <= set(range(0, 23)) | {26, 27, 28}  # 23-25 are the Pico's own
    assert len(set(p.values())) == len(p)


def test_esp32_pins_avoid_flash_and_use_input_only_pins_for_inputs():
    p = pins("esp32")
    assert p.pop("DISPLAY") == "HD44780"
    assert not set(p.values()) & set(range(6, 12))  # wired to the SPI flash
    for role, gpio in p.items():
        if gpio >= 34:
            assert role.startswith("KEY_COL") or role in ("SEATS_DATA", "COVER"), role
    assert p["SERVICE_KEY"] == 15  # pulled up inside; a strapping pin whose boot level that leaves alone


def test_read_pins_rejects_a_gpio_used_twice(tmp_path):
    from tablectl.hw.wiring import read_pins
    f = tmp_path / "pins.csv"
    f.write_text("role,gpio\nBELL,GP3\nSHAKER,GP3\n")
    with pytest.raises(ValueError, match="GPIO3 is already BELL"):
        read_pins(str(f))


@pytest.mark.parametrize("name", ["pico", "esp32"])
def test_make_builds_the_contract_board(name):
    b = load(name).make()
    for attr in ("buttons", "seats", "shaker", "bell", "betting_lamp", "lamps", "display", "jackpot", "wdt"):
        assert getattr(b, attr) is not None, attr
    assert set(b.buttons) == set("0123456789") | {"CLEAR", "ENTER", "SHAKE", "BELL", "CONFIRM", "VOID", "LOCK",
                                                  "HIT", "HISTORY"}  # the key switch is not a button
    assert len(b.seats) == 7 and b.tasks() == []
    assert b.service_key.value() == 0  # the key switch open: off
    assert b.flash.ioctl(4, 0) * b.flash.ioctl(5, 0) == (1 << 20 if name == "pico" else 256 * 1024)
    assert b.flash.prog == (256 if name == "pico" else 16)  # a Pico's flash programs 256-byte pages


@pytest.mark.parametrize("name", ["pico", "esp32"])
def test_the_board_clock_is_machine_rtc_in_seconds_since_2000_with_its_weekday(name):
    import datetime
    b = load(name).make()
    assert b.rtc.now() == (datetime.datetime(2021, 1, 1) - datetime.datetime(2000, 1, 1)).days * 86400
    for when in (datetime.datetime(2026, 12, 2, 8, 30, 5), datetime.datetime(2028, 2, 29, 23, 59, 59)):
        t = int((when - datetime.datetime(2000, 1, 1)).total_seconds())
        b.rtc.set(t)
        assert b.rtc.rtc.dt == (when.year, when.month, when.day, when.weekday(), when.hour, when.minute,
                                when.second, 0)  # machine.RTC's weekday: 0 is Monday
        assert b.rtc.now() == t


def test_the_service_key_switch_on_each_board():
    """Pico: in the keypad matrix's free position (row 4, column 5), never a button; ESP32: GPIO15 to GND."""
    from tablectl.hw.buttons import Buttons
    pico = load("pico")
    b = pico.make()
    p = pins("pico")
    assert pico.PANEL_4X5[3][4] == "SERVICE_KEY"
    buttons = Buttons(b.buttons, scanners=b.scanners)
    PRESSED.add((p["KEY_ROW4"], p["KEY_COL5"]))  # the switch turned on: row 4 connected to column 5
    events = []
    for t in range(0, 100, 10):
        events += buttons.poll(t)
    assert events == [] and b.service_key.value() == 1  # read as the switch, no button pressed
    esp = load("esp32").make()
    assert esp.service_key.value() == 0
    LEVEL[pins("esp32")["SERVICE_KEY"]] = 0  # closed to GND
    assert esp.service_key.value() == 1


def test_the_flash_log_has_its_raw_region_where_the_build_leaves_one_else_a_file(monkeypatch, tmp_path):
    pico = load("pico")
    region = pico.log_region()
    assert (region.start, region.len) == (Flash.SIZE - (1 << 20), 1 << 20)  # the storage area's last 1 MB
    monkeypatch.setattr("os.statvfs", lambda path: (4096, 4096, Flash.SIZE // 4096, 0, 0, 0, 0, 0, 0, 255))
    assert pico.log_region() is None  # a stock build's filesystem takes the whole area
    from tablectl.hw.fileflash import FileFlash
    from tablectl.hw.wiring import table_flash
    dev = table_flash(None, 256, path=str(tmp_path / "tablelog.bin"))
    assert isinstance(dev, FileFlash) and dev.prog == 256
    esp32 = load("esp32")
    assert esp32.log_region().label == "tablelog"
    Partition.FOUND = []
    assert esp32.log_region() is None


@pytest.mark.parametrize("name", ["pico", "esp32"])
def test_a_keypad_key_reaches_the_buttons_as_its_role(name):
    from tablectl.hw.buttons import Buttons
    mod = load(name)
    b = mod.make()
    p = pins(name)
    for role, gpio in p.items():
        if role.startswith("KEY_COL") and gpio >= 34:
            LEVEL[gpio] = 1  # the external pull-ups pins.csv asks for (no internal ones on 34-39)
    buttons = Buttons(b.buttons, scanners=b.scanners)
    # ENTER is row 4, column 3 of keypad.PANEL_4X5
    assert mod.PANEL_4X5[3][2] == "ENTER"  # the layout the board wires
    PRESSED.add((p["KEY_ROW4"], p["KEY_COL3"]))
    events = []
    for t in range(0, 100, 10):
        events += buttons.poll(t)
    assert events == ["ENTER"]


def test_esp32_seat_sensors_come_through_the_74hc165():
    b = load("esp32").make()
    p = pins("esp32")
    data = Pin.table[p["SEATS_DATA"]]
    clk = Pin.table[p["SEATS_CLK"]]
    chips = [0, 0, 1, 0, 0, 0, 1, 0]  # seats 3 and 7 have a chip
    state = {"i": 0}

    # QH shows input i until CLK rises; SH/LD low loads the inputs and restarts at input 0
    def data_value(v=None):
        return chips[state["i"]] if state["i"] < 8 else 0
    data.value = data_value
    orig = clk.value

    def clk_value(v=None):
        if v == 1 and clk.level == 0:
            state["i"] += 1
        return orig(v)
    clk.value = clk_value
    load_pin = Pin.table[p["SEATS_LOAD"]]
    orig_load = load_pin.value

    def load_value(v=None):
        if v == 0:
            state["i"] = 0
        return orig_load(v)
    load_pin.value = load_value
    for s in b.scanners:
        s.scan()
    assert [pin.value() for pin in b.seats] == [0, 0, 1, 0, 0, 0, 1]


@pytest.mark.parametrize("name", ["pico", "esp32"])
def test_shaker_needs_the_cover_switch_closed_SB_2_1(name):
    b = load(name).make()
    p = pins(name)
    LEVEL[p["COVER"]] = 1  # switch open (pulled up): cover not clipped
    with pytest.raises(ValueError):
        b.shaker.on(1000)
    assert Pin.table[p["SHAKER"]].level == 0
    LEVEL[p["COVER"]] = 0  # clipped: the switch pulls the pin to GND
    b.shaker.on(1000)
    assert Pin.table[p["SHAKER"]].level == 1
    b.shaker.off()


@pytest.mark.parametrize("name,timer_id", [("pico", -1), ("esp32", 0)])
def test_a_stopped_firmware_holds_the_armed_watchdog_from_a_timer(name, timer_id):
    """Ctrl-C at the REPL (tablectl.app.run) calls wdt.hold(): machine.WDT cannot be stopped, so a timer
    feeds it well inside its timeout; the ESP32 has no virtual timer (-1) and takes hardware timer 0."""
    mod = load(name)
    wdt = mod.make().wdt
    assert wdt.hold() is False and Timer.made == []  # never armed (the firmware never ran): nothing to hold
    wdt.feed()
    assert [w.timeout for w in WDT.made] == [mod.WDT_MS]
    assert wdt.hold() is True and wdt.hold() is True
    assert len(Timer.made) == 1  # held once, however often asked
    t = Timer.made[0]
    assert t.id == timer_id and t.mode == Timer.PERIODIC and 0 < t.period <= mod.WDT_MS // 4
    before = WDT.made[0].feeds
    t.callback(t)
    t.callback(t)
    assert WDT.made[0].feeds == before + 2


def test_the_display_row_of_pins_csv_picks_the_part_and_refuses_one_without_a_driver(tmp_path):
    from tablectl.hw.lcd import Lcd
    from tablectl.hw.wiring import read_pins, text_display
    f = tmp_path / "pins.csv"
    f.write_text("role,gpio\nDISPLAY,ssd1306\nBELL,GP3\n")
    assert read_pins(str(f)) == {"DISPLAY": "SSD1306", "BELL": 3}
    f.write_text("role,gpio\nBELL,GP3\nDISPLAY,ST7920\n")
    with pytest.raises(ValueError, match="line 3: DISPLAY is HD44780 or SSD1306, got 'DISPLAY,ST7920'"):
        read_pins(str(f))
    bus = Bus()
    assert isinstance(text_display({}, bus), Lcd) and isinstance(text_display({"DISPLAY": "HD44780"}, bus), Lcd)
    assert {addr for addr, _ in bus.sent} == {0x27}
    for name in ("pico", "esp32"):  # the bus at the PCF8574's 100 kHz (an SSD1306 would have 400)
        del Bus.made[:]
        load(name).make()
        assert [b.kw["freq"] for b in Bus.made if "sda" in b.kw] == [100000]
    # the SSD1306 itself is made on the unix port (host_tests/hardware/test_hw_oled.py): CPython has no framebuf
    with pytest.raises(ImportError, match="DISPLAY,SSD1306 needs micropython-lib's ssd1306"):
        text_display({"DISPLAY": "SSD1306"}, bus)
