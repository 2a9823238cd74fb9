// Data-driven Gaussian bandwidths (src/offline/fit/bandwidth.cpp): the median heuristic is the lower median
// of the pairwise distances of (evenly spaced, at most max_rows) rows; the scale rule is scikit-learn's
// gamma = 1 / (d Var) as sigma = sqrt(d Var / 2); degenerate data throws.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "kfm/offline/bandwidth.hpp"
#include "offline/sampling/random.hpp"

using namespace kfm::offline;

namespace {

// Every pairwise distance of the given rows, sorted (the reference the heuristic must agree with).
std::vector<double> sorted_distances(const std::vector<float>& x, std::size_t d, const std::vector<std::size_t>& rows) {
    std::vector<double> out;
    for (std::size_t a = 0; a < rows.size(); ++a)
        for (std::size_t b = a + 1; b < rows.size(); ++b) {
            double s = 0;
            for (std::size_t c = 0; c < d; ++c) {
                const double t = double(x[rows[a] * d + c]) - double(x[rows[b] * d + c]);
                s += t * t;
            }
            out.push_back(std::sqrt(s));
        }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST_CASE("bandwidth: median of a small set by hand, lower median for an even count") {
    // 1-D points 0, 1, 3, 7: distances 1, 2, 3, 4, 6, 7 -> lower median 3 (not 3.5, not 4).
    const std::vector<float> line = {0, 1, 3, 7};
    CHECK(median_heuristic_sigma(line.data(), 4, 1) == 3.0);
    // Three points in R^2 at (0,0), (3,0), (0,4): distances 3, 4, 5 -> median 4.
    const std::vector<float> triangle = {0, 0, 3, 0, 0, 4};
    CHECK(median_heuristic_sigma(triangle.data(), 3, 2) == 4.0);
    // Row order does not matter.
    const std::vector<float> shuffled = {7, 0, 3, 1};
    CHECK(median_heuristic_sigma(shuffled.data(), 4, 1) == 3.0);
}

TEST_CASE("bandwidth: median equals the brute-force lower median, with and without row sampling") {
    rng g(11);
    const std::size_t n = 57, d = 5;
    std::vector<float> x(n * d);
    for (float& v : x) v = float(g.normal());
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    const std::vector<double> full = sorted_distances(x, d, all);
    CHECK(median_heuristic_sigma(x.data(), n, d) == full[(full.size() - 1) / 2]);

    // max_rows = 10 of 57: rows i * 57 / 10 = 0, 5, 11, 17, 22, 28, 34, 39, 45, 51.
    const std::vector<std::size_t> sampled = {0, 5, 11, 17, 22, 28, 34, 39, 45, 51};
    const std::vector<double> part = sorted_distances(x, d, sampled);
    CHECK(median_heuristic_sigma(x.data(), n, d, 10) == part[(part.size() - 1) / 2]);
    CHECK(median_heuristic_sigma(x.data(), n, d, 10) != median_heuristic_sigma(x.data(), n, d));
}

TEST_CASE("bandwidth: scale is sqrt(d Var / 2) over all entries") {
    // Entries 0, 0, 1, 0, 3, 0, 7, 0: mean 11/8, variance 59/8 - 121/64 = 351/64; d = 2.
    const std::vector<float> x = {0, 0, 1, 0, 3, 0, 7, 0};
    CHECK(variance_scale_sigma(x.data(), 4, 2) == doctest::Approx(std::sqrt(2.0 * (351.0 / 64.0) / 2.0)).epsilon(1e-12));
    // d multiplies: the same entries read as one row of 8 give sqrt(8 Var / 2).
    CHECK(variance_scale_sigma(x.data(), 1, 8) == doctest::Approx(std::sqrt(8.0 * (351.0 / 64.0) / 2.0)).epsilon(1e-12));
    // Constant data: scikit-learn uses gamma = 1, i.e. sigma = sqrt(1/2).
    const std::vector<float> constant(12, 2.5f);
    CHECK(variance_scale_sigma(constant.data(), 4, 3) == doctest::Approx(std::sqrt(0.5)).epsilon(1e-12));
}

TEST_CASE("bandwidth: degenerate data throws") {
    const std::vector<float> one = {1, 2, 3};
    CHECK_THROWS_AS(median_heuristic_sigma(one.data(), 1, 3), std::invalid_argument);
    CHECK_THROWS_AS(median_heuristic_sigma(one.data(), 0, 3), std::invalid_argument);
    const std::vector<float> repeated = {1, 2, 1, 2, 1, 2};
    CHECK_THROWS_AS(median_heuristic_sigma(repeated.data(), 3, 2), std::invalid_argument);
    CHECK_THROWS_AS(variance_scale_sigma(one.data(), 0, 3), std::invalid_argument);
    CHECK_THROWS_AS(variance_scale_sigma(one.data(), 1, 0), std::invalid_argument);
}
