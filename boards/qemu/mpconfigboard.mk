# tablectl's qemu board: MicroPython's ports/qemu for the mps2-an385, built out of the tree:
#   make -C ports/qemu BOARD=TABLECTL BOARD_DIR=<this folder> MPY_LIB_DIR=<a folder with a README.md> [TABLECTL_CPU=m3]
# (tools/building/qemu_image.py does it: `make firmware BOARD=qemu`). The stock MPS2_AN385 board's settings,
# plus: the board's C files, its configuration header (MP_CONFIGFILE), its linker script, LittleFS, and
# the firmware frozen in (manifest.py).
QEMU_ARCH = arm
QEMU_MACHINE = mps2-an385

# The code is ARMv6-M, the instruction set of the RP2040's Cortex-M0+, by default: qemu's Cortex-M3 runs
# it (ARMv6-M is a subset of ARMv7-M), so its instruction counts are the Pico's. TABLECTL_CPU=m3 builds
# for the machine's own core (Thumb-2) instead.
TABLECTL_CPU ?= m0plus
ifeq ($(TABLECTL_CPU),m3)
CFLAGS += -mthumb -mcpu=cortex-m3 -mfloat-abi=soft
CFLAGS += -DMICROPY_HW_MCU_NAME='"Cortex-M3"'
SRC_BOARD_O = shared/runtime/gchelper_native.o shared/runtime/gchelper_thumb2.o
MPY_CROSS_FLAGS += -march=armv7m
else ifeq ($(TABLECTL_CPU),m0plus)
CFLAGS += -mthumb -mcpu=cortex-m0plus -mfloat-abi=soft
CFLAGS += -DMICROPY_HW_MCU_NAME='"Cortex-M0+ (ARMv6-M)"'
SRC_BOARD_O = shared/runtime/gchelper_native.o shared/runtime/gchelper_thumb1.o
MPY_CROSS_FLAGS += -march=armv6m
else
$(error TABLECTL_CPU is m0plus or m3, not $(TABLECTL_CPU))
endif
CFLAGS += -DQEMU_SOC_MPS2
CFLAGS += -DMP_CONFIGFILE='"$(BOARD_DIR)/mpconfigboard.h"'
INC += -I$(BOARD_DIR)

LDSCRIPT = $(BOARD_DIR)/mps2.ld
SRC_C += $(BOARD_DIR)/board.c $(BOARD_DIR)/flash.c $(BOARD_DIR)/sha1.c
# board.c takes these over from the port's own files (see its header comment)
LDFLAGS += -Wl,--wrap=uart_rx_chr -Wl,--wrap=mp_hal_stdio_poll -Wl,--wrap=gc_init

MICROPY_VFS_LFS2 = 1

# The GC's heap is the first `heap=` bytes of this array (the qemu command line, board.c); all of it
# without one.
MICROPY_HEAP_SIZE = 262144

FROZEN_MANIFEST ?= $(BOARD_DIR)/manifest.py
