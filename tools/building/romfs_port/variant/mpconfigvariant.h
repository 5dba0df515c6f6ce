// The unix port as a board with a ROMFS partition: the standard variant, plus the ROMFS segment of
// romfs_file.c, which MicroPython mounts at /rom when it starts.
#define MICROPY_CONFIG_ROM_LEVEL (MICROPY_CONFIG_ROM_LEVEL_EXTRA_FEATURES)

#include "variants/mpconfigvariant_common.h"

#undef MICROPY_VFS_ROM_IOCTL
#define MICROPY_VFS_ROM_IOCTL (1)
