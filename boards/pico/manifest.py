# Freeze the firmware into a MicroPython build for the Pico:
#   make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/boards/pico/manifest.py (in ports/rp2)
# pins.csv is read from the filesystem at boot: copy it to / (tools/build_mpy.py lays it out there).
include("$(PORT_DIR)/boards/manifest.py")
include("../../firmware/manifest.py")
require("neopixel")
require("aiorepl")  # the technician's REPL beside the running controller (tablectl.hw.wiring)
module("board.py")
