// tablectl's qemu board: what board.c shares with the machine and UART include files.
#ifndef TABLECTL_QEMU_BOARD_H
#define TABLECTL_QEMU_BOARD_H

#include <stdint.h>
#include <stddef.h>

#include "py/mpconfig.h"

#define BOARD_UARTS (2)  // UART0: the REPL; UART1: the simulator's host link

// Bytes received on UART `id` (0..BOARD_UARTS-1) and not read yet; the next one (-1 if none).
size_t board_uart_rx_any(int id);
int board_uart_rx_get(int id);
void board_uart_tx(int id, const uint8_t *buf, size_t len);

// Request a system reset (SCB AIRCR.SYSRESETREQ): qemu restarts the machine, its flash file kept.
NORETURN void board_reset(void);

#endif
