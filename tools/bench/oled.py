"""The graphic display's figures: the heap its glyph module (tablectl.hw.glyphs) and the display (the
driver's frame and tablectl.hw.oled) take on the 64-bit unix port (.mpy files from the filesystem) and on
the 32-bit ROMFS port (the .mpy files in ROMFS, run in place as on a board's flash), and the bytes one
row's change sends on the I2C bus. Needs build/sim (make mpy) and micropython-lib's ssd1306 (tools/building/mplib.py).

    python tools/bench/oled.py      (or `make bench`)
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from building.build_mpy import romfs_image, venv_tool
from building import mplib

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
BUILD = ROOT / "build" / "sim"
MEASURE = r'''
import gc, sys
sys.path.append(sys.argv[1])
import ssd1306
from harness.fakebus import I2c
gc.collect(); a = gc.mem_alloc()
from tablectl.hw import glyphs
gc.collect(); b = gc.mem_alloc()
from tablectl.hw.oled import Oled
bus = I2c()
d = Oled(ssd1306.SSD1306_I2C(128, 64, bus), glyphs)
bus.writes.clear()  # what the fake bus recorded is no part of the display
gc.collect(); c = gc.mem_alloc()
d.text(0, "2 2 5=9 SMALL")
print("OLED", b - a, c - b, len(bus.writes), sum(len(w) for _, w in bus.writes), len(glyphs.CHARS))
'''


def measure(exe, env, work):
    (work / "oled_measure.py").write_text(MEASURE)
    proc = subprocess.run([exe, "-X", "heapsize=256K", str(work / "oled_measure.py"), str(mplib.folder())],
                          capture_output=True, text=True, env=env, timeout=60, cwd=str(work))
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("OLED ")]
    if not line:
        raise RuntimeError("oled bench failed: %s" % (proc.stdout + proc.stderr)[-400:])
    return [int(v) for v in line[0].split()[1:]]


def main():
    tests = ROOT / "host_tests"  # the harness package: its fake I2C bus
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        fs = dict(os.environ, MICROPYPATH=":".join([".frozen", str(BUILD), str(tests)]))
        glyph_heap, display_heap, writes, sent, han = measure(venv_tool("micropython") or "micropython", fs, work)
        print("oled glyphs: %d Han glyphs and 95 ASCII, tablectl/hw/glyphs.mpy %d bytes"
              % (han, (BUILD / "tablectl" / "hw" / "glyphs.mpy").stat().st_size))
        print("oled heap, 64-bit unix port, .mpy from the filesystem: glyph module %d bytes, display %d bytes"
              % (glyph_heap, display_heap))
        rom = venv_tool("micropython-rom32")
        if rom:
            stage = work / "romfs"
            shutil.copytree(BUILD, stage, ignore=shutil.ignore_patterns("*.py", "*.json"))
            (work / "fw.romfs").write_bytes(romfs_image(stage))
            env = dict(os.environ, MICROPYPATH=":".join([".frozen", "/rom", str(tests)]),
                       MICROPY_ROMFS=str(work / "fw.romfs"))
            glyph_rom, display_rom = measure(rom, env, work)[:2]
            print("oled heap, 32-bit port, .mpy in ROMFS (in place, as on a board): glyph module %d bytes, "
                  "display %d bytes" % (glyph_rom, display_rom))
        else:
            print("oled: micropython-rom32 is not built (make rom32): no ROMFS figure")
        print("oled bus: one row changed sends %d I2C writes, %d bytes (its 4 pages of the 1,024-byte frame): "
              "%.0f ms at 100 kHz, %.0f ms at 400 kHz (9 clocks a byte, an address byte a write)"
              % (writes, sent, (sent + writes) * 9 / 100.0, (sent + writes) * 9 / 400.0))


if __name__ == "__main__":
    sys.exit(main())
