// Instructions per FFT and per SSF transform on the device, for every kernel table the build holds (mve and
// scalar on the Cortex-M55), and optionally for CMSIS-DSP's arm_cfft_f32 built from its public source
// (KFM_BENCH_CMSIS_DSP, bench.sh). Under QEMU with -icount shift=0 SysTick counts instructions at the
// board's clock rate; a loop of known length calibrates it (as cost_firmware.c). Each figure is the mean of
// `repeats` calls after one warm-up call, out of place for kfm (in place for CMSIS, its only form; its
// bit reversal included, as kfm's). The maps come from kfm_bench_maps.h (bench.sh writes it: SSF maps of
// 'kfm build', their bytes as words). Prints "bench fft TABLE N INSTRUCTIONS" and
// "bench transform TABLE D_IN D_OUT INSTRUCTIONS" lines, and for CMSIS the largest difference from kfm's
// result relative to the largest output.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "format/fft_twiddles.hpp"
#include "kernels/kernel_table.hpp"
#include "kfm/kfm.hpp"
#include "kfm_bench_maps.h"
#include "runtime/isa_registry.hpp"
#include "semihosting.h"

#if KFM_BENCH_CMSIS_DSP
#include "arm_math.h"
#endif

namespace {

volatile std::uint32_t& syst_csr = *reinterpret_cast<volatile std::uint32_t*>(0xE000E010u);
volatile std::uint32_t& syst_rvr = *reinterpret_cast<volatile std::uint32_t*>(0xE000E014u);
volatile std::uint32_t& syst_cvr = *reinterpret_cast<volatile std::uint32_t*>(0xE000E018u);

void systick_start() {
    syst_rvr = 0xFFFFFFu;
    syst_cvr = 0;
    syst_csr = 5u;  // ENABLE | CLKSOURCE (processor clock), no interrupt
}
std::uint32_t ticks_since(std::uint32_t start) { return (start - syst_cvr) & 0xFFFFFFu; }
void spin(std::uint32_t n) { __asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc"); }

constexpr std::uint32_t calibration_loops = 100000;
constexpr unsigned repeats = 8;
std::uint32_t calibration = 0;  // ticks of 2 * calibration_loops instructions

// Instructions per call of f (the mean of `repeats` calls after a warm-up).
template <class F>
long instructions(F f) {
    f();
    const std::uint32_t start = syst_cvr;
    for (unsigned r = 0; r < repeats; ++r) f();
    const std::uint64_t ticks = ticks_since(start);
    return long(ticks * 2u * calibration_loops / calibration / repeats);
}

void print_line(const char* what, const char* table, long a, long b, long count) {
    sh_puts("bench ");
    sh_puts(what);
    sh_puts(" ");
    sh_puts(table);
    sh_puts(" ");
    sh_put_int(a);
    if (b >= 0) {
        sh_puts(" ");
        sh_put_int(b);
    }
    sh_puts(" ");
    sh_put_int(count);
    sh_puts("\n");
}

constexpr unsigned max_log2_n = 10;
constexpr std::size_t max_n = std::size_t(1) << max_log2_n;
float in_re[max_n], in_im[max_n], out_re[max_n], out_im[max_n];
float twiddles[2 * max_n + 128];
float row[4096], features[8192];
std::uint64_t workspace[16384];

// splitmix64 uniforms in [-1, 1)
std::uint64_t rng_state = 2026;
float uniform() {
    std::uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return float(double(z >> 11) * (2.0 / 9007199254740992.0) - 1.0);
}

#if KFM_BENCH_CMSIS_DSP
float interleaved[2 * max_n];

// arm_cfft_f32 on the same input as kfm's last forward transform (out_re / out_im hold kfm's result).
void bench_cmsis_fft(unsigned log2_n) {
    const std::size_t n = std::size_t(1) << log2_n;
    arm_cfft_instance_f32 instance;  // arm_cfft_init_f32: the Helium build needs its rearranged twiddles
    if (arm_cfft_init_f32(&instance, std::uint16_t(n)) != ARM_MATH_SUCCESS) {
        sh_puts("FAIL arm_cfft_init_f32\n");
        return;
    }
    const arm_cfft_instance_f32* s = &instance;
    std::uint64_t ticks = 0;
    for (unsigned r = 0; r <= repeats; ++r) {  // in place: a fresh copy of the input per call, not counted
        for (std::size_t i = 0; i < n; ++i) {
            interleaved[2 * i] = in_re[i];
            interleaved[2 * i + 1] = in_im[i];
        }
        const std::uint32_t start = syst_cvr;
        arm_cfft_f32(s, interleaved, 0, 1);
        if (r > 0) ticks += ticks_since(start);  // the first call warms up
    }
    const long count = long(ticks * 2u * calibration_loops / calibration / repeats);
    print_line("fft", "cmsis", long(n), -1, count);
    float worst = 0, largest = 0;
    for (std::size_t i = 0; i < n; ++i) {
        worst = std::fmax(worst, std::fmax(std::fabs(interleaved[2 * i] - out_re[i]), std::fabs(interleaved[2 * i + 1] - out_im[i])));
        largest = std::fmax(largest, std::fmax(std::fabs(out_re[i]), std::fabs(out_im[i])));
    }
    sh_puts("bench fft cmsis-vs-kfm ");
    sh_put_int(long(n));
    sh_puts(" ");
    sh_put_float(worst / largest);
    sh_puts("\n");
}
#endif

void bench_fft(const kfm::detail::kernel_table& t) {
    for (unsigned log2_n = 6; log2_n <= max_log2_n; ++log2_n) {
        const std::size_t n = std::size_t(1) << log2_n;
        kfm::detail::fft_make_twiddles(log2_n, twiddles);
        for (std::size_t i = 0; i < n; ++i) {
            in_re[i] = uniform();
            in_im[i] = uniform();
        }
        const long count = instructions([&] { t.fft(in_re, in_im, out_re, out_im, log2_n, twiddles, false); });
        print_line("fft", kfm::isa_name(t.id), long(n), -1, count);
#if KFM_BENCH_CMSIS_DSP
        if (t.id == kfm::isa::scalar) bench_cmsis_fft(log2_n);
#endif
    }
}

void bench_transforms(kfm::isa isa) {
    for (const kfm_bench_map& m : kfm_bench_maps) {
        kfm::map map;
        if (kfm::open(m.words, m.bytes, &map, isa) != kfm::status::ok || map.input_dim() > sizeof row / sizeof(float) ||
            map.output_dim() > sizeof features / sizeof(float) || kfm::workspace_bytes(map) > sizeof workspace) {
            sh_puts("FAIL bench map does not open or fit\n");
            continue;
        }
        for (std::size_t i = 0; i < map.input_dim(); ++i) row[i] = uniform();
        kfm::status s = kfm::status::ok;
        const long count = instructions([&] {
            s = kfm::transform(map, row, map.input_dim(), features, map.output_dim(), workspace, sizeof workspace);
        });
        if (s != kfm::status::ok) sh_puts("FAIL bench transform\n");
        print_line("transform", kfm::isa_name(isa), long(map.input_dim()), long(map.output_dim()), count);
    }
}

}  // namespace

int main() {
    systick_start();
    const std::uint32_t start = syst_cvr;
    spin(calibration_loops);
    calibration = ticks_since(start);
    if (calibration == 0) {
        sh_puts("FAIL SysTick did not count (run QEMU with -icount shift=0)\n");
        return 1;
    }
    for (std::size_t i = 0; i < kfm::isa_count(); ++i) {
        const kfm::isa isa = kfm::isa_at(i);
        const kfm::detail::kernel_table* t = kfm::detail::kernels_for(isa);
        if (t == nullptr) continue;
        bench_fft(*t);
        bench_transforms(isa);
    }
    sh_puts("bench done\n");
    return 0;
}
