# tablectl's qemu board: MicroPython's ports/qemu for the mps2-an385 (Cortex-M3), built out of the tree:
#   make -C ports/qemu BOARD=TABLECTL BOARD_DIR=<this folder> MPY_LIB_DIR=<a folder with a README.md>
# (tools/qemu_board/build.py does it: `make firmware BOARD=qemu`). The stock MPS2_AN385 board's settings,
# plus: the board's C files, its configuration header (MP_CONFIGFILE), its linker script, LittleFS, and
# the firmware frozen in (manifest.py).
QEMU_ARCH = arm
QEMU_MACHINE = mps2-an385

CFLAGS += -mthumb -mcpu=cortex-m3 -mfloat-abi=soft
CFLAGS += -DQEMU_SOC_MPS2
CFLAGS += -DMICROPY_HW_MCU_NAME='"Cortex-M3"'
CFLAGS += -DMP_CONFIGFILE='"$(BOARD_DIR)/mpconfigboard.h"'
INC += -I$(BOARD_DIR)

LDSCRIPT = $(BOARD_DIR)/mps2.ld
SRC_BOARD_O = shared/runtime/gchelper_native.o shared/runtime/gchelper_thumb2.o
SRC_C += $(BOARD_DIR)/board.c $(BOARD_DIR)/flash.c $(BOARD_DIR)/sha1.c
# board.c takes these over from the port's own files (see its header comment)
LDFLAGS += -Wl,--wrap=uart_rx_chr -Wl,--wrap=mp_hal_stdio_poll -Wl,--wrap=gc_init

MPY_CROSS_FLAGS += -march=armv7m

MICROPY_VFS_LFS2 = 1

# The GC's heap is the first `heap=` bytes of this array (the qemu command line, board.c); all of it
# without one.
MICROPY_HEAP_SIZE = 262144

FROZEN_MANIFEST ?= $(BOARD_DIR)/manifest.py
