"""Board wiring helpers shared by the real boards: the role -> GPIO table (pins.csv) and the board object."""


def beside(module_file, name):
    """The path of `name` in the folder of the module whose __file__ is module_file (the board's pins.csv)."""
    return (module_file.rsplit("/", 1)[0] + "/" if "/" in module_file else "") + name


def read_pins(path):
    """{role: gpio number} from a pins.csv of 'ROLE,GPIOn' lines ('#' starts a comment, a header
    'role,gpio' is skipped); ValueError for a line that is not ROLE,GPIO or a GPIO used twice."""
    pins = {}
    used = {}
    with open(path) as f:
        for n, line in enumerate(f):
            line = line.split("#")[0].strip()
            if not line or line.lower().startswith("role,"):
                continue
            parts = [p.strip() for p in line.split(",")]
            name = parts[1].upper() if len(parts) == 2 else ""
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


class Board:
    """What board.make() returns (the firmware contract): buttons, seats, shaker, bell, betting_lamp,
    lamps, display, jackpot, wdt, ticks_ms, scanners (keypad matrices, input shift registers polled
    with the buttons) and tasks()."""

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
        """Extra tasks: micropython-lib's aiorepl when installed (tools/deploy.py installs it), so a
        technician's `mpremote ... resume` reaches the REPL while the controller keeps running."""
        try:
            import aiorepl
        except ImportError:
            return []
        return [aiorepl.task()]
