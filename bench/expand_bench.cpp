// expand/<isa>/<n> against expand/scatter/<n>: the loops it replaced in SSF (clear the buffer, one indexed
// store per input at the sorted index set, then the block's sign flips), both halves of one block, on an
// SSF-like set of 0.77 n frequencies (d = 784 has 392 of 512), n = 64 .. 4096. Items are outputs (2 n).
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "isa_util.hpp"

namespace {

struct index_set {
    std::vector<std::uint8_t> bits;
    std::vector<std::uint32_t> frequencies;  // the set bits, increasing
    std::vector<std::uint8_t> signs;         // 2 n sign bits
};

index_set ssf_like_set(std::size_t n) {
    index_set s;
    s.bits.assign((n + 7) / 8, 0);
    for (std::size_t k = 1; k < n; ++k)
        if (kfm_bench::test_value(k) < 0.54f) {  // test values are uniform on [-1, 1): about 77% set
            s.bits[k >> 3] |= std::uint8_t(1u << (k & 7));
            s.frequencies.push_back(std::uint32_t(k));
        }
    s.signs.resize(n / 4 + 1);
    for (std::size_t i = 0; i < s.signs.size(); ++i) s.signs[i] = std::uint8_t(kfm_bench::test_value(n + i) * 127.0f);
    return s;
}

template <class F>
void run(benchmark::State& state, std::size_t n, F&& place) {
    const index_set s = ssf_like_set(n);
    kfm_bench::aligned_floats x(2 * s.frequencies.size()), out(2 * n);
    for (std::size_t i = 0; i < 2 * s.frequencies.size(); ++i) x[i] = kfm_bench::test_value(i);
    for (auto _ : state) {
        place(s, x.data(), out.data());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(2 * n));
}

void scatter(const index_set& s, const float* __restrict x, float scale, std::size_t n, float* __restrict out) {
    const std::size_t m = s.frequencies.size();
    std::memset(out, 0, 2 * n * sizeof(float));
    for (std::size_t l = 0; l < m; ++l) {
        out[s.frequencies[l]] = scale * x[l];
        out[n + s.frequencies[l]] = scale * x[m + l];
    }
    for (std::size_t k = 0; k < 2 * n; ++k)
        if ((s.signs[k >> 3] >> (k & 7)) & 1u) out[k] = -out[k];
}

const int registered = [] {
    for (std::size_t n = 64; n <= 4096; n *= 2) {
        const std::string size = std::to_string(n);
        for (const auto& h : kfm_bench::host_isas()) {
            const auto* table = h.table;
            benchmark::RegisterBenchmark(("expand/" + h.name + "/" + size).c_str(), [table, n](benchmark::State& state) {
                run(state, n, [&](const index_set& s, const float* x, float* out) {
                    table->expand(x, s.frequencies.size(), s.bits.data(), n, 0.5f, s.signs.data(), 0, out);
                });
            });
        }
        benchmark::RegisterBenchmark(("expand/scatter/" + size).c_str(), [n](benchmark::State& state) {
            run(state, n, [&](const index_set& s, const float* x, float* out) { scatter(s, x, 0.5f, n, out); });
        });
    }
    return 0;
}();

}  // namespace
