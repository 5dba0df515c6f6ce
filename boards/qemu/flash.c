// tablectl's qemu board: the `mps2` module's Flash, a block device over part of the machine's 16 MB PSRAM
// (0x21000000), which `make mcu` has qemu keep in a host file (memory-backend-file, share=on): every
// write is in the file as soon as the guest makes it, so killing qemu is a power cut, never a lost cache.
//
//     mps2.Flash(start, size)   a partition: byte offset and length in the PSRAM, multiples of 4096
//
// The extended block protocol of vfs (as rp2.Flash and esp32.Partition have it): readblocks(n, buf[,
// offset]); writeblocks(n, buf) erases the blocks it covers, then programs them; writeblocks(n, buf,
// offset) only programs; ioctl(4) block count, ioctl(5) block size, ioctl(6, n) erases block n. It
// behaves as NOR flash does: erased bytes read 0xff and programming can only clear bits (old & new), so
// code that programs without erasing first is caught here as it would be on a board. It programs whole
// pages of `prog` (256) bytes at page boundaries, as a Pico's flash does (flash_range_program), so a write
// of another length or alignment is refused: `Flash.prog` tells tablectl.log, which aligns to it.
//
// Timing: the W25Q16JV's datasheet (a Pico's flash), counted rather than slept, so a run stays the same
// instruction for instruction: pages() and erases() since the object was made, busy_us() the time the
// chip would have been busy, (typical, at most) in microseconds. On a Pico the CPU is stalled for all
// of it (the rp2 port programs and erases from RAM with interrupts off), so it adds to a key's time.
// tablectl/hw/flashtime.py holds the same figures for the sim board's flash.
#include <string.h>

#include "py/runtime.h"
#include "py/mperrno.h"
#include "extmod/vfs.h"

#define PSRAM_BASE (0x21000000)
#define PSRAM_BYTES (16 * 1024 * 1024)
#define FLASH_BLOCK (4096)
#define FLASH_PROG (256)
// W25Q16JV, 8.6 AC electrical characteristics: tPP page program, tSE 4 KB sector erase (microseconds)
#define T_PAGE_TYP_US (400)
#define T_PAGE_MAX_US (3000)
#define T_ERASE_TYP_US (45000)
#define T_ERASE_MAX_US (400000)

typedef struct {
    mp_obj_base_t base;
    uint32_t start;
    uint32_t size;
    uint32_t erases;  // since this object was made: wear, for the figures
    uint32_t pages;  // pages programmed since this object was made
} mps2_flash_obj_t;

static const mp_obj_type_t mps2_flash_type;

static mp_obj_t mps2_flash_make_new(const mp_obj_type_t *type, size_t n_args, size_t n_kw, const mp_obj_t *args) {
    mp_arg_check_num(n_args, n_kw, 2, 2, false);
    mp_int_t start = mp_obj_get_int(args[0]);
    mp_int_t size = mp_obj_get_int(args[1]);
    if (start < 0 || size <= 0 || start % FLASH_BLOCK || size % FLASH_BLOCK || start + size > PSRAM_BYTES) {
        mp_raise_msg_varg(&mp_type_ValueError,
            MP_ERROR_TEXT("Flash(start, size): multiples of %d within %d bytes, got (%d, %d)"),
            FLASH_BLOCK, PSRAM_BYTES, start, size);
    }
    mps2_flash_obj_t *self = mp_obj_malloc(mps2_flash_obj_t, type);
    self->start = start;
    self->size = size;
    self->erases = 0;
    self->pages = 0;
    return MP_OBJ_FROM_PTR(self);
}

// The partition's bytes at block n + offset for len bytes; ValueError if that is outside it.
static uint8_t *flash_at(mps2_flash_obj_t *self, mp_obj_t n_in, mp_obj_t offset_in, size_t len) {
    mp_int_t n = mp_obj_get_int(n_in);
    mp_int_t offset = offset_in == MP_OBJ_NULL ? 0 : mp_obj_get_int(offset_in);
    mp_int_t at = n * FLASH_BLOCK + offset;
    if (n < 0 || offset < 0 || at > (mp_int_t)self->size || len > self->size - at) {
        mp_raise_msg_varg(&mp_type_ValueError, MP_ERROR_TEXT("block %d offset %d length %d is outside the %d blocks"),
            n, offset, (int)len, (int)(self->size / FLASH_BLOCK));
    }
    return (uint8_t *)(PSRAM_BASE + self->start + at);
}

static void flash_erase(mps2_flash_obj_t *self, uint8_t *block, size_t blocks) {
    memset(block, 0xff, blocks * FLASH_BLOCK);
    self->erases += blocks;
}

static mp_obj_t mps2_flash_readblocks(size_t n_args, const mp_obj_t *args) {
    mps2_flash_obj_t *self = MP_OBJ_TO_PTR(args[0]);
    mp_buffer_info_t buf;
    mp_get_buffer_raise(args[2], &buf, MP_BUFFER_WRITE);
    memcpy(buf.buf, flash_at(self, args[1], n_args > 3 ? args[3] : MP_OBJ_NULL, buf.len), buf.len);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(mps2_flash_readblocks_obj, 3, 4, mps2_flash_readblocks);

static mp_obj_t mps2_flash_writeblocks(size_t n_args, const mp_obj_t *args) {
    mps2_flash_obj_t *self = MP_OBJ_TO_PTR(args[0]);
    mp_buffer_info_t buf;
    mp_get_buffer_raise(args[2], &buf, MP_BUFFER_READ);
    uint8_t *at = flash_at(self, args[1], n_args > 3 ? args[3] : MP_OBJ_NULL, buf.len);
    if ((uintptr_t)(at - (uint8_t *)PSRAM_BASE) % FLASH_PROG || buf.len % FLASH_PROG) {
        mp_raise_msg_varg(&mp_type_ValueError, MP_ERROR_TEXT("program of %d bytes at %d: whole pages of %d only"),
            (int)buf.len, (int)(at - (uint8_t *)PSRAM_BASE - self->start), FLASH_PROG);
    }
    if (n_args == 3) {
        flash_erase(self, at, (buf.len + FLASH_BLOCK - 1) / FLASH_BLOCK);
    }
    self->pages += buf.len / FLASH_PROG;
    const uint8_t *src = buf.buf;
    for (size_t i = 0; i < buf.len; ++i) {
        at[i] &= src[i];
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(mps2_flash_writeblocks_obj, 3, 4, mps2_flash_writeblocks);

static mp_obj_t mps2_flash_ioctl(mp_obj_t self_in, mp_obj_t op_in, mp_obj_t arg_in) {
    mps2_flash_obj_t *self = MP_OBJ_TO_PTR(self_in);
    switch (mp_obj_get_int(op_in)) {
        case MP_BLOCKDEV_IOCTL_INIT:
        case MP_BLOCKDEV_IOCTL_DEINIT:
        case MP_BLOCKDEV_IOCTL_SYNC:
            return MP_OBJ_NEW_SMALL_INT(0);
        case MP_BLOCKDEV_IOCTL_BLOCK_COUNT:
            return MP_OBJ_NEW_SMALL_INT(self->size / FLASH_BLOCK);
        case MP_BLOCKDEV_IOCTL_BLOCK_SIZE:
            return MP_OBJ_NEW_SMALL_INT(FLASH_BLOCK);
        case MP_BLOCKDEV_IOCTL_BLOCK_ERASE:
            flash_erase(self, flash_at(self, arg_in, MP_OBJ_NULL, FLASH_BLOCK), 1);
            return MP_OBJ_NEW_SMALL_INT(0);
        default:
            return MP_OBJ_NEW_SMALL_INT(-MP_EINVAL);
    }
}
static MP_DEFINE_CONST_FUN_OBJ_3(mps2_flash_ioctl_obj, mps2_flash_ioctl);

// erases(): blocks erased through this object since it was made
static mp_obj_t mps2_flash_erases(mp_obj_t self_in) {
    mps2_flash_obj_t *self = MP_OBJ_TO_PTR(self_in);
    return mp_obj_new_int_from_uint(self->erases);
}
static MP_DEFINE_CONST_FUN_OBJ_1(mps2_flash_erases_obj, mps2_flash_erases);

// pages(): pages programmed through this object since it was made
static mp_obj_t mps2_flash_pages(mp_obj_t self_in) {
    mps2_flash_obj_t *self = MP_OBJ_TO_PTR(self_in);
    return mp_obj_new_int_from_uint(self->pages);
}
static MP_DEFINE_CONST_FUN_OBJ_1(mps2_flash_pages_obj, mps2_flash_pages);

// busy_us(): (typical, at most) microseconds the chip was busy programming and erasing, by the datasheet
static mp_obj_t mps2_flash_busy_us(mp_obj_t self_in) {
    mps2_flash_obj_t *self = MP_OBJ_TO_PTR(self_in);
    mp_obj_t t[2] = {
        mp_obj_new_int_from_ull((uint64_t)self->pages * T_PAGE_TYP_US + (uint64_t)self->erases * T_ERASE_TYP_US),
        mp_obj_new_int_from_ull((uint64_t)self->pages * T_PAGE_MAX_US + (uint64_t)self->erases * T_ERASE_MAX_US),
    };
    return mp_obj_new_tuple(2, t);
}
static MP_DEFINE_CONST_FUN_OBJ_1(mps2_flash_busy_us_obj, mps2_flash_busy_us);

static const mp_rom_map_elem_t mps2_flash_locals_dict_table[] = {
    { MP_ROM_QSTR(MP_QSTR_readblocks), MP_ROM_PTR(&mps2_flash_readblocks_obj) },
    { MP_ROM_QSTR(MP_QSTR_writeblocks), MP_ROM_PTR(&mps2_flash_writeblocks_obj) },
    { MP_ROM_QSTR(MP_QSTR_ioctl), MP_ROM_PTR(&mps2_flash_ioctl_obj) },
    { MP_ROM_QSTR(MP_QSTR_erases), MP_ROM_PTR(&mps2_flash_erases_obj) },
    { MP_ROM_QSTR(MP_QSTR_pages), MP_ROM_PTR(&mps2_flash_pages_obj) },
    { MP_ROM_QSTR(MP_QSTR_busy_us), MP_ROM_PTR(&mps2_flash_busy_us_obj) },
    { MP_ROM_QSTR(MP_QSTR_prog), MP_ROM_INT(FLASH_PROG) },
};
static MP_DEFINE_CONST_DICT(mps2_flash_locals_dict, mps2_flash_locals_dict_table);

static MP_DEFINE_CONST_OBJ_TYPE(
    mps2_flash_type,
    MP_QSTR_Flash,
    MP_TYPE_FLAG_NONE,
    make_new, mps2_flash_make_new,
    locals_dict, &mps2_flash_locals_dict
    );

static const mp_rom_map_elem_t mps2_module_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_mps2) },
    { MP_ROM_QSTR(MP_QSTR_Flash), MP_ROM_PTR(&mps2_flash_type) },
};
static MP_DEFINE_CONST_DICT(mps2_module_globals, mps2_module_globals_table);

const mp_obj_module_t mps2_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&mps2_module_globals,
};

MP_REGISTER_MODULE(MP_QSTR_mps2, mps2_module);
