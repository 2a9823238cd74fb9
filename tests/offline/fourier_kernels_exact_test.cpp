// Exact Matérn, rational-quadratic and Laplacian kernels against independent values: the closed forms of
// Matérn at nu = 1/2, 3/2, 5/2 (the Bessel K route of exact_kernel must agree), the RQ and L1 formulas
// worked by hand, the limits (Matérn and RQ tend to the gaussian), and refusals of bad parameters.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "kfm/offline.hpp"

using kfm::format::kernel;
using kfm::offline::exact_kernel;
using kfm::offline::kernel_spec;

namespace {

kernel_spec spec(kernel kind, double length, double nu = 1.5, double alpha = 1.0) {
    kernel_spec k;
    k.kind = kind;
    k.sigma = length;
    k.nu = nu;
    k.alpha = alpha;
    return k;
}

double at(const kernel_spec& k, std::vector<double> x, std::vector<double> y) {
    return exact_kernel(k, x.data(), y.data(), static_cast<unsigned>(x.size()));
}

}  // namespace

TEST_CASE("Matérn nu = 1/2, 3/2, 5/2 match their closed forms at many distances") {
    const double l = 1.7;
    for (double r : {1e-6, 0.01, 0.3, 1.0, 2.5, 7.0, 30.0}) {
        CAPTURE(r);
        // A 3-d pair at distance r: (r/3, 2r/3, 2r/3) has norm r.
        const std::vector<double> x = {0.2, -0.1, 0.5};
        const std::vector<double> y = {0.2 + r / 3, -0.1 + 2 * r / 3, 0.5 - 2 * r / 3};
        const double a = r / l;
        const double s3 = std::sqrt(3.0) * a, s5 = std::sqrt(5.0) * a;
        const double half = std::exp(-a);
        const double three_halves = (1 + s3) * std::exp(-s3);
        const double five_halves = (1 + s5 + 5 * a * a / 3) * std::exp(-s5);
        CHECK(at(spec(kernel::matern, l, 0.5), x, y) == doctest::Approx(half).epsilon(1e-12));
        CHECK(at(spec(kernel::matern, l, 1.5), x, y) == doctest::Approx(three_halves).epsilon(1e-12));
        CHECK(at(spec(kernel::matern, l, 2.5), x, y) == doctest::Approx(five_halves).epsilon(1e-12));
    }
}

TEST_CASE("Matérn: 1 at zero distance, the gaussian for large nu, finite near zero for nu near the limit") {
    const std::vector<double> x = {1.0, 2.0}, y = {1.0, 2.0};
    for (double nu : {0.1, 0.5, 1.0, 3.7, 100.0}) CHECK(at(spec(kernel::matern, 1.0, nu), x, y) == 1.0);
    // nu = 100: within O(1/nu) of exp(-r^2 / (2 l^2)).
    const std::vector<double> z = {0.0, 0.0}, w = {0.6, 0.8};
    const double g = std::exp(-0.5);
    CHECK(std::fabs(at(spec(kernel::matern, 1.0, 100.0), z, w) - g) < 0.01 * g);
    // nu = 100 near zero: K_nu overflows below t = sqrt(2 nu) r < 0.06 and the series takes over; on both
    // sides of that point the value is the series 1 - t^2/(4(nu-1)) + t^4/(32(nu-1)(nu-2)).
    for (double r : {1e-9, 0.003, 0.006, 0.01}) {
        CAPTURE(r);
        const double t2 = 200.0 * r * r;
        const double series = 1.0 - t2 / 396.0 + t2 * t2 / (32.0 * 99.0 * 98.0);
        CHECK(at(spec(kernel::matern, 1.0, 100.0), z, {r, 0.0}) == doctest::Approx(series).epsilon(1e-11));
    }
}

TEST_CASE("rational quadratic: the formula, and the gaussian as alpha grows") {
    const std::vector<double> x = {0.0, 0.0, 0.0}, y = {1.0, 2.0, 2.0};  // r^2 = 9
    // alpha = 2, l = 1.5: (1 + 9 / (2 * 2 * 2.25))^-2 = (1 + 1)^-2 = 0.25.
    CHECK(at(spec(kernel::rational_quadratic, 1.5, 1.5, 2.0), x, y) == doctest::Approx(0.25).epsilon(1e-14));
    // alpha = 0.5, l = 3: (1 + 9 / 9)^-0.5 = 1/sqrt(2).
    CHECK(at(spec(kernel::rational_quadratic, 3.0, 1.5, 0.5), x, y) == doctest::Approx(std::sqrt(0.5)).epsilon(1e-14));
    const double g = std::exp(-9.0 / (2 * 9.0));
    CHECK(at(spec(kernel::rational_quadratic, 3.0, 1.5, 1e6), x, y) == doctest::Approx(g).epsilon(1e-6));
}

TEST_CASE("laplacian uses the L1 distance") {
    const std::vector<double> x = {1.0, -1.0, 0.5}, y = {0.0, 1.0, 0.5};  // |x-y|_1 = 3, |x-y|_2 = sqrt 5
    CHECK(at(spec(kernel::laplacian, 2.0), x, y) == doctest::Approx(std::exp(-1.5)).epsilon(1e-14));
    CHECK(at(spec(kernel::laplacian, 2.0), x, x) == 1.0);
}

TEST_CASE("bad parameters are refused") {
    const std::vector<double> x = {1.0}, y = {0.0};
    CHECK_THROWS_AS(at(spec(kernel::matern, 1.0, 0.0), x, y), std::invalid_argument);
    CHECK_THROWS_AS(at(spec(kernel::matern, 1.0, -1.5), x, y), std::invalid_argument);
    CHECK_THROWS_AS(at(spec(kernel::matern, 1.0, NAN), x, y), std::invalid_argument);
    CHECK_THROWS_AS(at(spec(kernel::matern, 1.0, 101.0), x, y), std::invalid_argument);
    CHECK_THROWS_AS(at(spec(kernel::matern, 0.0, 1.5), x, y), std::invalid_argument);
    CHECK_THROWS_AS(at(spec(kernel::rational_quadratic, 1.0, 1.5, 0.0), x, y), std::invalid_argument);
    CHECK_THROWS_AS(at(spec(kernel::rational_quadratic, 1.0, 1.5, INFINITY), x, y), std::invalid_argument);
    CHECK_THROWS_AS(at(spec(kernel::laplacian, -1.0), x, y), std::invalid_argument);
}
