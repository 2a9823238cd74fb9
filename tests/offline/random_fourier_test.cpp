// Dense baselines (rff, rff-phase, orf): option validation, determinism of the file bytes, recorded
// metadata, ORF block structure, and the runtime output equal to a double-precision dense reference.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/random_fourier_configs.hpp"
#include "common/stats_util.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/evaluate.hpp"
#include "runtime/map_state.hpp"

using kfm::format::kernel;
using kfm::format::method;
using kfm::offline::build_options;
using kfm::detail::section;

namespace {

build_options options(method m, kernel k, unsigned d, unsigned D, std::uint64_t seed = 1) {
    build_options o;
    o.method = m;
    o.kernel.kind = k;
    o.kernel.sigma = 1.5;
    o.kernel.order = 1;
    o.input_dim = d;
    o.features = D;
    o.seed = seed;
    return o;
}

using config = kfm::test::random_fourier_config;
using kfm::test::describe;
constexpr const auto& all_configs = kfm::test::random_fourier_configs;

}  // namespace

TEST_CASE("impossible options are rejected with std::invalid_argument") {
    auto fails = [](build_options o) { CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument); };
    for (method m : {method::rff, method::rff_phase, method::orf}) {
        CAPTURE(kfm::offline::method_name(m));
        fails(options(m, kernel::gaussian, 0, 16));
        fails(options(m, kernel::gaussian, 4, 0));
        auto o = options(m, kernel::gaussian, 4, 16);
        for (double bad : {0.0, -1.0, std::nan(""), double(INFINITY)}) {
            o.kernel.sigma = bad;
            fails(o);
        }
        o = options(m, kernel::arccos, 4, 16);
        o.kernel.order = 3;
        fails(o);
        fails(options(m, kernel::polynomial_sphere, 4, 16));
        fails(options(m, kernel::delta_gaussian, 4, 16));
        fails(options(m, kernel::gaussian, 4, (1u << 26) + 2));    // more than 2^26 outputs
        fails(options(m, kernel::gaussian, 100000, 1u << 22));     // 1.6 GB of dense parameters
    }
    fails(options(method::rff_phase, kernel::arccos, 4, 16));    // no random-phase arc-cosine map
    // A message that says what is wrong.
    try {
        kfm::offline::build_map(options(method::rff, kernel::gaussian, 0, 16));
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("input dimension") != std::string::npos);
    }
}

TEST_CASE("same seed gives identical bytes, another seed different bytes") {
    for (const config& c : all_configs) {
        CAPTURE(describe(c));
        auto o = options(c.m, c.k, 7, 30, 5);
        o.kernel.order = c.order;
        const auto a = kfm::offline::serialize(kfm::offline::build_map(o));
        const auto b = kfm::offline::serialize(kfm::offline::build_map(o));
        o.seed = 6;
        const auto other = kfm::offline::serialize(kfm::offline::build_map(o));
        CHECK(a == b);
        CHECK(a != other);
    }
}

TEST_CASE("metadata: output dimension, convention, kernel parameters and seed are recorded") {
    auto o = options(method::rff, kernel::gaussian, 5, 7, 77);
    auto m = kfm::test::map_from_options(o);
    CHECK(m.output_dim() == 8);  // paired cos/sin: rounded up to even
    CHECK(m.state().meta->projection_dim == 4);
    CHECK(m.state().meta->output_convention == unsigned(kfm::format::output_convention::paired_cos_sin));
    CHECK(m.state().meta->kernel_sigma == 1.5);
    CHECK(m.state().meta->seed == 77);
    CHECK(m.view().negative_dim() == 0);
    const auto spec = kfm::offline::kernel_spec_from_map(m.view());
    CHECK(spec.kind == kernel::gaussian);
    CHECK(spec.sigma == 1.5);

    o.method = method::rff_phase;
    auto p = kfm::test::map_from_options(o);
    CHECK(p.output_dim() == 7);
    CHECK(p.state().meta->output_convention == unsigned(kfm::format::output_convention::cos_phase));
    REQUIRE(p.state().view<section::phases>().count == 7);
    for (unsigned i = 0; i < 7; ++i) {
        CHECK(p.state().view<section::phases>().data[i] >= 0.0f);
        CHECK(p.state().view<section::phases>().data[i] <= 6.2831855f);
    }

    o = options(method::orf, kernel::arccos, 5, 7);
    o.kernel.order = 2;
    auto a = kfm::test::map_from_options(o);
    CHECK(a.output_dim() == 8);  // reflected pairs (the default): rounded up to even
    CHECK(a.state().meta->projection_dim == 4);
    CHECK(a.state().meta->kernel_order == 2);
    CHECK(a.state().meta->output_convention == unsigned(kfm::format::output_convention::real));
    CHECK(kfm::offline::kernel_spec_from_map(a.view()).order == 2);
}

TEST_CASE("ORF rows are orthogonal within each block of d and the last block is truncated") {
    const unsigned d = 6;
    auto o = options(method::orf, kernel::gaussian, d, 2 * 15);  // 15 projections: blocks of 6, 6, 3
    auto m = kfm::test::map_from_options(o);
    const float* w = m.state().view<section::dense>().data;
    REQUIRE(m.state().meta->projection_dim == 15);
    double worst = 0.0, smallest_norm = 1e300;
    for (unsigned i = 0; i < 15; ++i)
        for (unsigned j = i; j < 15; ++j) {
            double s = 0.0;
            for (unsigned k = 0; k < d; ++k) s += double(w[i * d + k]) * w[j * d + k];
            if (i == j) smallest_norm = std::min(smallest_norm, s);
            else if (i / d == j / d) worst = std::max(worst, std::fabs(s));
        }
    CHECK(smallest_norm > 0.0);
    // Scale-free test: |w_i . w_j| / (|w_i| |w_j|) is float rounding only.
    CHECK(worst / smallest_norm < 1e-5);
}

TEST_CASE("runtime output equals the dense reference computed in double") {
    const unsigned d = 9;
    const auto x = kfm::test::random_points(5, d, 3, 1.0);
    for (const config& c : all_configs) {
        CAPTURE(describe(c));
        auto o = options(c.m, c.k, d, 24, 11);
        o.kernel.order = c.order;
        auto m = kfm::test::map_from_options(o);
        const auto& v = m.view();
        const auto& vs = m.state();
        const float* dense = vs.view<section::dense>().data;
        const float* phases = vs.view<section::phases>().data;
        const unsigned P = vs.meta->projection_dim, D = vs.meta->output_dim;
        const auto phi = kfm::offline::map_rows(v, x.data(), 5, d);
        double worst = 0.0;
        for (unsigned r = 0; r < 5; ++r)
            for (unsigned i = 0; i < P; ++i) {
                double t = 0.0;
                for (unsigned k = 0; k < d; ++k) t += double(dense[i * d + k]) * x[r * d + k];
                std::vector<std::pair<unsigned, double>> expect;
                if (c.k == kernel::gaussian && c.m != method::rff_phase) {
                    const double w = std::sqrt(2.0 / D);
                    expect = {{i, w * std::cos(t)}, {P + i, w * std::sin(t)}};
                } else if (c.k == kernel::gaussian) {
                    expect = {{i, std::sqrt(2.0 / D) * std::cos(t + double(phases[i]))}};
                } else {
                    const double pos = t > 0 ? t : 0.0;
                    const double f = c.order == 0 ? (t > 0 ? 1.0 : 0.0) : (c.order == 1 ? pos : pos * pos);
                    expect = {{i, std::sqrt(2.0 / D) * f}};
                }
                for (auto [index, value] : expect)
                    worst = std::max(worst, std::fabs(double(phi[r * D + index]) - value) / (1.0 + std::fabs(value)));
            }
        CHECK(worst < 2e-5);
    }
}

TEST_CASE("gaussian row norms follow chi(d)/sigma: E|w|^2 = d / sigma^2 for rff and orf") {
    const unsigned d = 8;
    for (method m : {method::rff, method::orf}) {
        CAPTURE(kfm::offline::method_name(m));
        auto o = options(m, kernel::gaussian, d, 2 * 4000);
        auto map = kfm::test::map_from_options(o);
        const auto& vs = map.state();
        const float* dense = vs.view<section::dense>().data;
        std::vector<double> sq;
        for (unsigned i = 0; i < vs.meta->projection_dim; ++i) {
            double s = 0.0;
            for (unsigned k = 0; k < d; ++k) s += double(dense[i * d + k]) * dense[i * d + k];
            sq.push_back(s);
        }
        CHECK(kfm::test::mean_with_ci(sq, 0.9999).contains(d / (1.5 * 1.5)));
    }
}
