// Host batch mapping on threads (kfm::offline::map_rows_parallel, what `kfm map --threads N` runs):
//   parallel_map/ssf/784/8192/10000/threads:N   wall time of mapping 10,000 rows with N threads
//   parallel_map/ssf/784/8192/10000/speedup     1 and 2 threads timed interleaved (rounds of one run each,
//                                               so both see the same load on a shared host); counters
//                                               one_thread_ms, two_threads_ms (medians of wall time), their
//                                               ratio `speedup`, and the process CPU time of each
//                                               (one_thread_cpu_ms, two_threads_cpu_ms): on a loaded host
//                                               the wall ratio shows the share the scheduler gave, while
//                                               cpu_ratio = one / two close to 1 shows the threads add no work
// rows_per_s / items/s count rows; the best ISA of this host maps them.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kfm/offline.hpp"
#include "kfm/offline/parallel_map.hpp"

namespace {

constexpr unsigned input_dim = 784, features = 8192;
constexpr std::size_t rows = 10000;

struct workload {
    std::vector<std::uint64_t> words;
    kfm::map map;
    std::vector<float> x;
    std::vector<float> out;

    workload() {
        kfm::offline::build_options o;
        o.method = kfm::format::method::ssf;
        o.kernel.kind = kfm::format::kernel::gaussian;
        o.kernel.sigma = std::sqrt(input_dim / 2.0);
        o.input_dim = input_dim;
        o.features = features;
        o.seed = 7;
        const auto bytes = kfm::offline::serialize(kfm::offline::build_map(o));
        words.assign(bytes.size() / 8 + 1, 0);
        std::memcpy(words.data(), bytes.data(), bytes.size());
        if (kfm::open(words.data(), bytes.size(), &map) != kfm::status::ok) return;
        std::mt19937 rng(11);
        std::normal_distribution<float> normal(0.0f, 1.0f);
        x.resize(rows * input_dim);
        for (float& v : x) v = normal(rng);
        out.assign(rows * map.output_dim(), 0.0f);
    }
    struct timing {
        double wall_ms, cpu_ms;
    };
    static double process_cpu_ms() {
        timespec t{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
    }
    timing run(unsigned threads) {
        const double c0 = process_cpu_ms();
        const auto t0 = std::chrono::steady_clock::now();
        kfm::offline::map_rows_parallel(map, x.data(), rows, input_dim, out.data(), threads);
        benchmark::DoNotOptimize(out.data());
        const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        return {wall, process_cpu_ms() - c0};
    }
};

workload& shared_workload() {
    static workload w;
    return w;
}

void bm_threads(benchmark::State& state) {
    workload& w = shared_workload();
    if (!w.map.is_open()) return state.SkipWithError("the SSF map did not open");
    const auto threads = static_cast<unsigned>(state.range(0));
    for (auto _ : state) w.run(threads);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * rows));
    state.counters["rows_per_s"] =
        benchmark::Counter(double(state.iterations() * rows), benchmark::Counter::kIsRate);
}
BENCHMARK(bm_threads)->Name("parallel_map/ssf/784/8192/10000")->ArgName("threads")->Arg(1)->Arg(2)
    ->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void bm_speedup(benchmark::State& state) {
    workload& w = shared_workload();
    if (!w.map.is_open()) return state.SkipWithError("the SSF map did not open");
    std::vector<double> one, two, one_cpu, two_cpu;
    for (auto _ : state) {
        const auto a = w.run(1), b = w.run(2);
        one.push_back(a.wall_ms);
        two.push_back(b.wall_ms);
        one_cpu.push_back(a.cpu_ms);
        two_cpu.push_back(b.cpu_ms);
    }
    const double m1 = median(one), m2 = median(two), c1 = median(one_cpu), c2 = median(two_cpu);
    state.counters["one_thread_ms"] = m1;
    state.counters["two_threads_ms"] = m2;
    state.counters["speedup"] = m1 / m2;
    state.counters["one_thread_cpu_ms"] = c1;
    state.counters["two_threads_cpu_ms"] = c2;
    state.counters["cpu_ratio"] = c1 / c2;
}
BENCHMARK(bm_speedup)->Name("parallel_map/ssf/784/8192/10000/speedup")->Iterations(15)
    ->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
