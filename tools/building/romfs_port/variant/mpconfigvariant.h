// The unix port as a board with a ROMFS partition: the standard variant, plus the ROMFS segment of
// romfs_file.c, which MicroPython mounts at /rom when it starts.
#define MICROPY_CONFIG_ROM_LEVEL (MICROPY_CONFIG_ROM_LEVEL_EXTRA_FEATURES)

#include "variants/mpconfigvariant_common.h"

#undef MICROPY_VFS_ROM_IOCTL
#define MICROPY_VFS_ROM_IOCTL (1)

// hashlib.sha1, for service.verify()'s HMAC-SHA1 (the lab's field check): modhashlib takes it from axTLS's
// names, which Debian's source strips with the SSL libraries; build.py copies in the qemu board's own SHA-1
// (boards/qemu/sha1.c and its lib/axtls/crypto/crypto.h). No TLS is built (MICROPY_PY_SSL = 0).
#define MICROPY_PY_HASHLIB_SHA1 (1)
#define MICROPY_SSL_AXTLS (1)
