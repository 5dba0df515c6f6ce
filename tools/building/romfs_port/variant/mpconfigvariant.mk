# Only asyncio is frozen (manifest.py); the firmware comes from the ROMFS image at run time, as on a
# board. ffi, ssl and btree are left out: the source package has their libraries stripped, and the
# firmware uses none of them.
FROZEN_MANIFEST = $(VARIANT_DIR)/manifest.py
MICROPY_PY_FFI = 0
MICROPY_PY_SSL = 0
MICROPY_PY_BTREE = 0

# main.c carries an empty ROMFS for the coverage tests; romfs_file.c replaces it.
$(BUILD)/main.o: CFLAGS += -Dmp_vfs_rom_ioctl=mp_vfs_rom_ioctl_empty
