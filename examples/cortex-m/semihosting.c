/* Arm semihosting on M-profile: the operation in r0, its argument in r1, then BKPT 0xAB. */
#include "semihosting.h"

#include <string.h>

enum { sys_write0 = 0x04, sys_exit = 0x18 };
enum { adp_stopped_application_exit = 0x20026, adp_stopped_run_time_error = 0x20023 };

static uint32_t semihost(uint32_t op, uint32_t arg) {
    register uint32_t r0 __asm__("r0") = op;
    register uint32_t r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void sh_puts(const char* s) { semihost(sys_write0, (uint32_t)(uintptr_t)s); }

/* The digits of v into the end of buf; returns the first. 32-bit: no 64-bit division from the C library. */
static char* digits(char* end, uint32_t v) {
    *--end = '\0';
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    return end;
}

void sh_put_int(long v) {
    char buf[24];
    char* p = digits(buf + sizeof buf, v < 0 ? 0u - (uint32_t)v : (uint32_t)v);
    if (v < 0) *--p = '-';
    sh_puts(p);
}

/* d.dddddddde±x: the value scaled into [1e8, 1e9) in double, rounded to an integer. The double scaling
 * adds at most a few 1e-16 of relative error, far below the float's own 6e-8. */
void sh_put_float(float f) {
    char out[32], *o = out;
    double v = f;
    int exponent = 8;
    if (v != v) {
        sh_puts("nan");
        return;
    }
    if (v < 0) {
        *o++ = '-';
        v = -v;
    }
    if (v > 3.5e38) {
        strcpy(o, "inf");
        sh_puts(out);
        return;
    }
    if (v != 0) {
        while (v >= 1e9) { v /= 10; ++exponent; }
        while (v < 1e8) { v *= 10; --exponent; }
    }
    uint32_t m = (uint32_t)(v + 0.5);
    if (m >= 1000000000u) { m /= 10; ++exponent; }
    if (v == 0) exponent = 0;
    char buf[24];
    const char* d = digits(buf + sizeof buf, m);
    if (v == 0) d = "000000000";
    *o++ = d[0];
    *o++ = '.';
    for (int i = 1; i < 9; ++i) *o++ = d[i];
    *o++ = 'e';
    *o++ = exponent < 0 ? '-' : '+';
    strcpy(o, digits(buf + sizeof buf, (uint32_t)(exponent < 0 ? -exponent : exponent)));
    sh_puts(out);
}

void sh_exit(int ok) {
    semihost(sys_exit, ok ? adp_stopped_application_exit : adp_stopped_run_time_error);
    for (;;) {
    }
}
