"""Board wiring helpers shared by the real boards: the role -> GPIO table (pins.csv) and the board object."""


def beside(module_file, name):
    """The path of `name` in the folder of the module whose __file__ is module_file (the board's pins.csv)."""
    return (module_file.rsplit("/", 1)[0] + "/" if "/" in module_file else "") + name


DISPLAYS = ("HD44780", "SSD1306")  # the dealer's display a pins.csv's DISPLAY row names (none: the HD44780)
# its I2C bus's clock: a PCF8574 takes 100 kHz; an SSD1306 400, where a row's 525 bytes take 12 ms
I2C_HZ = {"HD44780": 100000, "SSD1306": 400000}


def read_pins(path):
    """{role: gpio number} from a pins.csv of 'ROLE,GPIOn' lines ('#' starts a comment, a header
    'role,gpio' is skipped), and the part a DISPLAY row names; ValueError for a line that is not ROLE,GPIO,
    a GPIO used twice or a display this firmware has no driver for."""
    pins = {}
    used = {}
    with open(path) as f:
        for n, line in enumerate(f):
            line = line.split("#")[0].strip()
            if not line or line.lower().startswith("role,"):
                continue
            parts = [p.strip() for p in line.split(",")]
            name = parts[1].upper() if len(parts) == 2 else ""
            if name == "KEYPAD":  # wired into the keypad matrix's own position for it (keypad.PANEL_4X5)
                pins[parts[0]] = name
                continue
            if parts[0] == "DISPLAY":
                if name not in DISPLAYS:
                    raise ValueError("%s line %d: DISPLAY is %s, got %r" % (path, n + 1, " or ".join(DISPLAYS), line))
                pins["DISPLAY"] = name
                continue
            for prefix in ("GPIO", "GP"):
                if name.startswith(prefix):
                    name = name[len(prefix):]
                    break
            if len(parts) != 2 or not parts[0] or not name.isdigit():
                raise ValueError("%s line %d: want ROLE,GPIOn, got %r" % (path, n + 1, line))
            gpio = int(name)
            if gpio in used:
                raise ValueError("%s line %d: GPIO%d is already %s" % (path, n + 1, gpio, used[gpio]))
            used[gpio] = parts[0]
            pins[parts[0]] = gpio
    return pins


def text_display(pins, i2c):
    """The dealer's display on the I2C bus, the part pins.csv's DISPLAY row names: a 16x2 HD44780 behind its
    PCF8574 (0x27), or a 128x64 SSD1306 (0x3C) that shows the game's terms in Chinese too (tablectl.hw.oled)."""
    if pins.get("DISPLAY", "HD44780") == "HD44780":
        from tablectl.hw.lcd import Lcd
        return Lcd(i2c, 0x27, 16, 2)
    try:
        import ssd1306
        from tablectl.hw import glyphs
    except ImportError as e:
        raise ImportError("DISPLAY,SSD1306 needs micropython-lib's ssd1306 (mpremote mip install ssd1306) and "
                          "tablectl/hw/glyphs.mpy (built with Debian's unifont): %s" % e)
    from tablectl.hw.oled import Oled
    return Oled(ssd1306.SSD1306_I2C(128, 64, i2c, 0x3C), glyphs)


class Inverted:
    """A switch that closes to GND (or a keypad position, 0 while closed) read as 1 when closed."""

    def __init__(self, pin):
        self.pin = pin

    def value(self):
        return 0 if self.pin.value() else 1


def service_key(pins, keypad, gpio_input):
    """The technician's key switch (role SERVICE_KEY): a GPIO with its pull-up (gpio_input(n) makes it), or
    the keypad matrix's position for it (taken out of the keypad's buttons). 1 = on."""
    where = pins["SERVICE_KEY"]
    if where == "KEYPAD":
        return Inverted(keypad.pins.pop("SERVICE_KEY"))
    keypad.pins.pop("SERVICE_KEY", None)
    return Inverted(gpio_input(where))


class Region:
    """A raw flash region (rp2.Flash, esp32.Partition: the extended block protocol) with the program unit
    its chip needs, which tablectl.storage aligns its writes to."""

    def __init__(self, dev, prog):
        self.dev = dev
        self.prog = prog
        self.readblocks = dev.readblocks
        self.writeblocks = dev.writeblocks
        self.ioctl = dev.ioctl


def table_flash(region, prog, path="/tablelog.bin", blocks=64):
    """Where the flash log keeps the table's records and journal: `region`, a raw flash region the build
    leaves outside the filesystem; else (None) a file on the filesystem. A file works, but LittleFS copies a
    file's blocks as it rewrites them, so the flash then wears as it did before the log (docs/technicians.md
    says how to give a board its region). The file is marked `file_fallback`: the App tilts NO LOG REGION on
    it unless the configuration's log_file_ok accepts it."""
    if region is not None:
        return Region(region, prog)
    from tablectl.hw.fileflash import FileFlash
    dev = FileFlash(path, blocks=blocks, block_size=4096, prog=prog)
    dev.file_fallback = True
    return dev


class Board:
    """What board.make() returns (the firmware contract): buttons, seats, shaker, bell, betting_lamp,
    lamps, display, jackpot, wdt, ticks_ms, service_key (the technician's key switch, value() 1 = on),
    flash (the block device the records and journal live on), scanners (keypad matrices, input shift
    registers polled with the buttons), rtc (the time of day: tablectl.hw.rtc; a board without one never has
    the time set) and tasks()."""

    def __init__(self, **parts):
        self.scanners = ()
        self.jackpot = None
        for k in parts:
            setattr(self, k, parts[k])

    @property
    def serial(self):
        """The table's name in a journal export: the chip's unique id."""
        import binascii
        import machine
        return binascii.hexlify(machine.unique_id()).decode()

    def tasks(self):
        """Extra tasks: micropython-lib's aiorepl when installed (tools/boardops/deploy.py installs it), so a
        technician's `mpremote ... resume` reaches the REPL while the controller keeps running."""
        try:
            import aiorepl
        except ImportError:
            return []
        return [aiorepl.task()]
