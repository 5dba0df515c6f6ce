# Freeze the firmware with the simulated board into a unix-port build (for a host simulator image):
#   make -C ports/unix FROZEN_MANIFEST=/path/to/boards/sim/manifest.py
metadata(description="tablectl table-controller firmware, simulated board", version="0.1.0")
include("$(PORT_DIR)/variants/manifest.py")
package("tablectl", base_path="../../firmware")
module("board.py")
module("service.py", base_path="../../firmware")
module("link.py")
module("simrepl.py")
