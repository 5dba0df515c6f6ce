"""Simulated board for the unix port: virtual pins, lamps, text display and jackpot digits that tests and the simulator read and drive.

    import board
    b = board.make(virtual_clock=True)   # ticks move only on b.clock.advance(ms)
    b.press('BELL'); b.release('BELL')   # the dealer's buttons, by role (see tablectl/games/base.py)
    b.set_seat(3, True)                  # a chip on seat 3's progressive sensor (seats 1..SEATS, 1 = dealer's left)
    b.set_cover(False)                   # the shaker cover unclipped (the shaker's interlock opens)
    b.set_service_key(True)              # the technician's key switch turned on
    b.snapshot()                         # every output as plain data
    b.oled                               # env TABLECTL_DISPLAY=SSD1306: the display is the graphic one,
                                         # drawn by tablectl.hw.oled into this virtual SSD1306 (its RAM)
    b.listeners.append(fn)               # fn(what) on every output change: 'lamps', 'display',
                                         # 'jackpot', 'shaker', 'bell', 'betting_lamp', 'wdt'
    b.tasks()                            # extra coroutines App.run() starts: b.extra_tasks (links)
    b.flash                              # the table's flash (records and journal): a file, as a board's
                                         # raw flash region (make(flash=dev) gives another device)
    b.rtc                                # the time of day: ROOT/rtc, an offset from the host's clock (kept
                                         # across a power cut); a virtual clock's counts from its ticks

The virtual hardware is in simhw.py (boards/qemu wires the same). The real drivers run on it: the lamp
driver writes a virtual WS2812 chain, the jackpot driver a virtual MAX7219 (its register writes are
decoded back into digits), so what the tests and the simulator see is what the driver sent. ROOT is the
board's folder (env TABLECTL_ROOT, default 'simstate'): its flash is the file ROOT/flash.bin, FLASH_BLOCKS
blocks of 4 KB programmed in 256-byte pages, as a Pico's.
"""
import os

from simhw import SimBoard
from tablectl.hw.fileflash import FileFlash

_env = getattr(os, "getenv", lambda name: None)  # the simulator's settings (a port without getenv has none)
ROOT = _env("TABLECTL_ROOT") or "simstate"
FLASH_BLOCKS = 256  # 1 MB: the log region the flash-life figures assume


def sim_flash(root=None, blocks=FLASH_BLOCKS):
    """The flash file of the board folder `root` (ROOT by default), created erased on first use."""
    root = ROOT if root is None else root
    try:
        os.stat(root)
    except OSError:
        os.mkdir(root)
    return FileFlash(root + "/flash.bin", blocks=blocks)


class UnixSimBoard(SimBoard):
    def __init__(self, virtual_clock=False, flash=None):
        SimBoard.__init__(self, virtual_clock)
        self._flash = flash
        self.oled = None
        if (_env("TABLECTL_DISPLAY") or "").upper() == "SSD1306":  # the graphic display (python -m sim --oled)
            from simoled import VirtualSsd1306
            from tablectl.hw.wiring import text_display
            self.oled = VirtualSsd1306(self)
            self.display = text_display({"DISPLAY": "SSD1306"}, self.oled)
        path = ROOT + "/flash.bin" if flash is None else getattr(flash, "path", None)
        if path is not None and not virtual_clock:  # a battery-backed clock beside the flash file: the host's
            import time                               # time and an offset
            from tablectl.hw.rtc import FileRTC
            self.rtc = FileRTC(path[:path.rfind("/") + 1] + "rtc", time.time)

    @property
    def serial(self):
        """The table's name in a journal export: 'sim-' and its folder (the game's, under make sim)."""
        path = getattr(self.flash, "path", "flash.bin")
        if not path.startswith("/"):
            path = os.getcwd() + "/" + path
        parts = [p for p in path.split("/")[:-1] if p]
        if parts and parts[-1] == ROOT.rstrip("/").split("/")[-1]:
            parts.pop()  # the board folder's own name (simstate) says nothing: its parent's does
        return "sim-" + (parts[-1] if parts else "table")

    @property
    def flash(self):
        """The board's flash: the one given to make(), or ROOT/flash.bin (created when first asked for)."""
        if self._flash is None:
            self._flash = sim_flash()
        return self._flash

    def tasks(self):
        extra = list(self.extra_tasks)
        # the host simulator (tools/sim) asks for its link and the REPL on the pty through the environment
        if _env("TABLECTL_HOSTLINK"):
            import hostlink
            extra.append(hostlink.task(self, _env("TABLECTL_HOSTLINK")))
        if _env("TABLECTL_REPL"):
            import simrepl
            extra.append(simrepl.task())
        if _env("TABLECTL_SESSION"):  # the bench's rounds, played beside the controller (tools/bench/mp)
            import fwsession
            extra.append(fwsession.task(self, int(_env("TABLECTL_SESSION"))))
        return extra


def make(virtual_clock=False, flash=None):
    """The board; main.py's make() gets a virtual clock when env TABLECTL_CLOCK is 'virtual' (the bench)."""
    if _env("TABLECTL_SESSION"):
        import fwsession  # the bench's harness takes its heap before the table's, as a board's own code would  # noqa: F401
    return UnixSimBoard(virtual_clock or _env("TABLECTL_CLOCK") == "virtual", flash)
