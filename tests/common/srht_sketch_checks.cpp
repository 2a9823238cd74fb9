// The statistical checks tensor-srht and ctr-srht share (see srht_sketch_checks.hpp).
#include "common/srht_sketch_checks.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "common/error_rate_checks.hpp"
#include "common/pair_estimates.hpp"

namespace kfm::test {

offline::build_options polynomial_sphere_options(format::method method, unsigned d, unsigned features, unsigned degree,
                                                 double scale, std::uint64_t seed) {
    offline::build_options o;
    o.method = method;
    o.input_dim = d;
    o.features = features;
    o.kernel.kind = format::kernel::polynomial_sphere;
    o.kernel.degree = degree;
    o.kernel.scale = scale;
    o.seed = seed;
    return o;
}

void check_mean_estimate_is_kernel(format::method method, unsigned features, double max_relative_half_width) {
    const unsigned d = 5;                  // x~ has 6 coordinates, padded to d2 = 8
    constexpr std::uint64_t seeds = 6000;  // maps 1 .. 6000
    // Three pairs of varying norms (the map normalises them): far apart, and the first moved slightly.
    point_pairs pairs = pairs_of_rows(random_points(6, d, 404, 1.0), d, {{0, 1}, {2, 3}, {4, 5}});
    pairs.ys[0] = pairs.xs[0];
    for (unsigned k = 0; k < d; ++k) pairs.ys[0][k] += k % 2 ? 0.1f : -0.05f;

    struct kernel_case {
        unsigned degree;
        double scale;
    };
    for (const kernel_case k : {kernel_case{3, 4.0}, kernel_case{2, 2.0}}) {
        const auto options = [&](std::uint64_t seed) {
            return polynomial_sphere_options(method, d, features, k.degree, k.scale, seed);
        };
        const std::vector<mean_ci> means = mean_estimates_over_seeds(
            pairs, 1, seeds, 0.999, [&](std::uint64_t seed) { return map_from_options(options(seed)); });
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const double kernel = exact(options(1).kernel, pairs.xs[i], pairs.ys[i]);
            const mean_ci& ci = means[i];
            CAPTURE(k.degree);
            CAPTURE(k.scale);
            CAPTURE(i);
            CAPTURE(ci.mean);
            CAPTURE(ci.half_width);
            CAPTURE(kernel);
            CHECK(ci.contains(kernel));
            CHECK(ci.half_width < max_relative_half_width * kernel);
        }
    }
}

void check_gram_error_falls_like_inverse_sqrt(format::method method) {
    const unsigned d = 6;
    check_error_falls_like_inverse_sqrt_features(
        std::string(offline::method_name(method)) + " p = 3, a = 4", d, {16, 32, 64, 128, 256, 512},
        [&](unsigned D, std::uint64_t seed) {
            return map_from_options(polynomial_sphere_options(method, d, D, 3, 4.0, seed));
        });
}

void check_kernel_and_degree_refusals(format::method method) {
    offline::build_options o = polynomial_sphere_options(method, 5, 16, 3, 4.0, 1);
    o.kernel.kind = format::kernel::gaussian;
    const std::string gaussian_refused =
        std::string(offline::method_name(method)) + ": kernel 'gaussian' is not supported";
    CHECK_THROWS_WITH_AS(offline::build_map(o), doctest::Contains(gaussian_refused.c_str()), std::invalid_argument);
    // 100 factors of modulus up to d2 |x~| each (real, or complex with the same bound) pass 2^126 (the
    // finite-output contract).
    CHECK_THROWS_WITH_AS(offline::build_map(polynomial_sphere_options(method, 5, 16, 100, 4.0, 1)),
                         doctest::Contains("could give Inf or NaN features"), std::invalid_argument);
    // The limits docs/methods.md states at a = 4: degree 10 up to d2 = 128, 8 at d2 = 512 (d = 256).
    CHECK_NOTHROW(offline::build_map(polynomial_sphere_options(method, 64, 16, 10, 4.0, 1)));
    CHECK_NOTHROW(offline::build_map(polynomial_sphere_options(method, 256, 16, 8, 4.0, 1)));
    CHECK_THROWS_WITH_AS(offline::build_map(polynomial_sphere_options(method, 256, 16, 9, 4.0, 1)),
                         doctest::Contains("--degree 9"), std::invalid_argument);
}

}  // namespace kfm::test
