# Freeze the firmware with the simulated board into a unix-port build (for a host simulator image):
#   make -C ports/unix FROZEN_MANIFEST=/path/to/boards/sim/manifest.py
include("$(PORT_DIR)/variants/manifest.py")
include("../../firmware/tablectl/manifest.py", board="simulated")  # the firmware, its REPL shim, the version
module("board.py")
module("simhw.py")
module("hostlink.py")
module("simrepl.py")
module("demo_amounts.py")
