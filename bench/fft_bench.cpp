// fft/<isa>/<n> (split-complex radix-2, out of place) against fft/fftw/<n> (FFTW3f split-complex guru
// plan, FFTW_MEASURE, out of place, single thread), n = 16 .. 16384. Counter GFLOPS = 5 n log2 n / time.
// fft-batch/<isa>/<n>: one call of the interleaved batch FFT (L = fft_batch_lanes vectors, out of place);
// its peer fft-batch/fftw-x<L>/<n> is one FFTW plan doing L separate contiguous transforms (howmany = L).
// Both report GFLOPS over the L vectors and ns_per_vector, comparable with fft/<isa>/<n>.
// fft-batch-row/<isa>/<n> (n <= 256): one vector through fft_batch_row, the batch FFT's operations on one
// contiguous vector (what a single SSF row with n <= 32 runs), against fft/<isa>/<n>.
#include <benchmark/benchmark.h>
#include <fftw3.h>

#include <string>

#include "isa_util.hpp"

namespace {

void set_counters(benchmark::State& state, std::size_t n, unsigned log2_n, std::size_t vectors = 1) {
    state.counters["GFLOPS"] = benchmark::Counter(5.0 * double(n) * log2_n * double(vectors) * 1e-9,
                                                  benchmark::Counter::kIsIterationInvariantRate);
    state.counters["ns_per_vector"] = benchmark::Counter(double(vectors) * 1e-9,
                                                         benchmark::Counter::kIsIterationInvariantRate |
                                                             benchmark::Counter::kInvert);
}

// A kernel-table FFT (fft, or fft_batch over `vectors` interleaved vectors): one call per iteration.
using fft_kernel = void (*)(const float*, const float*, float*, float*, unsigned, const float*, bool);
void kfm_transforms(benchmark::State& state, fft_kernel fft, std::size_t n, unsigned log2_n, std::size_t vectors) {
    kfm_bench::aligned_floats tw(kfm::detail::fft_twiddle_floats(log2_n));
    kfm::detail::fft_make_twiddles(log2_n, tw.data());
    const std::size_t total = n * vectors;
    kfm_bench::aligned_floats ir(total), ii(total), orr(total), oi(total);
    for (std::size_t i = 0; i < total; ++i) {
        ir[i] = kfm_bench::test_value(i);
        ii[i] = kfm_bench::test_value(i + total);
    }
    for (auto _ : state) {
        fft(ir.data(), ii.data(), orr.data(), oi.data(), log2_n, tw.data(), false);
        benchmark::DoNotOptimize(orr.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, log2_n, vectors);
}

// FFTW3f doing `vectors` separate transforms of length n (contiguous, distance n) in one plan.
void fftw_transforms(benchmark::State& state, std::size_t n, unsigned log2_n, std::size_t vectors) {
    const std::size_t total = n * vectors;
    float* ir = fftwf_alloc_real(total);
    float* ii = fftwf_alloc_real(total);
    float* orr = fftwf_alloc_real(total);
    float* oi = fftwf_alloc_real(total);
    fftw_iodim dim{int(n), 1, 1};
    fftw_iodim many{int(vectors), int(n), int(n)};
    fftwf_plan plan = fftwf_plan_guru_split_dft(1, &dim, vectors > 1 ? 1 : 0, vectors > 1 ? &many : nullptr, ir, ii,
                                                orr, oi, FFTW_MEASURE);
    for (std::size_t i = 0; i < total; ++i) {
        ir[i] = kfm_bench::test_value(i);
        ii[i] = kfm_bench::test_value(i + total);
    }
    for (auto _ : state) {
        fftwf_execute(plan);
        benchmark::DoNotOptimize(orr);
        benchmark::ClobberMemory();
    }
    set_counters(state, n, log2_n, vectors);
    fftwf_destroy_plan(plan);
    fftwf_free(ir);
    fftwf_free(ii);
    fftwf_free(orr);
    fftwf_free(oi);
}

const int registered = [] {
    for (unsigned log2_n = 4; log2_n <= 14; ++log2_n) {
        const std::size_t n = std::size_t(1) << log2_n;
        for (const auto& h : kfm_bench::host_isas()) {
            const auto* table = h.table;
            benchmark::RegisterBenchmark(("fft/" + h.name + "/" + std::to_string(n)).c_str(),
                                         [table, n, log2_n](benchmark::State& state) {
                                             kfm_transforms(state, table->fft, n, log2_n, 1);
                                         });
        }
        for (const auto& h : kfm_bench::host_isas()) {
            const auto* table = h.table;
            if (n <= 256)
                benchmark::RegisterBenchmark(("fft-batch-row/" + h.name + "/" + std::to_string(n)).c_str(),
                                             [table, n, log2_n](benchmark::State& state) {
                                                 kfm_transforms(state, table->fft_batch_row, n, log2_n, 1);
                                             });
        }
        benchmark::RegisterBenchmark(("fft/fftw/" + std::to_string(n)).c_str(),
                                     [n, log2_n](benchmark::State& state) { fftw_transforms(state, n, log2_n, 1); });
        for (const auto& h : kfm_bench::host_isas()) {
            const auto* table = h.table;
            const std::size_t lanes = table->fft_batch_lanes;
            benchmark::RegisterBenchmark(("fft-batch/" + h.name + "/" + std::to_string(n)).c_str(),
                                         [table, n, log2_n, lanes](benchmark::State& state) {
                                             kfm_transforms(state, table->fft_batch, n, log2_n, lanes);
                                         });
        }
        for (std::size_t lanes : {4, 8, 16}) {  // the batch widths of the ISAs (neon, avx2, avx512)
            bool used = false;
            for (const auto& h : kfm_bench::host_isas()) used = used || h.table->fft_batch_lanes == lanes;
            if (!used) continue;
            benchmark::RegisterBenchmark(("fft-batch/fftw-x" + std::to_string(lanes) + "/" + std::to_string(n)).c_str(),
                                         [n, log2_n, lanes](benchmark::State& state) { fftw_transforms(state, n, log2_n, lanes); });
        }
    }
    return 0;
}();

}  // namespace
