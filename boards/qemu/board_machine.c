// tablectl's qemu board: the `machine` module's port functions, included by extmod/modmachine.c
// (MICROPY_PY_MACHINE_INCLUDEFILE, mpconfigboard.h) in place of ports/qemu/modmachine.c.
#include "board.h"

static void mp_machine_idle(void) {
    __asm volatile ("wfi");
}

// A reset restarts the machine, as a board's does: main.py runs again on the same flash (the host
// file). The stock port ends qemu instead; `make mcu` would then have to start it again.
NORETURN static void mp_machine_reset(void) {
    board_reset();
}

static mp_int_t mp_machine_reset_cause(void) {
    return 0;
}
