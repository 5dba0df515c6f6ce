# Freeze the firmware into a MicroPython build for the ESP32:
#   make BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/boards/esp32/manifest.py (in ports/esp32)
# pins.csv is read from the filesystem at boot: copy it to / (tools/build_mpy.py lays it out there).
metadata(description="tablectl table-controller firmware, ESP32 board", version="0.1.0")
include("$(PORT_DIR)/boards/manifest.py")
require("neopixel")
require("aiorepl")  # the technician's REPL beside the running controller (tablectl.hw.wiring)
package("tablectl", base_path="../../firmware")
module("board.py")
module("service.py", base_path="../../firmware")
