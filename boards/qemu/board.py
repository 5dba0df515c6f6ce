"""The qemu board: the sim board's virtual hardware wired on an emulated Cortex-M3 (MicroPython's ports/qemu,
machine mps2-an385, built by tools/building/qemu_image.py), where the firmware runs frozen into the image.

The dealer's buttons, seat sensors, lamps (a virtual WS2812 chain), jackpot digits (a virtual MAX7219),
display, shaker, bell and betting lamp are simhw's, as on the sim board; what stands in for their
wires is the simulator's host link. The machine's resources:
    UART0   the REPL (qemu's first -serial: a pty). The sim board's REPL task serves it beside the
            controller, so `mpremote ... resume` works while the table runs; Ctrl-C clears its line.
    UART1   the simulator's host link (boards/sim/hostlink.py; qemu's second -serial connects to tools/sim). It
            says `boot` once as it comes up (a host connected across a reset then sends "sync" and the
            table's inputs again), then stays quiet until the host speaks.
    flash   the PSRAM, which qemu keeps in a host file: LittleFS at / (_boot.py) for main.py and the
            manifest, and `flash` (mps2.Flash over flashmap.RECORDS), the raw region where App keeps the
            table's log of records and journal (tablectl.storage), programmed in 256-byte pages as a Pico's.
"""
from machine import UART

import mps2
from flashmap import RECORDS
from simhw import SimBoard

ROOT = "/"


class QemuBoard(SimBoard):
    serial = "qemu-an385"  # the table's name in a journal export (the emulated machine has no chip id)

    def __init__(self, virtual_clock=False, flash=None):
        SimBoard.__init__(self, virtual_clock)
        self.flash = flash or mps2.Flash(*RECORDS)

    def tasks(self):
        import micropython
        import simrepl
        micropython.kbd_intr(-1)  # Ctrl-C belongs to the REPL task now, as aiorepl does on a board
        return list(self.extra_tasks) + [simrepl.task(UART(0)), _link(self)]


async def _link(board):
    import asyncio
    import hostlink
    uart = UART(1)
    uart.write(hostlink.BOOT)  # a host already connected (the board was reset under it) answers with "sync"
    reader = asyncio.StreamReader(uart)
    first = await reader.readline()  # the host's first line, its "sync", or a command: it is served too
    await hostlink.serve(board, uart, reader, first)


def make(virtual_clock=False, flash=None):
    return QemuBoard(virtual_clock, flash)
