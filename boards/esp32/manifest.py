# Freeze the firmware into a MicroPython build for the ESP32:
#   make BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/boards/esp32/manifest.py (in ports/esp32)
# pins.csv is read from the filesystem at boot: copy it to / (tools/building/build_mpy.py lays it out there).
include("$(PORT_DIR)/boards/manifest.py")
require("neopixel")
require("aiorepl")  # the technician's REPL beside the running controller (tablectl.hw.wiring)
require("ssd1306")  # the graphic display's driver (pins.csv DISPLAY,SSD1306; tablectl.hw.oled)
# the firmware, its REPL shim, the version; and the graphic display's glyphs (glyphs=True)
include("../../firmware/tablectl/manifest.py", board="ESP32", glyphs=True)
module("board.py")
