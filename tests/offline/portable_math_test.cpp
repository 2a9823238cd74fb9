// The fits' own elementary functions and Bessel J (src/offline/sampling/portable_math.hpp, bessel_recurrence.hpp):
// accuracy against 50-digit references over the arguments the fits use. That they give the same bits on
// every architecture is what the builder-bytes list checks under qemu (builder_bytes_test.cpp).
#include <doctest/doctest.h>

#include <boost/math/special_functions/bessel.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "offline/sampling/bessel_recurrence.hpp"
#include "offline/sampling/portable_math.hpp"
#include "offline/sampling/special_functions.hpp"

namespace {

using big = boost::multiprecision::cpp_bin_float_50;
namespace pm = kfm::offline::portable;

// |got - want| in units of the last place of want (a normal double).
double ulps(double got, const big& want) {
    const double w = static_cast<double>(want);
    const double ulp = std::nextafter(std::fabs(w), std::numeric_limits<double>::infinity()) - std::fabs(w);
    return static_cast<double>(abs(big(got) - want) / ulp);
}

// Gamma(nu+1) (2/x)^nu J_nu(x) in 50 digits.
big bounded_reference(double nu, double x) {
    const big bx(x), bnu(nu);
    return boost::math::cyl_bessel_j(bnu, bx) * exp(boost::math::lgamma(bnu + 1) + bnu * log(2 / bx));
}

}  // namespace

TEST_CASE("portable exp: below 0.65 ulp over its range, 10^5 arguments") {
    std::mt19937_64 g(15);
    double worst = 0.0;
    for (int i = 0; i < 100000; ++i) {
        // Half over the whole normal range, half over [-3, 3] (the fits' typical arguments).
        const double x = i % 2 ? std::uniform_real_distribution<double>(-708.3, 709.7)(g)
                               : std::uniform_real_distribution<double>(-3.0, 3.0)(g);
        const double e = ulps(pm::exp(x), exp(big(x)));
        if (e > worst) {
            worst = e;
            INFO("x = " << x);
            CHECK(e < 0.65);
        }
    }
    MESSAGE("portable exp: worst " << worst << " ulp");
    CHECK(pm::exp(0.0) == 1.0);
    CHECK(pm::exp(710.0) == std::numeric_limits<double>::infinity());
    CHECK(pm::exp(-746.0) == 0.0);
    CHECK(std::isnan(pm::exp(std::nan(""))));
}

TEST_CASE("portable log: below 0.6 ulp, 10^5 arguments from subnormal to DBL_MAX") {
    std::mt19937_64 g(16);
    double worst = 0.0;
    for (int i = 0; i < 100000; ++i) {
        // Half log-uniform over the whole range, half near 1 (where log cancels).
        const double x = i % 2 ? std::ldexp(std::uniform_real_distribution<double>(1.0, 2.0)(g),
                                            std::uniform_int_distribution<int>(-1074, 1023)(g))
                               : std::uniform_real_distribution<double>(0.5, 2.0)(g);
        if (x == 1.0 || x == 0.0) continue;
        const double e = ulps(pm::log(x), log(big(x)));
        if (e > worst) {
            worst = e;
            INFO("x = " << x);
            CHECK(e < 0.6);
        }
    }
    MESSAGE("portable log: worst " << worst << " ulp");
    CHECK(pm::log(1.0) == 0.0);
    CHECK(pm::log(0.0) == -std::numeric_limits<double>::infinity());
    CHECK(std::isnan(pm::log(-1.0)));
    CHECK(pm::log(std::numeric_limits<double>::infinity()) == std::numeric_limits<double>::infinity());
}

TEST_CASE("portable pow: base^n within 0.51 ulp for the fits' targets (1 - z^2/a^2)^p, p up to 100") {
    std::mt19937_64 g(17);
    double worst = 0.0;
    for (int i = 0; i < 20000; ++i) {
        const double base = std::uniform_real_distribution<double>(0.0, 1.0)(g);
        const unsigned n = 1 + i % 100;
        const big want = pow(big(base), n);
        if (want < big(1e-300)) continue;
        worst = std::max(worst, ulps(pm::pow(base, n), want));
    }
    MESSAGE("portable pow: worst " << worst << " ulp");
    CHECK(worst < 0.51);
    CHECK(pm::pow(0.5, 0) == 1.0);
    CHECK(pm::pow(-2.0, 3) == -8.0);
    CHECK(pm::pow(0.0, 5) == 0.0);
}

// The orders and ranges of the fits: SRF's nu = d/2 - 1 on x = w z up to 2 w_max (d = 5, 8, 256; a
// 2000 reach covers degree 100 at a = 2), GORF bessel-1d's nu = d/2 + j on x = 2w up to 200.
TEST_CASE("Bessel J by recurrence: within 1e-13 of the local amplitude (2e-13 past x = 500)") {
    for (double nu : {0.0, 0.5, 1.5, 2.5, 3.0, 5.5, 24.0, 127.0, 499.0}) {
        double worst = 0.0;
        for (double x = std::sqrt(32.0 * (nu + 1.0)) - 1.0; x < 2000.0; x *= 1.07) {
            const big want = bounded_reference(nu, x);
            // |J| below x, the envelope sqrt(2 / (pi sqrt(x^2 - nu^2))) above, in bounded scale.
            const big scale = exp(boost::math::lgamma(big(nu) + 1) + big(nu) * log(2 / big(x)));
            big amplitude = abs(want);
            if (x > nu) {
                const big envelope = scale * sqrt(2 / (boost::math::constants::pi<big>() * sqrt(big(x) * x - big(nu) * nu)));
                if (envelope > amplitude) amplitude = envelope;
            }
            if (amplitude < big(1e-200)) continue;  // flushes toward zero there; irrelevant next to |value| <= 1
            const double err = static_cast<double>(abs(big(kfm::offline::bessel_j_bounded_by_recurrence(nu, x)) - want) / amplitude);
            worst = std::max(worst, err);
            INFO("nu = " << nu << ", x = " << x);
            CHECK(err < (x <= 500.0 ? 1e-13 : 2e-13));
        }
        MESSAGE("Bessel J by recurrence, nu = " << nu << ": worst " << worst << " of the amplitude");
    }
    CHECK_THROWS_AS(kfm::offline::bessel_j_bounded_by_recurrence(1.0, 0.0), std::invalid_argument);
    CHECK_THROWS_AS(kfm::offline::bessel_j_bounded_by_recurrence(-1.0, 2.0), std::invalid_argument);
}

TEST_CASE("bessel_j_bounded is continuous where it switches from the series to the recurrence") {
    for (double nu : {1.5, 3.0, 127.0}) {
        const double edge = std::sqrt(32.0 * (nu + 1.0));  // x^2 / (4 (nu + 1)) = 8
        const double below = std::nextafter(edge, 0.0), above = std::nextafter(edge, 1e9);
        INFO("nu = " << nu);
        CHECK(kfm::offline::bessel_j_bounded(nu, below) == doctest::Approx(kfm::offline::bessel_j_bounded(nu, above)).epsilon(1e-10).scale(1e-12));
    }
}
