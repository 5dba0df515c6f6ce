# Freeze the firmware into the qemu board's image (make firmware BOARD=qemu, tools/building/qemu_image.py):
#   make -C ports/qemu BOARD=TABLECTL BOARD_DIR=/path/to/boards/qemu MPY_LIB_DIR=...
# The sim board's virtual hardware, link and REPL task come with it (the board wires them); main.py
# goes on the board's filesystem (make mcu writes it on a new flash; make deploy BOARD=qemu copies it).
include("$(MPY_DIR)/extmod/asyncio")  # ports/qemu freezes none
include("../../firmware/tablectl/manifest.py", board="qemu")  # the firmware, its REPL shim, the version
module("_boot.py")
module("flashmap.py")
module("board.py")
module("simhw.py", base_path="../sim")
module("hostlink.py", base_path="../sim")
module("simrepl.py", base_path="../sim")
module("demo_amounts.py", base_path="../sim")
# the bench's session (tools/bench/qemu.py): a lab board carries it, so the figures count the table's data
# in the heap and not the harness's code
module("fwround.py", base_path="../../tools/bench/mp")
module("mcusession.py", base_path="../../tools/bench/mp")
