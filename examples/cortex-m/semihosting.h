/* Output through Arm semihosting (the debugger or QEMU's -semihosting prints it on the host): a string, a
 * signed integer, a float to nine significant digits, and the end of the program with its status. No C
 * library stdio, so firmware needs no heap and no printf. */
#ifndef KFM_CORTEX_M_SEMIHOSTING_H
#define KFM_CORTEX_M_SEMIHOSTING_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void sh_puts(const char* s);
void sh_put_int(long v);
/* %.9g-like: enough digits that the host reads back the same float. */
void sh_put_float(float v);
/* Ends the program: QEMU exits with status 0 when ok is non-zero, 1 otherwise. Does not return. */
void sh_exit(int ok) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif
#endif
