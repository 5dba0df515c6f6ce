// tablectl's qemu board: machine.UART over the machine's CMSDK UARTs, included by extmod/machine_uart.c
// (MICROPY_PY_MACHINE_UART_INCLUDEFILE). Reads come from the receive buffer that board.c's interrupt
// fills and return what is there (a stream asyncio can poll); writes go out byte by byte.
// UART(0) is the REPL's (the sim board's REPL task reads it, board.py); UART(1) carries the simulator's
// link (qemu's second -serial). Baud rate and framing are qemu's business: there are no arguments.
#include "py/mperrno.h"
#include "board.h"

struct _machine_uart_obj_t {
    mp_obj_base_t base;
    uint8_t id;
};

static machine_uart_obj_t machine_uarts[BOARD_UARTS] = {
    {{&machine_uart_type}, 0},
    {{&machine_uart_type}, 1},
};

#define MICROPY_PY_MACHINE_UART_CLASS_CONSTANTS

static void mp_machine_uart_print(const mp_print_t *print, mp_obj_t self_in, mp_print_kind_t kind) {
    machine_uart_obj_t *self = MP_OBJ_TO_PTR(self_in);
    mp_printf(print, "UART(%u)", self->id);
}

static void mp_machine_uart_init_helper(machine_uart_obj_t *self, size_t n_args, const mp_obj_t *pos_args,
    mp_map_t *kw_args) {
    (void)self;
    (void)pos_args;
    if (n_args != 0 || kw_args->used != 0) {
        mp_raise_ValueError(MP_ERROR_TEXT("this board's UARTs take no settings"));
    }
}

static mp_obj_t mp_machine_uart_make_new(const mp_obj_type_t *type, size_t n_args, size_t n_kw,
    const mp_obj_t *args) {
    mp_arg_check_num(n_args, n_kw, 1, 1, false);
    mp_int_t id = mp_obj_get_int(args[0]);
    if (id < 0 || id >= BOARD_UARTS) {
        mp_raise_msg_varg(&mp_type_ValueError, MP_ERROR_TEXT("UART(%d) doesn't exist (0: REPL, 1: link)"), id);
    }
    return MP_OBJ_FROM_PTR(&machine_uarts[id]);
}

static void mp_machine_uart_deinit(machine_uart_obj_t *self) {
    (void)self;
}

static mp_int_t mp_machine_uart_any(machine_uart_obj_t *self) {
    return board_uart_rx_any(self->id);
}

static bool mp_machine_uart_txdone(machine_uart_obj_t *self) {
    (void)self;
    return true;  // a write returns when its last byte is in the UART, which qemu sends at once
}

static mp_uint_t mp_machine_uart_read(mp_obj_t self_in, void *buf_in, mp_uint_t size, int *errcode) {
    machine_uart_obj_t *self = MP_OBJ_TO_PTR(self_in);
    uint8_t *buf = buf_in;
    mp_uint_t n = 0;
    while (n < size) {
        int c = board_uart_rx_get(self->id);
        if (c < 0) {
            break;
        }
        buf[n++] = c;
    }
    if (n == 0 && size != 0) {
        *errcode = MP_EAGAIN;  // non-blocking, as asyncio's StreamReader expects after polling
        return MP_STREAM_ERROR;
    }
    return n;
}

static mp_uint_t mp_machine_uart_write(mp_obj_t self_in, const void *buf_in, mp_uint_t size, int *errcode) {
    machine_uart_obj_t *self = MP_OBJ_TO_PTR(self_in);
    board_uart_tx(self->id, buf_in, size);
    return size;
}

static mp_uint_t mp_machine_uart_ioctl(mp_obj_t self_in, mp_uint_t request, uintptr_t arg, int *errcode) {
    machine_uart_obj_t *self = MP_OBJ_TO_PTR(self_in);
    if (request == MP_STREAM_POLL) {
        mp_uint_t ret = arg & MP_STREAM_POLL_WR;
        if ((arg & MP_STREAM_POLL_RD) && board_uart_rx_any(self->id)) {
            ret |= MP_STREAM_POLL_RD;
        }
        return ret;
    }
    if (request == MP_STREAM_FLUSH) {
        return 0;
    }
    *errcode = MP_EINVAL;
    return MP_STREAM_ERROR;
}
