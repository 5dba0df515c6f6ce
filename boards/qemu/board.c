// tablectl's qemu board (ports/qemu, mps2-an385, Cortex-M3): the 1 ms SysTick tick, interrupt-driven UART
// receive with Ctrl-C, the heap size from the qemu command line, and the boot sequence.
//
// The port's own files stay as they are. Three of its functions are taken over at link time
// (mpconfigboard.mk: -Wl,--wrap): uart_rx_chr (the REPL's input comes from UART0's receive buffer, filled
// by its interrupt, so Ctrl-C reaches running code and an idle REPL sleeps in WFI), mp_hal_stdio_poll
// (select/asyncio on stdin), and gc_init (the board's start-up: the port's main() calls it first).
#include <string.h>

#include "py/runtime.h"
#include "py/mphal.h"
#include "py/stream.h"
#include "py/gc.h"
#include "shared/runtime/interrupt_char.h"
#include "shared/runtime/pyexec.h"
#include "board.h"

#define SYSCLK_HZ (25000000)  // the MPS2's SYSCLK: the SysTick and the timers count it

// Cortex-M3 system control space
#define SYST_CSR (*(volatile uint32_t *)0xe000e010)
#define SYST_RVR (*(volatile uint32_t *)0xe000e014)
#define SYST_CVR (*(volatile uint32_t *)0xe000e018)
#define NVIC_ISER0 (*(volatile uint32_t *)0xe000e100)
#define SCB_VTOR (*(volatile uint32_t *)0xe000ed08)
#define SCB_AIRCR (*(volatile uint32_t *)0xe000ed0c)
#define SYST_CSR_ENABLE_TICKINT_CPUCLK (7)

// CMSDK dual timer 1 (0x40002000), free-running 32-bit down-counter: time.ticks_cpu()
#define TIMER1_VALUE (*(volatile uint32_t *)0x40002004)
#define TIMER1_CONTROL (*(volatile uint32_t *)0x40002008)
#define TIMER_ENABLE_32BIT (0x82)

// CMSDK APB UARTs: one byte each way, an interrupt per direction
typedef struct {
    volatile uint32_t DATA;
    volatile uint32_t STATE;
    volatile uint32_t CTRL;
    volatile uint32_t INTSTATUS;
    volatile uint32_t BAUDDIV;
} cmsdk_uart_t;

#define UART_STATE_TXFULL (1 << 0)
#define UART_STATE_RXFULL (1 << 1)
#define UART_CTRL_TX_EN (1 << 0)
#define UART_CTRL_RX_EN (1 << 1)
#define UART_CTRL_RX_INTEN (1 << 3)
#define UART_INT_RX (1 << 1)

static cmsdk_uart_t *const uarts[BOARD_UARTS] = {(cmsdk_uart_t *)0x40004000, (cmsdk_uart_t *)0x40005000};
static const uint8_t uart_rx_irq[BOARD_UARTS] = {0, 2};  // AN385: RX of UART n is IRQ 2n, TX is 2n+1

// Receive buffers, filled by the interrupt; when one is full the byte stays in the UART, and qemu
// holds the rest in its character device (flow control, as RTS would be): nothing is dropped.
#define RX_BYTES (1024)
typedef struct {
    uint8_t buf[RX_BYTES];
    volatile uint32_t head;  // written by the interrupt
    volatile uint32_t tail;  // written by the reader
} rx_ring_t;
static rx_ring_t rx[BOARD_UARTS];

static volatile uint32_t ticks_ms;

static inline uint32_t irq_off(void) {
    uint32_t primask;
    __asm volatile ("mrs %0, primask\n cpsid i" : "=r" (primask) :: "memory");
    return primask;
}

static inline void irq_restore(uint32_t primask) {
    __asm volatile ("msr primask, %0" :: "r" (primask) : "memory");
}

// -- UARTs ---------------------------------------------------------------------------------------------

// Move what the UART holds into the buffer while there is room (from the interrupt, or from a reader
// that has just made room, with interrupts off). Ctrl-C on the REPL's UART raises KeyboardInterrupt in
// running code instead, unless the code turned it off (micropython.kbd_intr(-1), as a REPL task does).
static void uart_drain(int id) {
    cmsdk_uart_t *u = uarts[id];
    rx_ring_t *r = &rx[id];
    while ((u->STATE & UART_STATE_RXFULL) && r->head - r->tail < RX_BYTES) {
        int c = u->DATA & 0xff;
        if (id == 0 && c == mp_interrupt_char) {
            mp_sched_keyboard_interrupt();
            continue;
        }
        r->buf[r->head % RX_BYTES] = c;
        r->head++;
    }
    u->INTSTATUS = UART_INT_RX;
}

static void uart0_rx_isr(void) {
    uart_drain(0);
}

static void uart1_rx_isr(void) {
    uart_drain(1);
}

size_t board_uart_rx_any(int id) {
    return rx[id].head - rx[id].tail;
}

int board_uart_rx_get(int id) {
    rx_ring_t *r = &rx[id];
    if (r->head == r->tail) {
        return -1;
    }
    int c = r->buf[r->tail % RX_BYTES];
    uint32_t primask = irq_off();
    r->tail++;
    uart_drain(id);  // a byte that waited in the UART for room comes in now
    irq_restore(primask);
    return c;
}

void board_uart_tx(int id, const uint8_t *buf, size_t len) {
    cmsdk_uart_t *u = uarts[id];
    for (size_t i = 0; i < len; ++i) {
        while (u->STATE & UART_STATE_TXFULL) {
        }
        u->DATA = buf[i];
    }
}

// The port's mp_hal_stdin_rx_chr() polls uart_rx_chr(): it gets the buffer, and sleeps until the next
// interrupt when the buffer is empty.
int __wrap_uart_rx_chr(void) {
    int c = board_uart_rx_get(0);
    if (c < 0) {
        __asm volatile ("wfi");
        c = board_uart_rx_get(0);
    }
    return c;
}

uintptr_t __wrap_mp_hal_stdio_poll(uintptr_t poll_flags) {
    uintptr_t ret = poll_flags & MP_STREAM_POLL_WR;
    if ((poll_flags & MP_STREAM_POLL_RD) && board_uart_rx_any(0)) {
        ret |= MP_STREAM_POLL_RD;
    }
    return ret;
}

// -- time --------------------------------------------------------------------------------------------

static void systick_isr(void) {
    ticks_ms++;
}

mp_uint_t mp_hal_ticks_ms(void) {
    return ticks_ms;
}

mp_uint_t mp_hal_ticks_us(void) {
    uint32_t ms, left;
    do {
        ms = ticks_ms;
        left = SYST_CVR;
    } while (ms != ticks_ms);
    return ms * 1000 + (SYST_RVR - left) / (SYSCLK_HZ / 1000000);
}

// SYSCLK periods (25 MHz). Under `qemu -icount shift=0` an instruction takes 1 ns of the machine's
// time, so a period is 40 instructions: tools/bench/qemu.py counts instructions with it.
mp_uint_t mp_hal_ticks_cpu(void) {
    return ~TIMER1_VALUE;
}

// LittleFS stamps files with the time: the machine has no real-time clock, so the epoch.
uint64_t mp_hal_time_ns(void) {
    return 0;
}

void mp_hal_delay_ms(mp_uint_t ms) {
    uint32_t start = ticks_ms;
    while (ticks_ms - start < ms) {
        mp_event_wait_ms(ms - (ticks_ms - start));
    }
}

void mp_hal_delay_us(mp_uint_t us) {
    uint32_t start = mp_hal_ticks_us();
    while (mp_hal_ticks_us() - start < us) {
    }
}

// -- start-up ------------------------------------------------------------------------------------------

// The port's vector table (mcu/arm/startup.c) has the 16 system exceptions only; the board's adds
// the external interrupts it uses, and VTOR points the core at it.
extern uint32_t _estack;
void Reset_Handler(void);
void HardFault_Handler(void);
static void unused_isr(void) {
    for (;;) {
    }
}

#define VECTORS (16 + 32)  // AN385: 32 external interrupts
__attribute__((aligned(256))) static void (*const vectors[VECTORS])(void) = {
    [0] = (void (*)(void))&_estack,
    [1] = Reset_Handler,
    [2 ... 15] = HardFault_Handler,
    [15] = systick_isr,
    [16 ... VECTORS - 1] = unused_isr,
    [16 + 0] = uart0_rx_isr,
    [16 + 2] = uart1_rx_isr,
};

// ARM semihosting (qemu -semihosting): the command line, where `heap=N` or `heap=NK` sets the heap.
#define SYS_GET_CMDLINE (0x15)

static int semihosting_call(int op, void *arg) {
    register int r0 __asm__ ("r0") = op;
    register void *r1 __asm__ ("r1") = arg;
    __asm volatile ("bkpt 0xab" : "+r" (r0) : "r" (r1) : "memory");
    return r0;
}

static size_t heap_from_cmdline(size_t most) {
    static char line[256];
    struct {
        char *buf;
        int len;
    } block = {line, sizeof(line) - 1};
    if (semihosting_call(SYS_GET_CMDLINE, &block) != 0) {
        return most;
    }
    line[block.len] = 0;
    const char *at = strstr(line, "heap=");
    if (at == NULL) {
        return most;
    }
    size_t n = 0;
    for (at += 5; *at >= '0' && *at <= '9'; ++at) {
        n = n * 10 + (*at - '0');
    }
    if (*at == 'K' || *at == 'k') {
        n *= 1024;
    }
    return n >= 8192 && n <= most ? n : most;
}

// The port's main() calls gc_init() first, with the whole of its MICROPY_HEAP_SIZE array: the board
// starts its hardware here, and gives the GC the heap the command line asks for (the first `heap=`
// bytes of the array), so that one image is measured in any heap up to MICROPY_HEAP_SIZE.
void __real_gc_init(void *start, void *end);

void __wrap_gc_init(void *start, void *end) {
    SCB_VTOR = (uint32_t)vectors;
    ticks_ms = 0;
    SYST_RVR = SYSCLK_HZ / 1000 - 1;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_ENABLE_TICKINT_CPUCLK;
    TIMER1_CONTROL = TIMER_ENABLE_32BIT;
    for (int id = 0; id < BOARD_UARTS; ++id) {
        uarts[id]->BAUDDIV = 16;
        uarts[id]->CTRL = UART_CTRL_TX_EN | UART_CTRL_RX_EN | UART_CTRL_RX_INTEN;
        NVIC_ISER0 = 1 << uart_rx_irq[id];
    }
    size_t heap = heap_from_cmdline((char *)end - (char *)start);
    __real_gc_init(start, (char *)start + heap);
}

NORETURN void board_reset(void) {
    SCB_AIRCR = (0x5fa << 16) | (1 << 2);  // VECTKEY, SYSRESETREQ
    for (;;) {
        __asm volatile ("wfi");
    }
}

// mp_init() calls this at every (soft) reset: the frozen _boot.py mounts the filesystem, then boot.py
// and, unless mpremote asked for the raw REPL, main.py run from it, as on the rp2 and esp32 ports.
void board_boot(void) {
    pyexec_frozen_module("_boot.py", false);
    pyexec_file_if_exists("boot.py");
    if (pyexec_mode_kind == PYEXEC_MODE_FRIENDLY_REPL) {
        pyexec_file_if_exists("main.py");
    }
}
