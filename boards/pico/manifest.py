# Freeze the firmware into a MicroPython build for the Pico:
#   make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/boards/pico/manifest.py (in ports/rp2)
# pins.csv is read from the filesystem at boot: copy it to / (tools/building/build_mpy.py lays it out there).
# The port's boards/manifest.py but its modules/_boot.py, which mounts the whole storage area and formats it
# when that fails: this board's _boot.py keeps the log region out of the filesystem (flashparts.py)
module("rp2.py", base_path="$(PORT_DIR)/modules")
module("_boot_fat.py", base_path="$(PORT_DIR)/modules")
include("$(MPY_DIR)/extmod/asyncio")
require("onewire")
require("ds18x20")
require("dht")
require("neopixel")
require("aiorepl")  # the technician's REPL beside the running controller (tablectl.hw.wiring)
require("ssd1306")  # the graphic display's driver (pins.csv DISPLAY,SSD1306; tablectl.hw.oled)
# the firmware, its REPL shim, the version; and the graphic display's glyphs (glyphs=True)
include("../../firmware/tablectl/manifest.py", board="Raspberry Pi Pico", glyphs=True)
module("_boot.py")
module("flashparts.py")
module("board.py")
