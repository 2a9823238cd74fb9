/* Start-up for the Cortex-M firmware: the vector table (the initial stack pointer and the reset and fault
 * handlers; these programs take no interrupts), and the reset handler, which turns on the FPU, copies
 * .data from flash, clears .bss, runs the static constructors and calls main. The symbols come from the
 * board's linker script (mps2-an386.ld, ...). */
#include <stdint.h>

#include "semihosting.h"

extern uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);
int main(void);

#define CPACR (*(volatile uint32_t*)0xE000ED88u)
#define CFSR (*(volatile uint32_t*)0xE000ED28u)

void reset_handler(void) __attribute__((noreturn));
void reset_handler(void) {
    CPACR |= 0xFu << 20; /* CP10 and CP11 (the FPU, and MVE on the M55): full access */
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    for (uint32_t *src = _sidata, *dst = _sdata; dst < _edata;) *dst++ = *src++;
    for (uint32_t* dst = _sbss; dst < _ebss;) *dst++ = 0;
    for (void (**f)(void) = __init_array_start; f < __init_array_end; ++f) (*f)();
    sh_exit(main() == 0);
}

/* A fault (an undefined instruction such as NEON code on a Cortex-M, a bad access) ends the run with its
 * status register printed, instead of hanging QEMU until its timeout. */
static void fault_handler(void) {
    sh_puts("fault: CFSR ");
    sh_put_int((long)CFSR);
    sh_puts("\n");
    sh_exit(0);
}

__attribute__((section(".vectors"), used)) static void (*const vector_table[16])(void) = {
    (void (*)(void))(uintptr_t)_estack,
    reset_handler,
    fault_handler, /* NMI */
    fault_handler, /* HardFault */
    fault_handler, /* MemManage */
    fault_handler, /* BusFault */
    fault_handler, /* UsageFault */
    fault_handler, /* SecureFault (ARMv8-M) */
    0, 0, 0,
    fault_handler, /* SVCall */
    fault_handler, /* DebugMonitor */
    0,
    fault_handler, /* PendSV */
    fault_handler, /* SysTick */
};
