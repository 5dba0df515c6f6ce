// A board's ROMFS partition, on the unix port: the file named by $MICROPY_ROMFS is the partition (its
// size is the partition's), mapped into memory. MicroPython mounts the image in it at /rom and runs
// the .mpy files there in place, so their bytecode and strings stay out of the heap, as they do in a
// board's flash. The write ioctls let `mpremote romfs deploy` write a new image into the file, as it
// writes a board's partition (a read-only file refuses them). Without the variable the ROMFS is empty.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "py/runtime.h"
#include "py/mperrno.h"
#include "py/objarray.h"
#include "extmod/vfs.h"

static uint8_t empty_romfs[4] = { 0xd2, 0xcd, 0x31, 0x00 };
static mp_obj_array_t romfs_segment;
static bool writable;

static void map_partition(void) {
    const char *path = getenv("MICROPY_ROMFS");
    void *image = empty_romfs;
    size_t len = sizeof(empty_romfs);
    if (path != NULL && *path != '\0') {
        const char *fault = NULL;
        struct stat st;
        int fd = open(path, O_RDWR);
        writable = fd >= 0;
        if (fd < 0 && (errno == EACCES || errno == EROFS)) {
            fd = open(path, O_RDONLY);
        }
        if (fd < 0 || fstat(fd, &st) != 0) {
            fault = strerror(errno);
        } else if (st.st_size == 0) {
            fault = "empty file";
        } else if ((image = mmap(NULL, st.st_size, writable ? PROT_READ | PROT_WRITE : PROT_READ,
            MAP_SHARED, fd, 0)) == MAP_FAILED) {
            fault = strerror(errno);
        }
        if (fd >= 0) {
            close(fd);
        }
        if (fault != NULL) {
            // Said once, at start-up; the imports that needed the image then fail by name.
            fprintf(stderr, "MICROPY_ROMFS: cannot map %s: %s\n", path, fault);
            image = empty_romfs;
            writable = false;
        } else {
            len = st.st_size;
        }
    }
    mp_obj_memoryview_init(&romfs_segment, 'B', 0, len, image);
}

// The partition's bytes [offset, offset + len), or NULL if that is not inside it.
static uint8_t *partition_at(mp_obj_t offset_in, size_t len) {
    mp_int_t offset = mp_obj_get_int(offset_in);
    if (!writable || offset < 0 || (size_t)offset > romfs_segment.len || len > romfs_segment.len - offset) {
        return NULL;
    }
    return (uint8_t *)romfs_segment.items + offset;
}

mp_obj_t mp_vfs_rom_ioctl(size_t n_args, const mp_obj_t *args) {
    if (romfs_segment.base.type == NULL) {
        map_partition();
    }
    switch (mp_obj_get_int(args[0])) {
        case MP_VFS_ROM_IOCTL_GET_NUMBER_OF_SEGMENTS:
            return MP_OBJ_NEW_SMALL_INT(1);
        case MP_VFS_ROM_IOCTL_GET_SEGMENT:
            return MP_OBJ_FROM_PTR(&romfs_segment);
        case MP_VFS_ROM_IOCTL_WRITE_PREPARE: {
            // (3, id, len) or (3, id, offset, len): erase that much of the partition, as flash is
            mp_obj_t offset = n_args > 3 ? args[2] : MP_OBJ_NEW_SMALL_INT(0);
            size_t len = mp_obj_get_int(args[n_args > 3 ? 3 : 2]);
            uint8_t *at = partition_at(offset, len);
            if (at == NULL) {
                return MP_OBJ_NEW_SMALL_INT(writable ? -MP_EINVAL : -MP_EROFS);
            }
            memset(at, 0xff, len);
            return MP_OBJ_NEW_SMALL_INT(4); // the smallest write
        }
        case MP_VFS_ROM_IOCTL_WRITE: {
            // (4, id, offset, buf)
            mp_buffer_info_t buf;
            if (n_args < 4) {
                return MP_OBJ_NEW_SMALL_INT(-MP_EINVAL);
            }
            mp_get_buffer_raise(args[3], &buf, MP_BUFFER_READ);
            uint8_t *at = partition_at(args[2], buf.len);
            if (at == NULL) {
                return MP_OBJ_NEW_SMALL_INT(writable ? -MP_EINVAL : -MP_EROFS);
            }
            memcpy(at, buf.buf, buf.len);
            return MP_OBJ_NEW_SMALL_INT(0);
        }
        case MP_VFS_ROM_IOCTL_WRITE_COMPLETE:
            if (!writable) {
                return MP_OBJ_NEW_SMALL_INT(-MP_EROFS);
            }
            msync(romfs_segment.items, romfs_segment.len, MS_SYNC);
            return MP_OBJ_NEW_SMALL_INT(0);
    }
    return MP_OBJ_NEW_SMALL_INT(-MP_EINVAL);
}
