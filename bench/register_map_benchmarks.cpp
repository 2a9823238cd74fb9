// Implementation of register_map_benchmarks (see register_map_benchmarks.hpp).
#include "register_map_benchmarks.hpp"

#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>

#include "isa_util.hpp"
#include "kfm/kfm.hpp"

namespace {

constexpr std::size_t batch_size = 64;

// The file bytes, built lazily once and kept 8-byte aligned for open().
struct map_file {
    std::function<std::vector<std::uint8_t>()> make;
    std::vector<std::uint64_t> words;
    std::size_t size = 0;

    const void* bytes() {
        if (size == 0) {
            const auto b = make();
            words.assign(b.size() / 8 + 1, 0);
            std::memcpy(words.data(), b.data(), b.size());
            size = b.size();
        }
        return words.data();
    }
};

// Deterministic inputs in [-1, 1) without the offline generator (keeps the bench independent of it).
std::vector<float> inputs(std::size_t n) {
    std::vector<float> x(n);
    std::uint32_t state = 12345u;
    for (auto& v : x) {
        state = state * 1664525u + 1013904223u;
        v = static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
    }
    return x;
}

bool open_for(benchmark::State& state, map_file& file, kfm::isa isa, kfm::map* view) {
    const void* bytes = file.bytes();  // builds the file on first use, which sets file.size
    const kfm::status s = kfm::open(bytes, file.size, view, isa);
    if (s != kfm::status::ok) {
        state.SkipWithError(kfm::status_string(s));
        return false;
    }
    return true;
}

void run_single(benchmark::State& state, map_file& file, kfm::isa isa) {
    kfm::map v;
    if (!open_for(state, file, isa, &v)) return;
    const auto x = inputs(v.input_dim());
    std::vector<float> out(v.output_dim()), ws(kfm::workspace_bytes(v) / sizeof(float) + 1);
    for (auto _ : state) {
        const kfm::status s = kfm::transform(v, x.data(), x.size(), out.data(), out.size(), ws.data(), ws.size() * sizeof(float));
        benchmark::DoNotOptimize(s);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void run_batch(benchmark::State& state, map_file& file, kfm::isa isa) {
    kfm::map v;
    if (!open_for(state, file, isa, &v)) return;
    const std::size_t d = v.input_dim(), D = v.output_dim();
    const auto x = inputs(batch_size * d);
    std::vector<float> out(batch_size * D), ws(kfm::workspace_bytes(v, batch_size) / sizeof(float) + 1);
    for (auto _ : state) {
        const kfm::status s = kfm::transform_batch(v, x.data(), batch_size, d, d, out.data(), D, ws.data(),
                                                   ws.size() * sizeof(float));
        benchmark::DoNotOptimize(s);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    const auto vectors = static_cast<double>(state.iterations()) * batch_size;
    state.SetItemsProcessed(static_cast<std::int64_t>(vectors));
    state.counters["ns_per_vector"] = benchmark::Counter(vectors * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

}  // namespace

void register_map_benchmarks(const std::string& method_name, unsigned d, unsigned D,
                             std::function<std::vector<std::uint8_t>()> make_file_bytes) {
    auto file = std::make_shared<map_file>();
    file->make = std::move(make_file_bytes);
    for (const auto& h : kfm_bench::host_isas()) {
        const kfm::isa isa = h.id;
        const std::string name = "map/" + method_name + "/" + kfm::isa_name(isa) + "/" + std::to_string(d) + "/" + std::to_string(D);
        benchmark::RegisterBenchmark(name.c_str(), [file, isa](benchmark::State& s) { run_single(s, *file, isa); });
        benchmark::RegisterBenchmark((name + "/batch").c_str(), [file, isa](benchmark::State& s) { run_batch(s, *file, isa); });
    }
}
