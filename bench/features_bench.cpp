// features/<isa>/<kind>/<D>: the fused feature stage (scale, nonlinearity, weight, written into the
// output) against features/xsimd/<kind>/<D>: a plain AVX2 xsimd loop applying only the nonlinearity to an
// argument array scaled beforehand (outside the timing). Ours gets the parameter form the maps carry:
//  - cos_sin, cos_phase: per-argument scale and weight times a scalar (quadrature gaussian; shifted SSF
//    has per-argument scales and a scalar weight);
//  - relu, step, relu2, identity: scalar scale 1 and per-argument weight (quadrature arccos 0 and 2, whose
//    radii the builder folds into the weights: w f(rho t) = (w rho^b) f(t)).
// features/sleef-<u10|u35>-<isa>/cos_sin/<D> (where SLEEF is found, bench/peers/sleef_features.hpp): the
// same cos_sin work as ours (a = s t, w cos a, w sin a with per-argument s and w, the same layout and
// values) through SLEEF's vector sincosf for that ISA, one shared-library call per vector.
// features-scalar/<isa>/<kind>/<D> (real kinds only): scalar scale and weight, the one-stream form of
// quadrature arccos 1 (w rho is the same for every point), SSF arccos and TensorSketch; same peer.
// Both sides see the memory layout of a real transform: the projections t (or the peer's precomputed
// arguments) in the workspace after x_work, scales / weights / phases as consecutive 64-byte aligned
// sections of the map file after its header, out1 = out0 + D in the caller's buffer. Each region starts on
// its own page, so the distance between regions modulo 4 KiB (which decides false store-to-load
// dependencies, "4K aliasing") is fixed by the layout, not by the allocator.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "isa_util.hpp"
#if KFM_HAVE_AVX2
#include "peers/plain_features_avx2.hpp"
#endif
#if KFM_HAVE_SLEEF
#include "peers/sleef_features.hpp"
#endif

namespace {

using kfm::format::nonlinearity;

struct kind_name {
    nonlinearity kind;
    const char* name;
};
const kind_name kinds[] = {{nonlinearity::cos_sin, "cos_sin"}, {nonlinearity::cos_phase, "cos_phase"},
                           {nonlinearity::relu, "relu"},       {nonlinearity::step, "step"},
                           {nonlinearity::relu2, "relu2"},     {nonlinearity::identity, "identity"}};

// A page-aligned region of `floats` floats.
struct region {
    float* p;
    explicit region(std::size_t floats)
        : p(static_cast<float*>(std::aligned_alloc(4096, (floats * sizeof(float) + 4095) / 4096 * 4096))) {}
    ~region() { std::free(p); }
    region(const region&) = delete;
    region& operator=(const region&) = delete;
};

constexpr std::size_t floats_aligned(std::size_t n) { return (n + 15) / 16 * 16; }  // 64-byte sections
constexpr std::size_t header_floats = 64;                                           // 256-byte file header

struct transform_layout {
    std::size_t n;
    region workspace, file, out;
    float *t, *scale, *weight, *phase, *out0, *out1;
    explicit transform_layout(std::size_t n_)
        : n(n_), workspace(2 * floats_aligned(n_)), file(header_floats + 3 * floats_aligned(n_)), out(2 * n_) {
        t = workspace.p + floats_aligned(n);  // after x_work (work_dim = D here)
        scale = file.p + header_floats;
        weight = scale + floats_aligned(n);
        phase = weight + floats_aligned(n);
        out0 = out.p;
        out1 = out.p + n;
        for (std::size_t i = 0; i < n; ++i) {
            t[i] = 3.0f * kfm_bench::test_value(i);
            scale[i] = 1.0f + 0.5f * kfm_bench::test_value(i + n);
            weight[i] = kfm_bench::test_value(i + 2 * n);
            phase[i] = 3.14159f * (1.0f + kfm_bench::test_value(i + 3 * n));
        }
    }
};

bool is_trig(nonlinearity kind) { return kind == nonlinearity::cos_sin || kind == nonlinearity::cos_phase; }

// Times ours on the layout; per_scale / per_weight choose arrays or scalars (scalar scale 1, weight 0.5 /
// array weights times 1, as the builders write them).
void register_ours(const std::string& name, const kfm::detail::kernel_table* table, nonlinearity kind,
                   std::size_t n, bool per_scale, bool per_weight) {
    benchmark::RegisterBenchmark(name.c_str(), [table, kind, n, per_scale, per_weight](benchmark::State& state) {
        transform_layout in(n);
        kfm::detail::feature_args f{};
        f.kind = kind;
        f.t = in.t;
        f.n = n;
        f.scale = per_scale ? in.scale : nullptr;
        f.scale_scalar = 1.0f;
        f.weight = per_weight ? in.weight : nullptr;
        f.weight_scalar = per_weight ? 1.0f : 0.5f;
        f.phase = kind == nonlinearity::cos_phase ? in.phase : nullptr;
        f.out0 = in.out0;
        f.out1 = kind == nonlinearity::cos_sin ? in.out1 : nullptr;
        for (auto _ : state) {
            table->features(f);
            benchmark::DoNotOptimize(in.out0);
            benchmark::ClobberMemory();
        }
        state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n));
    });
}

#if KFM_HAVE_SLEEF
// SLEEF's cos_sin for one ISA, on the layout ours gets (per-argument scale and weight, weight scalar 1).
using sleef_cos_sin_fn = void (*)(kfm_bench::sleef_ulp, const kfm_bench::sleef_feature_args&) noexcept;
void register_sleef(const std::string& isa, sleef_cos_sin_fn fn, std::size_t n) {
    for (const auto u : {kfm_bench::sleef_ulp::u10, kfm_bench::sleef_ulp::u35}) {
        const std::string name = std::string("features/sleef-") + (u == kfm_bench::sleef_ulp::u10 ? "u10-" : "u35-") +
                                 isa + "/cos_sin/" + std::to_string(n);
        benchmark::RegisterBenchmark(name.c_str(), [fn, u, n](benchmark::State& state) {
            transform_layout in(n);
            const kfm_bench::sleef_feature_args f{in.scale, in.t, in.weight, 1.0f, n, in.out0, in.out1};
            fn(u, f);  // checked once against double precision before it is timed
            for (std::size_t i = 0; i < n; ++i) {
                const double a = double(in.scale[i] * in.t[i]), w = double(in.weight[i]);
                if (std::fabs(in.out0[i] - w * std::cos(a)) > 2.5e-7 || std::fabs(in.out1[i] - w * std::sin(a)) > 2.5e-7) {
                    state.SkipWithError("SLEEF's result differs from sin/cos in double");
                    return;
                }
            }
            for (auto _ : state) {
                fn(u, f);
                benchmark::DoNotOptimize(in.out0);
                benchmark::ClobberMemory();
            }
            state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n));
        });
    }
}

// The SLEEF instances this build has and this CPU runs (the same test as the kernel tables').
void register_sleef_peers(std::size_t n) {
#if KFM_HAVE_AVX2
    if (kfm::detail::kernels_for(kfm::isa::avx2)) register_sleef("avx2", kfm_bench::sleef_cos_sin_avx2, n);
#endif
#if KFM_HAVE_AVX512
    if (kfm::detail::kernels_for(kfm::isa::avx512)) register_sleef("avx512", kfm_bench::sleef_cos_sin_avx512, n);
#endif
#if KFM_HAVE_NEON64
    if (kfm::detail::kernels_for(kfm::isa::neon64)) register_sleef("advsimd", kfm_bench::sleef_cos_sin_advsimd, n);
#endif
}
#endif

const int registered = [] {
    for (const auto& k : kinds)
        for (std::size_t n : {std::size_t(256), std::size_t(1024), std::size_t(4096)}) {
            const std::string suffix = std::string(k.name) + "/" + std::to_string(n);
            const nonlinearity kind = k.kind;
            const bool trig = is_trig(kind);
            for (const auto& h : kfm_bench::host_isas()) {
                register_ours("features/" + h.name + "/" + suffix, h.table, kind, n, trig, true);
                if (!trig) register_ours("features-scalar/" + h.name + "/" + suffix, h.table, kind, n, false, false);
            }
#if KFM_HAVE_SLEEF
            if (kind == nonlinearity::cos_sin) register_sleef_peers(n);
#endif
#if KFM_HAVE_AVX2
            if (kfm::detail::kernels_for(kfm::isa::avx2))
                benchmark::RegisterBenchmark(("features/xsimd/" + suffix).c_str(), [kind, n](benchmark::State& state) {
                    transform_layout in(n);
                    // the peer's input: the arguments s t (+ b), precomputed where t lives
                    const bool phased = kind == nonlinearity::cos_phase;
                    for (std::size_t i = 0; i < n; ++i) in.t[i] = in.scale[i] * in.t[i] + (phased ? in.phase[i] : 0.0f);
                    for (auto _ : state) {
                        kfm_bench::plain_xsimd_features_avx2(kind, in.t, n, in.out0, in.out1);
                        benchmark::DoNotOptimize(in.out0);
                        benchmark::ClobberMemory();
                    }
                    state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n));
                });
#endif
        }
    return 0;
}();

}  // namespace
