// fft/<isa>/<n> (split-complex radix-2, out of place) against fft/fftw/<n> (FFTW3f split-complex guru
// plan, FFTW_MEASURE, out of place, single thread), n = 16 .. 16384. Counter GFLOPS = 5 n log2 n / time.
#include <benchmark/benchmark.h>
#include <fftw3.h>

#include <string>

#include "isa_util.hpp"

namespace {

void set_counters(benchmark::State& state, std::size_t n, unsigned log2_n) {
    state.counters["GFLOPS"] = benchmark::Counter(5.0 * double(n) * log2_n * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

const int registered = [] {
    for (unsigned log2_n = 4; log2_n <= 14; ++log2_n) {
        const std::size_t n = std::size_t(1) << log2_n;
        for (const auto& h : kfm_bench::host_isas()) {
            const auto* table = h.table;
            benchmark::RegisterBenchmark(("fft/" + h.name + "/" + std::to_string(n)).c_str(),
                                         [table, n, log2_n](benchmark::State& state) {
                                             kfm_bench::aligned_floats tw(kfm::detail::fft_twiddle_floats(log2_n));
                                             kfm::detail::fft_make_twiddles(log2_n, tw.data());
                                             kfm_bench::aligned_floats ir(n), ii(n), orr(n), oi(n);
                                             for (std::size_t i = 0; i < n; ++i) {
                                                 ir[i] = kfm_bench::test_value(i);
                                                 ii[i] = kfm_bench::test_value(i + n);
                                             }
                                             for (auto _ : state) {
                                                 table->fft(ir.data(), ii.data(), orr.data(), oi.data(), log2_n, tw.data(), false);
                                                 benchmark::DoNotOptimize(orr.data());
                                                 benchmark::ClobberMemory();
                                             }
                                             set_counters(state, n, log2_n);
                                         });
        }
        benchmark::RegisterBenchmark(("fft/fftw/" + std::to_string(n)).c_str(), [n, log2_n](benchmark::State& state) {
            float* ir = fftwf_alloc_real(n);
            float* ii = fftwf_alloc_real(n);
            float* orr = fftwf_alloc_real(n);
            float* oi = fftwf_alloc_real(n);
            fftw_iodim dim{int(n), 1, 1};
            fftwf_plan plan = fftwf_plan_guru_split_dft(1, &dim, 0, nullptr, ir, ii, orr, oi, FFTW_MEASURE);
            for (std::size_t i = 0; i < n; ++i) {
                ir[i] = kfm_bench::test_value(i);
                ii[i] = kfm_bench::test_value(i + n);
            }
            for (auto _ : state) {
                fftwf_execute(plan);
                benchmark::DoNotOptimize(orr);
                benchmark::ClobberMemory();
            }
            set_counters(state, n, log2_n);
            fftwf_destroy_plan(plan);
            fftwf_free(ir);
            fftwf_free(ii);
            fftwf_free(orr);
            fftwf_free(oi);
        });
    }
    return 0;
}();

}  // namespace
