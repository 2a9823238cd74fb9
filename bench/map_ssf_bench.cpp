// SSF end to end (gaussian, midpoint rule, M = 1) against its peers in the same run:
//   map/ssf/<isa>/<d>/<D>[/batch]        the runtime (register_map_benchmarks)
//   map/rff/<isa>/<d>/<D>[/batch]        the dense baseline (GEMV + the same feature stage); (64, 1024)
//                                        is registered by map_dense_bench.cpp
//   map/ssf-fftw/<isa>/<d>/<D>[/batch]   the same runtime pipeline (kfm::transform / transform_batch: the
//                                        same checks, scatter, interleaving and feature stage of that ISA)
//                                        with FFTW3f (split-complex guru plans, MEASURE) in place of
//                                        kernels->fft, fft_batch_row and fft_batch: only the FFT differs
//   map/ssf-features/<isa>/<d>/<D>       the fused feature stage alone, on the projections this map
//                                        produces for a benchmark input (its cost depends on the argument
//                                        range: xsimd's range reduction takes a cheaper branch when every
//                                        |argument| <= pi/2)
//   map/ssf-over-features/<isa>/<d>/<D>  SSF against its two essential stages, measured interleaved:
//                                        rounds of 16 transforms, 16 feature stages, then 16 times the
//                                        map's FFTs alone (block_count calls of the FFT kernel a single row
//                                        runs, on the same buffers), so all see the same load on a shared
//                                        host; counters total_ns, features_ns, fft_ns (medians over rounds,
//                                        per call), ratio = total / features and limit_ratio = total /
//                                        (fft + features): 1 would mean nothing but the two stages
//   opt/ssf/<d>                          the index-set optimiser (10 sweeps, default candidates), one run
//   map/ssf-smallest-fft/<isa>/<d>/1024  --fft-size smallest at d = 16, 32, 64 (n = 16, 32, 64; 32, 16, 8
//                                        blocks): up to n = 32 batches run the interleaved batch FFT and
//                                        single rows its single-row form, from n = 64 both the plain FFT
// Batch benchmarks transform 64 vectors per iteration; ns_per_vector is per vector.
#include <benchmark/benchmark.h>
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "isa_util.hpp"
#include "kfm/offline.hpp"
#include "register_map_benchmarks.hpp"
#include "offline/methods/ssf/ssf_energy.hpp"
#include "runtime/projection.hpp"
#include "runtime/map_state.hpp"

namespace {

struct size_pair {
    unsigned d, D;
};
constexpr size_pair sizes[] = {{64, 1024}, {784, 8192}, {1024, 16384}};
constexpr std::size_t batch_size = 64;

kfm::offline::build_options options(kfm::format::method m, unsigned d, unsigned D) {
    kfm::offline::build_options o;
    o.method = m;
    o.kernel.kind = kfm::format::kernel::gaussian;
    o.kernel.sigma = std::sqrt(d / 2.0);
    o.input_dim = d;
    o.features = D;
    o.seed = 7;
    return o;
}

// An SSF map file opened for one ISA; the bytes outlive the view.
struct opened_map {
    std::vector<std::uint64_t> words;
    kfm::map view;
    bool ok = false;

    opened_map(unsigned d, unsigned D, kfm::isa isa) {
        const auto bytes = kfm::offline::serialize(kfm::offline::build_map(options(kfm::format::method::ssf, d, D)));
        words.assign(bytes.size() / 8 + 1, 0);
        std::memcpy(words.data(), bytes.data(), bytes.size());
        ok = kfm::open(words.data(), bytes.size(), &view, isa) == kfm::status::ok;
    }
};

// FFTW plans behind the kernel-table FFT signatures (plain function pointers, so the plans are global):
// plans[log2 n][lane slot][in place], lane slot 0 for fft, log2(lanes) for the interleaved fft_batch.
struct fftw_plans {
    fftwf_plan p[17][5][2] = {};
};
fftw_plans plans;

unsigned lane_slot(unsigned lanes) {
    unsigned s = 0;
    while ((1u << s) < lanes) ++s;
    return s;
}

// Plans (MEASURE, 64-byte aligned arrays like the runtime's buffers) the transform of `lanes` interleaved
// vectors of length 2^log2_n (lanes 1: the plain FFT), in place and out of place.
void make_plans(unsigned log2_n, unsigned lanes) {
    const int n = 1 << log2_n, l = int(lanes);
    const std::size_t floats = std::size_t(n) * lanes;
    for (int in_place = 0; in_place < 2; ++in_place) {
        fftwf_plan& plan = plans.p[log2_n][lane_slot(lanes)][in_place];
        if (plan != nullptr) continue;
        float* re = fftwf_alloc_real(floats);
        float* im = fftwf_alloc_real(floats);
        float* ore = in_place != 0 ? re : fftwf_alloc_real(floats);
        float* oim = in_place != 0 ? im : fftwf_alloc_real(floats);
        fftw_iodim dim{n, l, l}, lanes_dim{l, 1, 1};
        plan = fftwf_plan_guru_split_dft(1, &dim, lanes > 1 ? 1 : 0, &lanes_dim, re, im, ore, oim, FFTW_MEASURE);
        fftwf_free(re);
        fftwf_free(im);
        if (in_place == 0) {
            fftwf_free(ore);
            fftwf_free(oim);
        }
    }
}

// The inverse is the forward transform with re and im swapped (conj(F(conj x))), as in the kernels.
template <unsigned Lanes>
void fftw_transform(const float* in_re, const float* in_im, float* out_re, float* out_im, unsigned log2_n,
                    const float*, bool inverse) {
    const fftwf_plan plan = plans.p[log2_n][lane_slot(Lanes)][in_re == out_re ? 1 : 0];
    auto* ir = const_cast<float*>(in_re);
    auto* ii = const_cast<float*>(in_im);
    if (inverse) fftwf_execute_split_dft(plan, ii, ir, out_im, out_re);
    else fftwf_execute_split_dft(plan, ir, ii, out_re, out_im);
}

using fft_fn = void (*)(const float*, const float*, float*, float*, unsigned, const float*, bool);
fft_fn fftw_batch_for(unsigned lanes) {
    switch (lanes) {
        case 2: return &fftw_transform<2>;
        case 4: return &fftw_transform<4>;
        case 8: return &fftw_transform<8>;
        case 16: return &fftw_transform<16>;
        default: return nullptr;
    }
}

// The ISA's kernel table with FFTW doing fft, fft_batch_row and fft_batch.
kfm::detail::kernel_table fftw_table(const kfm::map& view) {
    kfm::detail::kernel_table t = *kfm::detail::state_of(view)->kernels;
    unsigned log2_n = 0;
    while ((1u << log2_n) < kfm::detail::state_of(view)->meta->block_size) ++log2_n;
    make_plans(log2_n, 1);
    t.fft = &fftw_transform<1>;
    t.fft_batch_row = &fftw_transform<1>;
    if (t.fft_batch != nullptr && t.fft_batch_lanes > 1) {
        make_plans(log2_n, t.fft_batch_lanes);
        t.fft_batch = fftw_batch_for(t.fft_batch_lanes);
    }
    return t;
}

std::vector<float> test_inputs(std::size_t n) {
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = kfm_bench::test_value(i);
    return x;
}

void run_fftw(benchmark::State& state, kfm::isa isa, unsigned d, unsigned D, std::size_t batch) {
    opened_map map(d, D, isa);
    if (!map.ok) return state.SkipWithError("open failed");
    const kfm::detail::kernel_table table = fftw_table(map.view);
    if (table.fft_batch == nullptr && kfm::detail::state_of(map.view)->kernels->fft_batch != nullptr)
        return state.SkipWithError("no FFTW plan for this lane count");
    // The same verified map with the FFTW-backed table swapped in (benchmark-only, through the internals).
    kfm::detail::map_state with_fftw = *kfm::detail::state_of(map.view);
    with_fftw.kernels = &table;
    kfm::map view;
    kfm::detail::map_access::publish(&view, with_fftw);
    const std::size_t out_dim = view.output_dim();
    const auto x = test_inputs(batch * d);
    std::vector<float> out(batch * out_dim), ws(kfm::workspace_bytes(view, batch) / sizeof(float) + 1);
    for (auto _ : state) {
        const kfm::status s = batch == 1 ? kfm::transform(view, x.data(), d, out.data(), out_dim, ws.data(), ws.size() * sizeof(float))
                                         : kfm::transform_batch(view, x.data(), batch, d, d, out.data(), out_dim, ws.data(),
                                                                ws.size() * sizeof(float));
        benchmark::DoNotOptimize(s);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    const auto vectors = double(state.iterations()) * double(batch);
    state.SetItemsProcessed(std::int64_t(vectors));
    if (batch > 1)
        state.counters["ns_per_vector"] = benchmark::Counter(vectors * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// The fused feature stage alone on the projections the map produces for the benchmark input x (d values):
// call kfm::detail::state_of(map)->kernels->features(args).
struct feature_stage {
    kfm_bench::aligned_floats t, out;
    kfm::detail::feature_args args;

    feature_stage(const kfm::map& map, const std::vector<float>& x)
        : t(kfm::detail::state_of(map)->meta->projection_dim), out(2 * std::size_t(kfm::detail::state_of(map)->meta->projection_dim)) {
        const auto& state = *kfm::detail::state_of(map);
        const auto& meta = *state.meta;
        const auto* ops = state.ops;
        kfm_bench::aligned_floats xw(meta.work_dim), scratch(ops->scratch_floats(meta));
        for (std::size_t i = 0; i < meta.work_dim; ++i) xw[i] = i < x.size() ? x[i] : 0.0f;
        ops->apply(state, xw.data(), t.data(), scratch.data());
        const std::size_t p = meta.projection_dim;
        const kfm::format::feature_segment& seg = kfm::detail::state_of(map)->view<kfm::detail::section::segments>()[0];
        args = {kfm::format::nonlinearity::cos_sin, t.data(), p, nullptr, seg.scale, nullptr, seg.weight, nullptr,
                out.data(), out.data() + p};
    }
};

void run_features(benchmark::State& state, kfm::isa isa, unsigned d, unsigned D) {
    opened_map map(d, D, isa);
    if (!map.ok) return state.SkipWithError("open failed");
    const feature_stage stage(map.view, test_inputs(d));
    for (auto _ : state) {
        kfm::detail::state_of(map.view)->kernels->features(stage.args);
        benchmark::DoNotOptimize(stage.out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(std::int64_t(state.iterations()));
}

double median(std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

void run_ratio(benchmark::State& state, kfm::isa isa, unsigned d, unsigned D) {
    opened_map map(d, D, isa);
    if (!map.ok) return state.SkipWithError("open failed");
    const std::size_t out_dim = map.view.output_dim();
    const auto x = test_inputs(d);
    std::vector<float> out(out_dim), ws(kfm::workspace_bytes(map.view, 1) / sizeof(float) + 1);
    if (kfm::transform(map.view, x.data(), d, out.data(), out_dim, ws.data(), ws.size() * sizeof(float)) != kfm::status::ok)
        return state.SkipWithError("transform failed");
    const feature_stage stage(map.view, x);  // as map/ssf-features
    // The map's FFTs alone: the kernel projection_ssf.cpp's row_fft picks (the batch FFT's single-row form
    // where rows interleave, n <= 32), block_count times on one block's worth of data.
    const auto& map_state = *kfm::detail::state_of(map.view);
    const auto& meta = *map_state.meta;
    const std::uint32_t n = meta.block_size;
    unsigned log2_n = 0;
    while ((1u << log2_n) < n) ++log2_n;
    const auto* kernels = map_state.kernels;
    const auto fft = kernels->fft_batch != nullptr && kernels->fft_batch_lanes > 1 && n <= 32 ? kernels->fft_batch_row
                                                                                             : kernels->fft;
    const float* twiddles = map_state.view<kfm::detail::section::twiddles>().data;
    const std::vector<float> fft_in = test_inputs(2 * n);
    std::vector<float> fft_out(2 * std::size_t(n));
    constexpr int calls = 16;
    using clock = std::chrono::steady_clock;
    std::vector<double> total, features, ffts;
    for (auto _ : state) {
        auto start = clock::now();
        for (int i = 0; i < calls; ++i) {
            benchmark::DoNotOptimize(kfm::transform(map.view, x.data(), d, out.data(), out_dim, ws.data(), ws.size() * sizeof(float)));
            benchmark::ClobberMemory();
        }
        auto middle = clock::now();
        for (int i = 0; i < calls; ++i) {
            kfm::detail::state_of(map.view)->kernels->features(stage.args);
            benchmark::DoNotOptimize(stage.out.data());
            benchmark::ClobberMemory();
        }
        auto end = clock::now();
        for (int i = 0; i < calls; ++i) {
            for (std::uint32_t b = 0; b < meta.block_count; ++b)
                fft(fft_in.data(), fft_in.data() + n, fft_out.data(), fft_out.data() + n, log2_n, twiddles, false);
            benchmark::DoNotOptimize(fft_out.data());
            benchmark::ClobberMemory();
        }
        auto after_fft = clock::now();
        total.push_back(std::chrono::duration<double, std::nano>(middle - start).count() / calls);
        features.push_back(std::chrono::duration<double, std::nano>(end - middle).count() / calls);
        ffts.push_back(std::chrono::duration<double, std::nano>(after_fft - end).count() / calls);
    }
    const double t_total = median(total), t_features = median(features), t_fft = median(ffts);
    state.counters["total_ns"] = t_total;
    state.counters["features_ns"] = t_features;
    state.counters["fft_ns"] = t_fft;
    state.counters["ratio"] = t_total / t_features;
    state.counters["limit_ratio"] = t_total / (t_fft + t_features);
}

void run_optimiser(benchmark::State& state, unsigned d) {
    const unsigned m = (d + 1) / 2;
    unsigned n = 2;
    while (n <= m) n *= 2;
    for (auto _ : state) {
        const auto result = kfm::offline::ssf_optimise_index_set(m, n, 7);
        state.counters["sweeps"] = result.sweeps;
        state.counters["energy_gain"] = result.energy.front() - result.energy.back();
    }
}

int register_all() {
    for (const auto& s : sizes) {
        const unsigned d = s.d, D = s.D;
        const std::string suffix = std::to_string(d) + "/" + std::to_string(D);
        register_map_benchmarks("ssf", d, D, [d, D] {
            return kfm::offline::serialize(kfm::offline::build_map(options(kfm::format::method::ssf, d, D)));
        });
        if (d != 64)  // map_dense_bench.cpp registers map/rff at (64, 1024)
            register_map_benchmarks("rff", d, D, [d, D] {
                return kfm::offline::serialize(kfm::offline::build_map(options(kfm::format::method::rff, d, D)));
            });
        for (const auto& h : kfm_bench::host_isas()) {  // the SIMD ISAs: the peers replace their kernels
            if (h.id == kfm::isa::scalar) continue;
            const kfm::isa isa = h.id;
            const std::string name = std::string(kfm::isa_name(isa)) + "/" + suffix;
            benchmark::RegisterBenchmark(("map/ssf-fftw/" + name).c_str(),
                                         [isa, d, D](benchmark::State& st) { run_fftw(st, isa, d, D, 1); });
            benchmark::RegisterBenchmark(("map/ssf-fftw/" + name + "/batch").c_str(),
                                         [isa, d, D](benchmark::State& st) { run_fftw(st, isa, d, D, batch_size); });
            benchmark::RegisterBenchmark(("map/ssf-features/" + name).c_str(),
                                         [isa, d, D](benchmark::State& st) { run_features(st, isa, d, D); });
            benchmark::RegisterBenchmark(("map/ssf-over-features/" + name).c_str(),
                                         [isa, d, D](benchmark::State& st) { run_ratio(st, isa, d, D); });
        }
    }
    for (unsigned d : {16u, 32u, 64u})
        register_map_benchmarks("ssf-smallest-fft", d, 1024, [d] {
            kfm::offline::build_options o = options(kfm::format::method::ssf, d, 1024);
            o.fft_size = kfm::offline::ssf_fft_size_smallest;
            return kfm::offline::serialize(kfm::offline::build_map(o));
        });
    for (unsigned d : {784u, 4096u})
        benchmark::RegisterBenchmark(("opt/ssf/" + std::to_string(d)).c_str(), [d](benchmark::State& st) { run_optimiser(st, d); })
            ->Iterations(1)
            ->Unit(benchmark::kSecond);
    return 0;
}

const int registered = register_all();

}  // namespace
