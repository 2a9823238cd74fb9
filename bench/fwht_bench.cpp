// fwht/<isa>/<n> (normalised, sign diagonal fused) against fwht/naive/<n>: the plain in-place loop doing
// the same work (signs, log2 n butterfly stages, normalisation), n = 16 .. 16384.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "isa_util.hpp"
#include "peers/fwht_naive.hpp"

namespace {

std::vector<std::uint8_t> sign_bits(std::size_t n) {
    std::vector<std::uint8_t> bits((n + 7) / 8);
    for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = std::uint8_t(kfm_bench::test_value(i) * 127.0f);
    return bits;
}

template <class F>
void run(benchmark::State& state, unsigned log2_n, F&& transform) {
    const std::size_t n = std::size_t(1) << log2_n;
    const auto bits = sign_bits(n);
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
        benchmark::RegisterBenchmark(("fwht/naive/" + n).c_str(), [log2_n](benchmark::State& state) {
            run(state, log2_n, [&](float* x, const std::uint8_t* bits) { kfm::detail::naive_fwht(x, log2_n, bits); });
        });
    }
    return 0;
}();

}  // namespace
