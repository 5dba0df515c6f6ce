// tablectl's qemu board: MicroPython's ports/qemu configuration for the mps2-an385 (Cortex-M3), with what
// a table controller needs turned on. Included instead of the port's header (MP_CONFIGFILE, set by
// mpconfigboard.mk), so no file of the MicroPython tree is edited.
#include "mpconfigport.h"

// time (ticks from the SysTick, board.c), select (the UARTs poll from their receive buffers) and asyncio
#undef MICROPY_PY_TIME
#define MICROPY_PY_TIME (1)
#define MICROPY_PY_TIME_GMTIME_LOCALTIME_MKTIME (0)  // no real-time clock on the machine
#define MICROPY_PY_TIME_TIME_TIME_NS (0)
#undef MICROPY_PY_SELECT
#define MICROPY_PY_SELECT (1)
#undef MICROPY_PY_ASYNCIO
#define MICROPY_PY_ASYNCIO (1)

// A filesystem: LittleFS on the machine's PSRAM, which qemu keeps in a host file (the board's flash).
// MICROPY_VFS_LFS2 comes from mpconfigboard.mk, which also compiles littlefs.

// machine.UART (board_uart.c): UART0 is the REPL, UART1 the simulator's host link; machine.reset() resets
// the machine rather than ending qemu (board_machine.c)
#undef MICROPY_PY_MACHINE_INCLUDEFILE
#define MICROPY_PY_MACHINE_INCLUDEFILE "board_machine.c"
#define MICROPY_PY_MACHINE_UART (1)
#define MICROPY_PY_MACHINE_UART_INCLUDEFILE "board_uart.c"

// Wait for an interrupt (the 1 ms SysTick or a received byte) instead of spinning: an idle board
// leaves the host's CPU alone.
#define MICROPY_INTERNAL_WFE(TIMEOUT_MS) __asm volatile ("wfi")

// Every (soft) reset mounts the filesystem and runs boot.py and main.py, as a board does (board.c).
void board_boot(void);
#define MICROPY_PORT_INIT_FUNC board_boot()

// hashlib.sha1 for service.verify()'s HMAC-SHA1: modhashlib takes it from axTLS's names, which the board's
// own sha1.c provides (lib/axtls/crypto/crypto.h here; no TLS is built)
#define MICROPY_PY_HASHLIB_SHA1 (1)
#define MICROPY_SSL_AXTLS (1)
