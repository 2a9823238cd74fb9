// tensor-srht through the real file path (build_map -> serialize -> open -> transform -> kernel_estimate).
// Each feature multiplies p independent rows sqrt(d2) (H D_l x~)_j, x~ = (x / |x|, sqrt(q)) zero-padded, so
// its product is unbiased for alpha (q + x.y / |x||y|)^p, the polynomial-sphere kernel: the mean estimate
// over independent maps must contain the kernel, at a scale a > 2 (the appended constant sqrt(q) > 0) and at
// a = 2 (q = 0: only padding), with a last pass that is partial. The passes are independent and the features
// within one pass share their blocks, so the relative Frobenius Gram error falls like D^{-1/2}.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "common/stats_util.hpp"
#include "kfm/offline.hpp"

using namespace kfm;
using namespace kfm::test;

namespace {

offline::build_options tensor_srht(unsigned d, unsigned features, unsigned degree, double scale, std::uint64_t seed) {
    offline::build_options o;
    o.method = format::method::tensor_srht;
    o.input_dim = d;
    o.features = features;
    o.kernel.kind = format::kernel::polynomial_sphere;
    o.kernel.degree = degree;
    o.kernel.scale = scale;
    o.seed = seed;
    return o;
}

}  // namespace

TEST_CASE("tensor-srht: the mean estimate over maps is the polynomial-sphere kernel") {
    const unsigned d = 5;                 // x~ has 6 coordinates, padded to d2 = 8
    constexpr std::uint64_t seeds = 6000;  // maps 1 .. 6000
    // Three pairs of varying norms (the map normalises them): far apart, and the first moved slightly.
    const auto pts = random_points(6, d, 404, 1.0);
    std::vector<std::vector<float>> xs, ys;
    for (unsigned i = 0; i < 3; ++i) {
        xs.push_back(point_row(pts, 2 * i, d));
        ys.push_back(point_row(pts, 2 * i + 1, d));
    }
    ys[0] = xs[0];
    for (unsigned k = 0; k < d; ++k) ys[0][k] += k % 2 ? 0.1f : -0.05f;

    struct kernel_case {
        unsigned degree;
        double scale;
    };
    // 12 features: one full pass of 8 and a partial pass of 4.
    for (const kernel_case k : {kernel_case{3, 4.0}, kernel_case{2, 2.0}}) {
        for (std::size_t i = 0; i < xs.size(); ++i) {
            const seed_mean_estimate e = mean_estimate_over_seeds(xs[i], ys[i], seeds, 0.999, [&](std::uint64_t s) {
                return map_from_options(tensor_srht(d, 12, k.degree, k.scale, s));
            });
            CAPTURE(k.degree);
            CAPTURE(k.scale);
            CAPTURE(i);
            CAPTURE(e.ci.mean);
            CAPTURE(e.ci.half_width);
            CAPTURE(e.exact);
            CHECK(e.ci.contains(e.exact));
            // The interval is narrow enough to see a wrong constant: alpha (x.y)^p (no appended sqrt(q)) or a
            // missing 1/D would lie outside it.
            CHECK(e.ci.half_width < 0.1 * e.exact);
        }
    }
}

TEST_CASE("tensor-srht: relative Frobenius error falls like D^{-1/2}") {
    const unsigned d = 6, n = 40, seeds = 10;
    const auto x = random_points(n, d, 7, 1.0);
    const auto y = random_points(n, d, 8, 1.0);
    const std::vector<unsigned> sizes = {16, 32, 64, 128, 256, 512};
    const auto trend = error_against_features(
        sizes, seeds, [&](unsigned D, unsigned s) { return map_from_options(tensor_srht(d, D, 3, 4.0, 50 + s)); }, x, y, n);
    MESSAGE("tensor-srht p = 3, a = 4: error " << trend.mean_errors.front() << " at D = " << sizes.front() << ", "
                                               << trend.mean_errors.back() << " at D = " << sizes.back()
                                               << ", log-log slope " << trend.slope);
    CHECK(trend.slope > -0.62);
    CHECK(trend.slope < -0.38);
}

TEST_CASE("tensor-srht: refuses other kernels and degrees whose products could overflow") {
    offline::build_options o = tensor_srht(5, 16, 3, 4.0, 1);
    o.kernel.kind = format::kernel::gaussian;
    CHECK_THROWS_WITH_AS(offline::build_map(o), doctest::Contains("tensor-srht: kernel 'gaussian' is not supported"),
                         std::invalid_argument);
    // 100 factors of up to d2 |x~| each pass 2^126 (the finite-output contract).
    CHECK_THROWS_WITH_AS(offline::build_map(tensor_srht(5, 16, 100, 4.0, 1)),
                         doctest::Contains("could give Inf or NaN features"), std::invalid_argument);
    // The limits docs/methods.md states at a = 4: degree 10 up to d2 = 128, 8 at d2 = 512 (d = 256).
    CHECK_NOTHROW(offline::build_map(tensor_srht(64, 16, 10, 4.0, 1)));
    CHECK_NOTHROW(offline::build_map(tensor_srht(256, 16, 8, 4.0, 1)));
    CHECK_THROWS_WITH_AS(offline::build_map(tensor_srht(256, 16, 9, 4.0, 1)),
                         doctest::Contains("--degree 9"), std::invalid_argument);
}
