// SSF end to end (gaussian, midpoint rule, M = 1) against its peers in the same run:
//   map/ssf/<isa>/<d>/<D>[/batch]   the runtime (register_map_benchmarks)
//   map/rff/<isa>/<d>/<D>[/batch]   the dense baseline (GEMV + the same feature stage); (64, 1024) is
//                                   registered by map_dense_bench.cpp
//   map/ssf-fftw/<d>/<D>[/batch]    the same SSF pipeline with FFTW3f (split-complex guru plan, MEASURE)
//                                   instead of kernels->fft; same sign flip, scatter, scale and feature stage
//   map/ssf-features/<d>/<D>        the fused feature stage alone on the D/2 projections (best ISA)
//   opt/ssf/<d>                     the index-set optimiser (10 sweeps, default candidates), one run
#include <benchmark/benchmark.h>
#include <fftw3.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "isa_util.hpp"
#include "kfm/offline.hpp"
#include "map_bench.hpp"
#include "offline/ssf_energy.hpp"

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

const kfm::offline::section& section_of(const kfm::offline::map_contents& map, std::uint32_t tag) {
    for (const auto& s : map.sections)
        if (s.tag == tag) return s;
    return map.sections.front();
}

// The SSF pipeline of projection_ssf.cpp with FFTW doing the transform: the peer for kernels->fft.
class fftw_ssf {
public:
    explicit fftw_ssf(const kfm::offline::map_contents& map)
        : meta_(map.meta), n_(map.meta.block_size), half_(map.meta.work_dim / 2),
          index_(half_), signs_(section_of(map, kfm::format::tag::signs).bytes),
          table_(kfm::detail::kernels_for(kfm::detail::best_isa())) {
        std::memcpy(index_.data(), section_of(map, kfm::format::tag::indices).bytes.data(), 4 * half_);
        std::memcpy(&segment_, section_of(map, kfm::format::tag::segments).bytes.data(), sizeof segment_);
        in_re_ = fftwf_alloc_real(n_);
        in_im_ = fftwf_alloc_real(n_);
        out_re_ = fftwf_alloc_real(n_);
        out_im_ = fftwf_alloc_real(n_);
        fftw_iodim dim{int(n_), 1, 1};
        plan_ = fftwf_plan_guru_split_dft(1, &dim, 0, nullptr, in_re_, in_im_, out_re_, out_im_, FFTW_MEASURE);
        t_ = fftwf_alloc_real(meta_.projection_dim);
    }
    ~fftw_ssf() {
        fftwf_destroy_plan(plan_);
        fftwf_free(in_re_);
        fftwf_free(in_im_);
        fftwf_free(out_re_);
        fftwf_free(out_im_);
        fftwf_free(t_);
    }
    fftw_ssf(const fftw_ssf&) = delete;
    fftw_ssf& operator=(const fftw_ssf&) = delete;

    void apply(const float* x, float* out) {
        const float norm = 1.0f / std::sqrt(float(half_));
        std::memset(in_re_, 0, sizeof(float) * n_);
        std::memset(in_im_, 0, sizeof(float) * n_);
        for (std::uint32_t b = 0; b < meta_.block_count; ++b) {
            const std::size_t bit0 = std::size_t(b) * meta_.work_dim;
            for (std::uint32_t l = 0; l < half_; ++l) {  // scaled before the (linear) FFT, as the runtime does
                const float v = l < meta_.input_dim ? norm * x[l] : 0.0f;
                const float w = half_ + l < meta_.input_dim ? norm * x[half_ + l] : 0.0f;
                in_re_[index_[l]] = bit(bit0 + l) ? -v : v;
                in_im_[index_[l]] = bit(bit0 + half_ + l) ? -w : w;
            }
            const std::size_t begin = std::size_t(b) * 2 * n_;
            const std::size_t count = std::min<std::size_t>(2 * n_, meta_.projection_dim - begin);
            if (count == 2 * n_) {  // straight into t (new-array execute; t keeps the planned alignment)
                fftwf_execute_split_dft(plan_, in_re_, in_im_, t_ + begin, t_ + begin + n_);
            } else {
                fftwf_execute(plan_);
                for (std::size_t i = 0; i < count; ++i) t_[begin + i] = i < n_ ? out_re_[i] : out_im_[i - n_];
            }
        }
        const std::size_t p = meta_.projection_dim;
        kfm::detail::feature_args args{kfm::format::nonlinearity::cos_sin, t_, p, nullptr, segment_.scale,
                                       nullptr, segment_.weight, nullptr, out, out + p};
        table_->features(args);
    }

private:
    bool bit(std::size_t i) const { return ((signs_[i >> 3] >> (i & 7)) & 1u) != 0; }

    kfm::format::map_meta meta_;
    std::uint32_t n_, half_;
    std::vector<std::uint32_t> index_;
    std::vector<std::uint8_t> signs_;
    kfm::format::feature_segment segment_{};
    const kfm::detail::kernel_table* table_;
    float *in_re_, *in_im_, *out_re_, *out_im_;
    fftwf_plan plan_;
    float* t_;
};

void run_fftw(benchmark::State& state, unsigned d, unsigned D, std::size_t batch) {
    const auto map = kfm::offline::build_map(options(kfm::format::method::ssf, d, D));
    fftw_ssf peer(map);
    std::vector<float> x(batch * d), out(batch * map.meta.output_dim);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = kfm_bench::test_value(i);
    for (auto _ : state) {
        for (std::size_t r = 0; r < batch; ++r) peer.apply(x.data() + r * d, out.data() + r * map.meta.output_dim);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(std::int64_t(state.iterations() * batch));
}

void run_features(benchmark::State& state, unsigned d, unsigned D) {
    const auto map = kfm::offline::build_map(options(kfm::format::method::ssf, d, D));
    kfm::format::feature_segment seg{};
    std::memcpy(&seg, section_of(map, kfm::format::tag::segments).bytes.data(), sizeof seg);
    const std::size_t p = map.meta.projection_dim;
    kfm_bench::aligned_floats t(p), out(2 * p);
    for (std::size_t i = 0; i < p; ++i) t[i] = kfm_bench::test_value(i);
    const auto* table = kfm::detail::kernels_for(kfm::detail::best_isa());
    const kfm::detail::feature_args args{kfm::format::nonlinearity::cos_sin, t.data(), p, nullptr, seg.scale,
                                         nullptr, seg.weight, nullptr, out.data(), out.data() + p};
    for (auto _ : state) {
        table->features(args);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(std::int64_t(state.iterations()));
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
        benchmark::RegisterBenchmark(("map/ssf-fftw/" + suffix).c_str(),
                                     [d, D](benchmark::State& st) { run_fftw(st, d, D, 1); });
        benchmark::RegisterBenchmark(("map/ssf-fftw/" + suffix + "/batch").c_str(),
                                     [d, D](benchmark::State& st) { run_fftw(st, d, D, batch_size); });
        benchmark::RegisterBenchmark(("map/ssf-features/" + suffix).c_str(),
                                     [d, D](benchmark::State& st) { run_features(st, d, D); });
    }
    for (unsigned d : {784u, 4096u})
        benchmark::RegisterBenchmark(("opt/ssf/" + std::to_string(d)).c_str(), [d](benchmark::State& st) { run_optimiser(st, d); })
            ->Iterations(1)
            ->Unit(benchmark::kSecond);
    return 0;
}

const int registered = register_all();

}  // namespace
