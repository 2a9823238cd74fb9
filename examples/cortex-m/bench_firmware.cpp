// Instructions per FFT, per feature stage (cos and sin of 256 arguments) and per SSF transform on the device,
// for every kernel table the build holds (mve and scalar on the Cortex-M55), and optionally for CMSIS-DSP's
// arm_cfft_f32 and arm_cos_f32 / arm_sin_f32 built from its public source
// (KFM_BENCH_CMSIS_DSP, bench.sh). Under QEMU with -icount shift=0 SysTick counts instructions at the
// board's clock rate; a loop of known length calibrates it (as cost_firmware.c). Each figure is the mean of
// `repeats` calls after one warm-up call, out of place for kfm (in place for CMSIS, its only form; its
// bit reversal included, as kfm's). The maps come from kfm_bench_maps.h (bench.sh writes it: SSF maps of
// 'kfm build', their bytes as words). Prints "bench fft TABLE N INSTRUCTIONS", "bench features TABLE N
// INSTRUCTIONS" with "bench features-error TABLE ERROR" (the largest error against double, relative to the
// weight) and "bench transform TABLE D_IN D_OUT INSTRUCTIONS" lines, and for CMSIS's FFT the largest
// difference from kfm's result relative to the largest output.
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

// ---- the feature stage: cos and sin of n arguments a_i = scale_i t_i (per-argument scales, as SSF's radii),
// times a weight, the SSF transform's largest stage; CMSIS's peer is arm_cos_f32 and arm_sin_f32 per
// argument (a 512-entry table with linear interpolation; CMSIS-DSP has no vector sin/cos).
constexpr std::size_t feature_count = 256;  // the 64 -> 512 transform's arguments
float feature_t[feature_count], feature_scale[feature_count];
constexpr float feature_weight = 0.0625f;

void make_feature_arguments() {
    for (std::size_t i = 0; i < feature_count; ++i) {
        feature_t[i] = 4.0f * uniform();            // projections of a unit-scale input
        feature_scale[i] = 1.5f + 0.5f * uniform();  // radius / sigma: arguments within +-8
    }
}

// The largest error of out0 / out1 against weight * cos / sin in double, relative to the weight.
float feature_error(const float* out0, const float* out1) {
    double worst = 0;
    for (std::size_t i = 0; i < feature_count; ++i) {
        const double a = double(feature_scale[i] * feature_t[i]);
        worst = std::fmax(worst, std::fabs(out0[i] - feature_weight * std::cos(a)));
        worst = std::fmax(worst, std::fabs(out1[i] - feature_weight * std::sin(a)));
    }
    return float(worst / feature_weight);
}

void print_feature_error(const char* table, float error) {
    sh_puts("bench features-error ");
    sh_puts(table);
    sh_puts(" ");
    sh_put_float(error);
    sh_puts("\n");
}

void bench_features(const kfm::detail::kernel_table& t) {
    kfm::detail::feature_args f{};
    f.kind = kfm::format::nonlinearity::cos_sin;
    f.t = feature_t;
    f.n = feature_count;
    f.scale = feature_scale;
    f.weight_scalar = feature_weight;
    f.out0 = features;
    f.out1 = features + feature_count;
    const long count = instructions([&] { t.features(f); });
    print_line("features", kfm::isa_name(t.id), long(feature_count), -1, count);
    print_feature_error(kfm::isa_name(t.id), feature_error(f.out0, f.out1));
}

#if KFM_BENCH_CMSIS_DSP
void bench_cmsis_features() {
    float* out0 = features;
    float* out1 = features + feature_count;
    const long count = instructions([&] {
        for (std::size_t i = 0; i < feature_count; ++i) {
            const float a = feature_scale[i] * feature_t[i];
            out0[i] = feature_weight * arm_cos_f32(a);
            out1[i] = feature_weight * arm_sin_f32(a);
        }
    });
    print_line("features", "cmsis", long(feature_count), -1, count);
    print_feature_error("cmsis", feature_error(out0, out1));
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
    make_feature_arguments();
    for (std::size_t i = 0; i < kfm::isa_count(); ++i) {
        const kfm::isa isa = kfm::isa_at(i);
        const kfm::detail::kernel_table* t = kfm::detail::kernels_for(isa);
        if (t == nullptr) continue;
        bench_fft(*t);
        bench_features(*t);
        bench_transforms(isa);
    }
#if KFM_BENCH_CMSIS_DSP
    bench_cmsis_features();
#endif
    sh_puts("bench done\n");
    return 0;
}
