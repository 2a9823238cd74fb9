// fwht/<isa>/<n> (normalised, sign diagonal fused) against fwht/naive/<n>: the plain in-place loop doing
// the same work (signs, log2 n butterfly stages, normalisation), n = 16 .. 16384.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "isa_util.hpp"

namespace {

void naive_fwht(float* x, unsigned log2_n, const std::uint8_t* sign_bits) {
    const std::size_t n = std::size_t(1) << log2_n;
    for (std::size_t i = 0; i < n; ++i)
        if ((sign_bits[i >> 3] >> (i & 7)) & 1u) x[i] = -x[i];
    for (std::size_t h = 1; h < n; h *= 2)
        for (std::size_t s = 0; s < n; s += 2 * h)
            for (std::size_t i = s; i < s + h; ++i) {
                const float a = x[i], b = x[i + h];
                x[i] = a + b;
                x[i + h] = a - b;
            }
    const float norm = float(1.0 / std::sqrt(double(n)));
    for (std::size_t i = 0; i < n; ++i) x[i] *= norm;
}

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
            run(state, log2_n, [&](float* x, const std::uint8_t* bits) { naive_fwht(x, log2_n, bits); });
        });
    }
    return 0;
}();

}  // namespace
