// fwht/<isa>/<n> (normalised, sign diagonal fused) against fwht/naive/<n>: the plain in-place loop doing
// the same work (signs, log2 n butterfly stages, normalisation), n = 16 .. 16384, and (AVX2 builds on an
// AVX2 CPU) against fwht/ffht-avx2/<n>: FFHT's scheme re-implemented (peers/ffht_style_avx2.hpp) with
// the same signs and normalisation. Each peer is checked once against the naive loop in double before it
// is timed (a wrong peer reports an error instead of a time).
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "isa_util.hpp"
#include "peers/fwht_naive.hpp"
#if KFM_HAVE_AVX2
#include "peers/ffht_style_avx2.hpp"
#endif

namespace {

std::vector<std::uint8_t> sign_bits(std::size_t n) {
    std::vector<std::uint8_t> bits((n + 7) / 8);
    for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = std::uint8_t(kfm_bench::test_value(i) * 127.0f);
    return bits;
}

// Whether `transform` computes naive_fwht's result (in double) within float rounding.
template <class F>
bool matches_naive(unsigned log2_n, const std::vector<std::uint8_t>& bits, F& transform) {
    const std::size_t n = std::size_t(1) << log2_n;
    kfm_bench::aligned_floats x(n);
    std::vector<double> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = x[i] = kfm_bench::test_value(i);
    transform(x.data(), bits.data());
    kfm::detail::naive_fwht(want.data(), log2_n, bits.data());
    for (std::size_t i = 0; i < n; ++i)
        if (std::fabs(double(x[i]) - want[i]) > 1e-5) return false;
    return true;
}

template <class F>
void run(benchmark::State& state, unsigned log2_n, F&& transform) {
    const std::size_t n = std::size_t(1) << log2_n;
    const auto bits = sign_bits(n);
    if (!matches_naive(log2_n, bits, transform)) {
        state.SkipWithError("the transform differs from the naive loop");
        return;
    }
    kfm_bench::aligned_floats x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = kfm_bench::test_value(i);
    for (auto _ : state) {
        transform(x.data(), bits.data());
        benchmark::DoNotOptimize(x.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n));
}

const int registered = [] {
    for (unsigned log2_n = 4; log2_n <= 14; ++log2_n) {
        const std::string n = std::to_string(std::size_t(1) << log2_n);
        for (const auto& h : kfm_bench::host_isas()) {
            const auto* table = h.table;
            benchmark::RegisterBenchmark(("fwht/" + h.name + "/" + n).c_str(), [table, log2_n](benchmark::State& state) {
                run(state, log2_n, [&](float* x, const std::uint8_t* bits) { table->fwht(x, log2_n, bits); });
            });
        }
#if KFM_HAVE_AVX2
        if (kfm::detail::kernels_for(kfm::isa::avx2))
            benchmark::RegisterBenchmark(("fwht/ffht-avx2/" + n).c_str(), [log2_n](benchmark::State& state) {
                run(state, log2_n, [&](float* x, const std::uint8_t* bits) { kfm_bench::ffht_style_fwht_avx2(x, log2_n, bits); });
            });
#endif
        benchmark::RegisterBenchmark(("fwht/naive/" + n).c_str(), [log2_n](benchmark::State& state) {
            run(state, log2_n, [&](float* x, const std::uint8_t* bits) { kfm::detail::naive_fwht(x, log2_n, bits); });
        });
    }
    return 0;
}();

}  // namespace
