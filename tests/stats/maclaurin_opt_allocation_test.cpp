// maclaurin-opt's degree allocation (src/offline/methods/maclaurin_opt/degree_allocation.hpp): it spends the
// whole budget with at least one feature per kept degree, its estimate is no larger than the simple
// alternatives', and the estimate predicts the Gram error the built maps really have (mean squared relative
// Frobenius error over map seeds, on the rows the allocation read).
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "common/maclaurin_opt_test_maps.hpp"
#include "common/stats_util.hpp"
#include "common/test_maps.hpp"
#include "kfm/offline.hpp"
#include "offline/methods/maclaurin_opt/degree_allocation.hpp"

using namespace kfm;
using namespace kfm::test;
namespace fmt = kfm::format;

namespace {

constexpr unsigned d = 6;  // padded to d2 = 8
const offline::dot_product_series gaussian = offline::gaussian_series(8);

// 120 rows with a spread that makes x'.y' reach about 2 at sigma 1 (so degree 3 can pay).
offline::build_options options(unsigned features) {
    offline::build_options o;
    o.method = fmt::method::maclaurin_opt;
    o.input_dim = d;
    o.features = features;
    o.kernel.sigma = 1.0;
    set_normal_data(o, 120, 3, {2.0, 0.0, 0.55});
    return o;
}

// x' of every row, from the built map's PREP (as the runtime computes it).
std::vector<double> centred_rows(const offline::build_options& o, const offline::map_contents& map) {
    const auto prep = section_values<float>(map, fmt::tag::preprocess);
    std::vector<double> out;
    for (std::size_t r = 0; r < o.data_rows; ++r)
        for (unsigned i = 0; i < d; ++i) out.push_back(double((o.data[r * d + i] - prep[i]) * prep[d + i]));
    return out;
}

// The squared relative Frobenius Gram error on the options' own rows, averaged over 200 map seeds.
double mean_squared_gram_error(offline::build_options o) {
    constexpr unsigned seeds = 200;
    const std::vector<double> errors = gram_errors_over_seeds(100, seeds, [&](std::uint64_t seed) {
        o.seed = seed;
        return map_from_options(o);
    }, o.data, o.data_rows, o.data, o.data_rows);
    double measured = 0.0;
    for (double e : errors) measured += e * e / seeds;
    return measured;
}

}  // namespace

TEST_CASE("maclaurin-opt allocation: the whole budget, every kept degree fed, no worse than the simple splits") {
    const offline::build_options o = options(40);
    const std::vector<double> rows = centred_rows(o, offline::build_map(o));
    for (std::uint32_t budget : {1u, 7u, 31u, 200u}) {
        const offline::degree_allocation a = offline::allocate_degrees(rows, d, gaussian, budget, 8);
        CAPTURE(budget);
        REQUIRE(!a.features.empty());
        CHECK(std::accumulate(a.features.begin(), a.features.end(), 0u) == budget);
        for (std::uint32_t f : a.features) CHECK(f >= 1);
        CHECK(a.estimated_error == doctest::Approx(offline::estimated_gram_error(rows, d, gaussian, a.features)));
        // Everything on degree 2, and an even split over the same degrees.
        CHECK(a.estimated_error <= offline::estimated_gram_error(rows, d, gaussian, {budget}) * (1 + 1e-12));
        std::vector<std::uint32_t> even(a.features.size(), budget / std::uint32_t(a.features.size()));
        even[0] += budget % std::uint32_t(a.features.size());
        if (even.back() >= 1) CHECK(a.estimated_error <= offline::estimated_gram_error(rows, d, gaussian, even) * (1 + 1e-12));
    }
    // A larger budget keeps at least as many degrees, and no budget leaves nothing to allocate.
    CHECK(offline::allocate_degrees(rows, d, gaussian, 200, 8).largest_degree() >=
          offline::allocate_degrees(rows, d, gaussian, 7, 8).largest_degree());
    CHECK(offline::allocate_degrees(rows, d, gaussian, 0, 8).features.empty());
    CHECK(offline::allocate_degrees(rows, d, gaussian, 50, 2).largest_degree() == 2);
}

TEST_CASE("maclaurin-opt allocation: the estimate predicts the built maps' mean squared Gram error") {
    for (unsigned features : {24u, 64u}) {
        offline::build_options o = options(features);
        const offline::map_contents first = offline::build_map(o);
        const std::vector<double> rows = centred_rows(o, first);
        const std::vector<std::uint32_t> allocation = sketched_features_per_degree(first);
        REQUIRE(!allocation.empty());
        const double estimate = offline::estimated_gram_error(rows, d, gaussian, allocation);
        const double measured = mean_squared_gram_error(o);
        MESSAGE("D " << features << ", degrees 2.." << allocation.size() + 1 << ": estimate " << estimate << ", measured "
                     << measured);
        // The estimate leaves out the correlations between features (the rows of one pass's blocks, and the
        // blocks consecutive passes share): within a factor of 2 of the measured error.
        CHECK(measured > 0.5 * estimate);
        CHECK(measured < 2.0 * estimate);
    }
}

namespace {

// The polynomial-sphere map's options on the same rows, and the rows unit-normalised (the map's x').
offline::build_options polynomial_options(unsigned features, unsigned p, double a) {
    offline::build_options o = options(features);
    o.kernel.kind = fmt::kernel::polynomial_sphere;
    o.kernel.degree = p;
    o.kernel.scale = a;
    return o;
}

std::vector<double> unit_rows(const offline::build_options& o) {
    std::vector<double> out;
    for (std::size_t r = 0; r < o.data_rows; ++r) {
        double squares = 0.0;
        for (unsigned i = 0; i < d; ++i) squares += double(o.data[r * d + i]) * o.data[r * d + i];
        for (unsigned i = 0; i < d; ++i) out.push_back(o.data[r * d + i] / std::sqrt(squares));
    }
    return out;
}

}  // namespace

TEST_CASE("maclaurin-opt allocation: the series' coefficients, 1/k! and the polynomial-sphere kernel's") {
    const offline::dot_product_series g = offline::gaussian_series(5);
    CHECK(g.gaussian);
    REQUIRE(g.coefficients.size() == 6);
    CHECK(g.coefficients[0] == 1.0);
    CHECK(g.coefficients[1] == 1.0);
    CHECK(g.coefficients[4] == doctest::Approx(1.0 / 24));
    // p = 3, a = 4: (7/8 + z/8)^3.
    const offline::dot_product_series p3 = offline::polynomial_sphere_series(3, 4.0);
    CHECK(!p3.gaussian);
    REQUIRE(p3.largest_degree() == 3);
    const double expected[] = {343.0 / 512, 147.0 / 512, 21.0 / 512, 1.0 / 512};
    for (unsigned k = 0; k <= 3; ++k) CHECK(p3.coefficients[k] == doctest::Approx(expected[k]).epsilon(1e-15));
    // Any p and a: sum_k c_k z^k is (1 - |x - y|^2 / a^2)^p for unit x, y at z = x.y (|x - y|^2 = 2 - 2z).
    for (unsigned p : {1u, 2u, 7u, 20u})
        for (double a : {2.0, 3.0, 4.5}) {
            const offline::dot_product_series s = offline::polynomial_sphere_series(p, a);
            REQUIRE(s.largest_degree() == p);
            for (double z : {-1.0, -0.3, 0.0, 0.5, 1.0}) {
                double sum = 0.0;
                for (unsigned k = 0; k <= p; ++k) {
                    CHECK(s.coefficients[k] >= 0.0);
                    sum += s.coefficients[k] * std::pow(z, double(k));
                }
                CAPTURE(p);
                CAPTURE(a);
                CAPTURE(z);
                CHECK(sum == doctest::Approx(std::pow(1.0 - (2.0 - 2.0 * z) / (a * a), double(p))).epsilon(1e-13));
            }
        }
}

TEST_CASE("maclaurin-opt allocation: polynomial-sphere never above p, no bias term once every degree is kept") {
    const offline::build_options o = polynomial_options(40, 3, 2.0);
    const std::vector<double> rows = unit_rows(o);
    const offline::dot_product_series p3 = offline::polynomial_sphere_series(3, 2.0);
    for (std::uint32_t budget : {1u, 7u, 31u, 200u, 5000u}) {
        const offline::degree_allocation a = offline::allocate_degrees(rows, d, p3, budget, 8);
        CAPTURE(budget);
        REQUIRE(!a.features.empty());
        CHECK(a.largest_degree() <= 3);  // c_k = 0 above p: never allocated
        CHECK(std::accumulate(a.features.begin(), a.features.end(), 0u) == budget);
        CHECK(a.estimated_error == doctest::Approx(offline::estimated_gram_error(rows, d, p3, a.features)));
    }
    CHECK(offline::allocate_degrees(rows, d, p3, 5000, 8).largest_degree() == 3);  // a large budget keeps them all
    CHECK(offline::allocate_degrees(rows, d, p3, 5000, 2).largest_degree() == 2);
    CHECK(offline::allocate_degrees(rows, d, offline::polynomial_sphere_series(1, 2.0), 10, 8).features.empty());
    // Every degree kept: variance alone, so twice the features halve the estimate. Degree 3 dropped: its
    // bias stays, so they do not.
    const double kept = offline::estimated_gram_error(rows, d, p3, {300, 100});
    CHECK(offline::estimated_gram_error(rows, d, p3, {600, 200}) == doctest::Approx(0.5 * kept).epsilon(1e-12));
    CHECK(offline::estimated_gram_error(rows, d, p3, {300, 100, 7}) == kept);  // c_4 = 0: a degree 4 adds nothing
    const double dropped = offline::estimated_gram_error(rows, d, p3, {400});
    CHECK(offline::estimated_gram_error(rows, d, p3, {800}) > 0.6 * dropped);
    CHECK(offline::estimated_gram_error(rows, d, p3, {1u << 30}) > 0.0);
}

TEST_CASE("maclaurin-opt allocation: the polynomial-sphere estimate predicts the built maps' mean squared Gram error") {
    for (unsigned features : {24u, 128u}) {
        offline::build_options o = polynomial_options(features, 3, 2.0);
        const offline::map_contents first = offline::build_map(o);
        const std::vector<std::uint32_t> allocation = sketched_features_per_degree(first);
        REQUIRE(!allocation.empty());
        const offline::dot_product_series series = offline::polynomial_sphere_series(3, 2.0);
        const double estimate = offline::estimated_gram_error(unit_rows(o), d, series, allocation);
        const double measured = mean_squared_gram_error(o);
        MESSAGE("polynomial-sphere D " << features << ", degrees 2.." << allocation.size() + 1 << ": estimate "
                                       << estimate << ", measured " << measured);
        CHECK(measured > 0.5 * estimate);
        CHECK(measured < 2.0 * estimate);
    }
}
