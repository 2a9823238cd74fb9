// ctr-srht through the real file path (build_map -> serialize -> open -> transform -> kernel_estimate).
// Each complex feature multiplies p independent factors sqrt(d2 / 2) ((H D_a x~)_r + i (H D_b x~)_r),
// x~ = (x / |x|, sqrt(q)) zero-padded, so Re(Z(x) conj(Z(y))) = Re Re + Im Im is unbiased for
// alpha (q + x.y / |x||y|)^p, the polynomial-sphere kernel: the mean estimate over independent maps must
// contain the kernel, at a scale a > 2 (the appended constant sqrt(q) > 0) and at a = 2 (q = 0: only
// padding), with a last pass that is partial. The passes are independent and the features within one pass
// share their blocks, so the relative Frobenius Gram error falls like D^{-1/2}.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "common/stats_util.hpp"
#include "kfm/offline.hpp"

using namespace kfm;
using namespace kfm::test;

namespace {

offline::build_options ctr_srht(unsigned d, unsigned features, unsigned degree, double scale, std::uint64_t seed) {
    offline::build_options o;
    o.method = format::method::ctr_srht;
    o.input_dim = d;
    o.features = features;
    o.kernel.kind = format::kernel::polynomial_sphere;
    o.kernel.degree = degree;
    o.kernel.scale = scale;
    o.seed = seed;
    return o;
}

}  // namespace

TEST_CASE("ctr-srht: the mean estimate over maps is the polynomial-sphere kernel") {
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
    // 24 outputs: 12 complex features, one full pass of 8 and a partial pass of 4.
    for (const kernel_case k : {kernel_case{3, 4.0}, kernel_case{2, 2.0}}) {
        for (std::size_t i = 0; i < xs.size(); ++i) {
            const seed_mean_estimate e = mean_estimate_over_seeds(xs[i], ys[i], seeds, 0.999, [&](std::uint64_t s) {
                return map_from_options(ctr_srht(d, 24, k.degree, k.scale, s));
            });
            CAPTURE(k.degree);
            CAPTURE(k.scale);
            CAPTURE(i);
            CAPTURE(e.ci.mean);
            CAPTURE(e.ci.half_width);
            CAPTURE(e.exact);
            CHECK(e.ci.contains(e.exact));
            // The interval is narrow enough to see a wrong constant: alpha (x.y)^p (no appended sqrt(q)), a
            // missing 1/sqrt(2) per factor (2^p too large) or the real parts alone would lie outside it.
            CHECK(e.ci.half_width < 0.1 * e.exact);
        }
    }
}

TEST_CASE("ctr-srht: relative Frobenius error falls like D^{-1/2}") {
    const unsigned d = 6, n = 40, seeds = 10;
    const auto x = random_points(n, d, 7, 1.0);
    const auto y = random_points(n, d, 8, 1.0);
    const std::vector<unsigned> sizes = {16, 32, 64, 128, 256, 512};
    const auto trend = error_against_features(
        sizes, seeds, [&](unsigned D, unsigned s) { return map_from_options(ctr_srht(d, D, 3, 4.0, 50 + s)); }, x, y, n);
    MESSAGE("ctr-srht p = 3, a = 4: error " << trend.mean_errors.front() << " at D = " << sizes.front() << ", "
                                            << trend.mean_errors.back() << " at D = " << sizes.back()
                                            << ", log-log slope " << trend.slope);
    CHECK(trend.slope > -0.62);
    CHECK(trend.slope < -0.38);
}

TEST_CASE("ctr-srht: D rounds up to even, and other kernels and degrees whose products could overflow are refused") {
    CHECK(offline::build_map(ctr_srht(5, 17, 3, 4.0, 1)).meta.output_dim == 18);
    CHECK(offline::build_map(ctr_srht(5, 18, 3, 4.0, 1)).meta.output_dim == 18);
    CHECK(offline::build_map(ctr_srht(5, 1, 3, 4.0, 1)).meta.output_dim == 2);
    offline::build_options o = ctr_srht(5, 16, 3, 4.0, 1);
    o.kernel.kind = format::kernel::gaussian;
    CHECK_THROWS_WITH_AS(offline::build_map(o), doctest::Contains("ctr-srht: kernel 'gaussian' is not supported"),
                         std::invalid_argument);
    // 100 complex factors of modulus up to d2 |x~| each pass 2^126 (the finite-output contract).
    CHECK_THROWS_WITH_AS(offline::build_map(ctr_srht(5, 16, 100, 4.0, 1)),
                         doctest::Contains("could give Inf or NaN features"), std::invalid_argument);
    // The limits docs/methods.md states at a = 4, tensor-srht's (the modulus of a factor is bounded as a real
    // factor is): degree 10 up to d2 = 128, 8 at d2 = 512 (d = 256).
    CHECK_NOTHROW(offline::build_map(ctr_srht(64, 16, 10, 4.0, 1)));
    CHECK_NOTHROW(offline::build_map(ctr_srht(256, 16, 8, 4.0, 1)));
    CHECK_THROWS_WITH_AS(offline::build_map(ctr_srht(256, 16, 9, 4.0, 1)),
                         doctest::Contains("--degree 9"), std::invalid_argument);
}
