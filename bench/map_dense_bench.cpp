// Dense baselines end to end: map/rff and map/orf (gaussian kernel) through register_map_benchmarks,
// and the peer peer/eigen/rff/<d>/<D>: the same dense map applied with Eigen (W x, then cos/sin).
#include <benchmark/benchmark.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstring>
#include <string>

#include "kfm/offline.hpp"
#include "register_map_benchmarks.hpp"

namespace {

struct size_pair {
    unsigned d, D;
};
constexpr size_pair sizes[] = {{64, 1024}, {256, 4096}};

kfm::offline::build_options options(kfm::format::method m, unsigned d, unsigned D) {
    kfm::offline::build_options o;
    o.method = m;
    o.kernel.kind = kfm::format::kernel::gaussian;
    o.kernel.sigma = 2.0;
    o.input_dim = d;
    o.features = D;
    o.seed = 7;
    return o;
}

// The Eigen peer: reads W, scales and weights of the rff map and does what transform does.
void eigen_rff(benchmark::State& state, unsigned d, unsigned D) {
    const auto map = kfm::offline::build_map(options(kfm::format::method::rff, d, D));
    const unsigned p = map.meta.projection_dim, w = map.meta.work_dim;
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> W(p, w);
    for (const auto& s : map.sections)
        if (s.tag == kfm::format::tag::dense) std::memcpy(W.data(), s.bytes.data(), s.bytes.size());
    Eigen::VectorXf x = Eigen::VectorXf::Zero(w), t(p), out(2 * p);
    for (unsigned i = 0; i < d; ++i) x[i] = std::sin(0.1f * static_cast<float>(i));
    const float weight = 1.0f / std::sqrt(static_cast<float>(p));
    for (auto _ : state) {
        t.noalias() = W * x;
        out.head(p) = weight * t.array().cos();
        out.tail(p) = weight * t.array().sin();
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

int register_all() {
    for (const auto& s : sizes) {
        for (auto m : {kfm::format::method::rff, kfm::format::method::orf}) {
            const unsigned d = s.d, D = s.D;
            register_map_benchmarks(kfm::offline::method_name(m), d, D,
                                    [m, d, D] { return kfm::offline::serialize(kfm::offline::build_map(options(m, d, D))); });
        }
        const std::string name = "peer/eigen/rff/" + std::to_string(s.d) + "/" + std::to_string(s.D);
        const unsigned d = s.d, D = s.D;
        benchmark::RegisterBenchmark(name.c_str(), [d, D](benchmark::State& st) { eigen_rff(st, d, D); });
    }
    return 0;
}

const int registered = register_all();

}  // namespace
