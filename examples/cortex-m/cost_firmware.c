/* The smallest useful firmware, for the size and cost report (size_report.sh): open the model of
 * kfm_model.h and predict one input row. Under QEMU with -icount shift=0 (one instruction per nanosecond of
 * virtual time) SysTick counts instructions at the board's clock rate; a loop of a known instruction count
 * calibrates it. Prints the SysTick counts of open, of 8 predicts and of 8 transforms (of the model's map,
 * timed last), the calibration, the stack's high-water mark over open and predict (the free RAM below the
 * stack is painted first, then scanned) and the workspace. */
#include <stdint.h>
#include <string.h>

#include "kfm/kfm.h"
#include "kfm_model.h"
#include "semihosting.h"

#define SYST_CSR (*(volatile uint32_t*)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t*)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t*)0xE000E018u)

extern uint32_t _ebss[], _estack[];

static uint64_t workspace[(KFM_MODEL_WORKSPACE_BYTES + 7) / 8];

static const uint32_t paint = 0x5A5AA5A5u;
enum { calibration_loops = 100000, predict_calls = 8 };

/* SysTick counts down from 2^24 - 1 on the processor clock, without interrupts. */
static void systick_start(void) {
    SYST_RVR = 0xFFFFFFu;
    SYST_CVR = 0;
    SYST_CSR = 5u; /* ENABLE | CLKSOURCE (processor clock) */
}
static uint32_t ticks_since(uint32_t start) { return (start - SYST_CVR) & 0xFFFFFFu; }

/* Two instructions per iteration (subs, bne). */
static void spin(uint32_t n) { __asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc"); }

static void print_count(const char* what, uint32_t n) {
    sh_puts("cost: ");
    sh_puts(what);
    sh_puts(" ");
    sh_put_int((long)n);
    sh_puts("\n");
}

/* Paints the RAM between .bss and the current stack (less a margin for this frame's callees). */
static void __attribute__((noinline)) paint_stack(void) {
    uintptr_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    for (uint32_t* p = _ebss; (uintptr_t)p + 256 < sp; ++p) *p = paint;
}

static uint32_t stack_used(void) {
    uint32_t* p = _ebss;
    while (p < _estack && *p == paint) ++p;
    return (uint32_t)((uintptr_t)_estack - (uintptr_t)p);
}

/* transform of the model's map (phi on the stack: D floats, after the stack was measured). */
static uint32_t __attribute__((noinline)) transform_ticks(const kfm_map* map, const float* row) {
    float phi[kfm_output_dim(map)];
    uint32_t start = SYST_CVR, i;
    kfm_status s = KFM_OK;
    for (i = 0; i < predict_calls; ++i)
        s = kfm_transform(map, row, KFM_MODEL_INPUT_DIM, phi, kfm_output_dim(map), workspace, sizeof workspace);
    start = ticks_since(start);
    return s == KFM_OK ? start : 0;
}

int main(void) {
    kfm_map map;
    float row[KFM_MODEL_INPUT_DIM], scores[KFM_MODEL_OUTPUT_COUNT];
    int32_t label = 0;
    uint32_t start, calibration, open_ticks, predict_ticks, stack, transform, i;
    kfm_status s;
    for (i = 0; i < KFM_MODEL_INPUT_DIM; ++i) row[i] = 0.25f * (float)(i % 7) - 0.5f;
    paint_stack();
    systick_start();
    start = SYST_CVR;
    spin(calibration_loops);
    calibration = ticks_since(start);

    memset(&map, 0, sizeof map);
    start = SYST_CVR;
    s = kfm_open(kfm_model, KFM_MODEL_SIZE, NULL, &map);
    open_ticks = ticks_since(start);
    if (s != KFM_OK) {
        sh_puts("cost: kfm_open failed\n");
        return 1;
    }
    start = SYST_CVR;
    for (i = 0; i < predict_calls; ++i)
        s = kfm_predict(&map, row, KFM_MODEL_INPUT_DIM, scores, KFM_MODEL_OUTPUT_COUNT, &label, workspace,
                        sizeof workspace);
    predict_ticks = ticks_since(start);
    if (s != KFM_OK) {
        sh_puts("cost: kfm_predict failed\n");
        return 1;
    }
    stack = stack_used();
    transform = transform_ticks(&map, row);
    if (calibration == 0 || transform == 0) {
        sh_puts("cost: SysTick did not count (run QEMU with -icount shift=0), or kfm_transform failed\n");
        return 1;
    }
    /* Raw SysTick counts (size_report.sh converts them: instructions = ticks x calibration_instructions /
     * calibration_ticks), so the firmware needs no 64-bit division from the C library. */
    print_count("calibration_instructions", 2u * calibration_loops);
    print_count("calibration_ticks", calibration);
    print_count("open_ticks", open_ticks);
    print_count("predict_ticks", predict_ticks);
    print_count("transform_ticks", transform);
    print_count("calls", predict_calls);
    print_count("stack_bytes", stack);
    print_count("workspace_bytes", KFM_MODEL_WORKSPACE_BYTES);
    print_count("label", (uint32_t)(label < 0 ? 0 : label));
    return 0;
}
