// butterfly/<isa>/<d> (log2 d levels, permutation gather, three repeats) against butterfly/dense/<d>
// (Eigen GEMV with the equivalent dense d x d matrix, built by applying the network to unit vectors),
// d = 16 .. 4096. Counter GFLOPS counts the network's useful flops, 6 per rotation:
// 3 repeats * log2 d levels * d/2 rotations * 6 = 9 d log2 d.
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "isa_util.hpp"

namespace {

struct network {
    unsigned d, log2_d;
    std::vector<float> cs;
    std::vector<std::uint32_t> perm;
};

network make_network(unsigned log2_d) {
    network net{1u << log2_d, log2_d, {}, {}};
    for (unsigned k = 0; k + 1 < net.d; ++k) {
        const double theta = 6.283185307179586 * (0.5 + 0.5 * kfm_bench::test_value(k));
        net.cs.push_back(float(std::cos(theta)));
        net.cs.push_back(float(std::sin(theta)));
    }
    net.perm.resize(net.d);
    std::iota(net.perm.begin(), net.perm.end(), 0u);
    for (unsigned i = net.d; i > 1; --i) {  // deterministic Fisher-Yates
        const auto j = unsigned((0.5f + 0.5f * kfm_bench::test_value(i + 7919)) * float(i)) % i;
        std::swap(net.perm[i - 1], net.perm[j]);
    }
    return net;
}

double useful_flops(unsigned d, unsigned log2_d) { return 9.0 * d * log2_d; }

const int registered = [] {
    for (unsigned log2_d = 4; log2_d <= 12; ++log2_d) {
        const unsigned d = 1u << log2_d;
        for (const auto& h : kfm_bench::host_isas()) {
            const auto* table = h.table;
            benchmark::RegisterBenchmark(("butterfly/" + h.name + "/" + std::to_string(d)).c_str(),
                                         [table, log2_d, d](benchmark::State& state) {
                                             const network net = make_network(log2_d);
                                             kfm_bench::aligned_floats x(d), scratch(d);
                                             for (unsigned i = 0; i < d; ++i) x[i] = kfm_bench::test_value(i);
                                             for (auto _ : state) {
                                                 table->butterfly(x.data(), d, log2_d, net.cs.data(), net.perm.data(), 3, false, scratch.data());
                                                 benchmark::DoNotOptimize(x.data());
                                                 benchmark::ClobberMemory();
                                             }
                                             state.counters["GFLOPS"] = benchmark::Counter(useful_flops(d, log2_d) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
                                         });
        }
        benchmark::RegisterBenchmark(("butterfly/dense/" + std::to_string(d)).c_str(), [log2_d, d](benchmark::State& state) {
            const network net = make_network(log2_d);
            const auto* table = kfm::detail::kernels_for(kfm::detail::best_isa());
            using matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
            matrix q(d, d);
            std::vector<float> e(d), scratch(d);
            for (unsigned j = 0; j < d; ++j) {
                std::fill(e.begin(), e.end(), 0.0f);
                e[j] = 1.0f;
                table->butterfly(e.data(), d, log2_d, net.cs.data(), net.perm.data(), 3, false, scratch.data());
                for (unsigned i = 0; i < d; ++i) q(i, j) = e[i];
            }
            Eigen::VectorXf x(d), y(d);
            for (unsigned i = 0; i < d; ++i) x[i] = kfm_bench::test_value(i);
            for (auto _ : state) {
                y.noalias() = q * x;
                benchmark::DoNotOptimize(y.data());
                benchmark::ClobberMemory();
            }
            state.counters["GFLOPS"] = benchmark::Counter(useful_flops(d, log2_d) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
        });
    }
    return 0;
}();

}  // namespace
