// features/<isa>/<kind>/<D>: the fused feature stage (per-argument scale, nonlinearity, per-argument
// weight times a scalar, written into the output) against features/xsimd/<kind>/<D>: a plain AVX2 xsimd
// loop applying only the nonlinearity to an argument array scaled beforehand (outside the timing).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "isa_util.hpp"

namespace {

using kfm::format::nonlinearity;

struct kind_name {
    nonlinearity kind;
    const char* name;
};
const kind_name kinds[] = {{nonlinearity::cos_sin, "cos_sin"}, {nonlinearity::cos_phase, "cos_phase"},
                           {nonlinearity::relu, "relu"},       {nonlinearity::step, "step"},
                           {nonlinearity::relu2, "relu2"},     {nonlinearity::identity, "identity"}};

struct inputs {
    kfm_bench::aligned_floats t, scale, weight, phase, args, out0, out1;
    explicit inputs(std::size_t n) : t(n), scale(n), weight(n), phase(n), args(n), out0(n), out1(n) {
        for (std::size_t i = 0; i < n; ++i) {
            t[i] = 3.0f * kfm_bench::test_value(i);
            scale[i] = 1.0f + 0.5f * kfm_bench::test_value(i + n);
            weight[i] = kfm_bench::test_value(i + 2 * n);
            phase[i] = 3.14159f * (1.0f + kfm_bench::test_value(i + 3 * n));
            args[i] = scale[i] * t[i] + phase[i];
        }
    }
};

const int registered = [] {
    for (const auto& k : kinds)
        for (std::size_t n : {std::size_t(256), std::size_t(1024), std::size_t(4096)}) {
            const std::string suffix = std::string(k.name) + "/" + std::to_string(n);
            const nonlinearity kind = k.kind;
            for (const auto& h : kfm_bench::host_isas()) {
                const auto* table = h.table;
                benchmark::RegisterBenchmark(("features/" + h.name + "/" + suffix).c_str(), [table, kind, n](benchmark::State& state) {
                    inputs in(n);
                    kfm::detail::feature_args f{};
                    f.kind = kind;
                    f.t = in.t.data();
                    f.n = n;
                    f.scale = in.scale.data();
                    f.weight = in.weight.data();
                    f.weight_scalar = 0.5f;
                    f.phase = in.phase.data();
                    f.out0 = in.out0.data();
                    f.out1 = kind == nonlinearity::cos_sin ? in.out1.data() : nullptr;
                    for (auto _ : state) {
                        table->features(f);
                        benchmark::DoNotOptimize(in.out0.data());
                        benchmark::ClobberMemory();
                    }
                    state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n));
                });
            }
#if KFM_HAVE_AVX2
            if (kfm::detail::kernels_for(kfm::isa::avx2))
                benchmark::RegisterBenchmark(("features/xsimd/" + suffix).c_str(), [kind, n](benchmark::State& state) {
                    inputs in(n);
                    for (auto _ : state) {
                        kfm::avx2::plain_xsimd_features(kind, in.args.data(), n, in.out0.data(), in.out1.data());
                        benchmark::DoNotOptimize(in.out0.data());
                        benchmark::ClobberMemory();
                    }
                    state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n));
                });
#endif
        }
    return 0;
}();

}  // namespace
