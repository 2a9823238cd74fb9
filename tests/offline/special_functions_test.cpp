// Known values and a high-precision oracle for the large-order Bessel functions used by SRF and GORF.
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>

#include "offline/sampling/special_functions.hpp"

namespace {

using big = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<800>>;

// 0F1(; nu+1; -x^2/4) summed with 800 decimal digits: exact to double precision for every case below
// (the worst cancellation here is about e^600, and the smallest value about e^-700).
double bounded_oracle(double nu, double x) {
    const big q = -big(x) * big(x) / 4;
    big term = 1, sum = 1;
    for (int k = 1; k < 20000; ++k) {
        term *= q / (big(k) * (big(nu) + k));
        sum += term;
        if (abs(term) < big("1e-30") * abs(sum) && k * (nu + k) > x * x) break;
    }
    return static_cast<double>(sum);
}

}  // namespace

TEST_CASE("bessel: textbook values of J_nu") {
    int sign = 0;
    // Abramowitz & Stegun tables.
    CHECK(std::exp(kfm::offline::log_abs_bessel_j(0, 1.0, &sign)) == doctest::Approx(0.7651976865579666).epsilon(1e-13));
    CHECK(sign == 1);
    CHECK(std::exp(kfm::offline::log_abs_bessel_j(1, 2.0, &sign)) == doctest::Approx(0.5767248077568734).epsilon(1e-13));
    CHECK(std::exp(kfm::offline::log_abs_bessel_j(10, 10.0, &sign)) == doctest::Approx(0.2074861066333589).epsilon(1e-12));
    CHECK(std::exp(kfm::offline::log_abs_bessel_j(0, 5.0, &sign)) == doctest::Approx(0.1775967713143383).epsilon(1e-12));
    CHECK(sign == -1);  // J_0(5) = -0.17759677...
    CHECK(kfm::offline::bessel_j_bounded(0.5, 0.0) == 1.0);
    // nu = 1/2: Gamma(3/2)(2/x)^(1/2) J_(1/2)(x) = sin(x)/x.
    for (double x : {0.1, 1.0, 3.0, 10.0, 50.0, 200.0})
        CHECK(kfm::offline::bessel_j_bounded(0.5, x) == doctest::Approx(std::sin(x) / x).epsilon(1e-10));
}

TEST_CASE("bessel: bounded form matches a 200-digit series for orders up to d = 5000") {
    for (double d : {4.0, 16.0, 22.0, 256.0, 1000.0, 5000.0}) {
        const double nu = d / 2 - 1;
        for (double ratio : {0.01, 0.1, 0.5, 1.0, 2.0, 4.0, 8.0}) {
            const double x = ratio * std::sqrt(d) * 4;
            if (x > 400) continue;
            const double got = kfm::offline::bessel_j_bounded(nu, x);
            const double want = bounded_oracle(nu, x);
            INFO("d = " << d << ", x = " << x);
            CHECK(std::isfinite(got));
            CHECK(std::fabs(got) <= 1.0);
            CHECK(got == doctest::Approx(want).epsilon(1e-9).scale(1e-12));
        }
    }
}

TEST_CASE("bessel: log |J_nu| stays finite and accurate where J_nu underflows a double") {
    for (double nu : {500.0, 2499.0, 2502.0}) {
        for (double x : {1.0, 50.0, 0.3 * nu, 0.5 * nu, 0.8 * nu, 0.95 * nu}) {
            int sign = 0;
            const double got = kfm::offline::log_abs_bessel_j(nu, x, &sign);
            INFO("nu = " << nu << ", x = " << x);
            CHECK(std::isfinite(got));
            CHECK(sign == 1);  // no zeros below nu
            // oracle: log of the bounded series plus the (x/2)^nu / Gamma(nu+1) scale
            const double want = std::log(bounded_oracle(nu, x)) + nu * std::log(x / 2) - std::lgamma(nu + 1);
            CHECK(got == doctest::Approx(want).epsilon(1e-9));
        }
    }
}

TEST_CASE("quantiles: chi and gamma") {
    CHECK(kfm::offline::gamma_quantile(1.0, 0.5) == doctest::Approx(std::log(2.0)).epsilon(1e-13));
    // chi(2) is Rayleigh: F^-1(u) = sqrt(-2 log(1-u)).
    for (double u : {0.01, 0.3, 0.5, 0.9, 0.999})
        CHECK(kfm::offline::chi_quantile(2, u) == doctest::Approx(std::sqrt(-2 * std::log1p(-u))).epsilon(1e-12));
    // chi(5000) median is close to sqrt(5000 - 2/3).
    CHECK(kfm::offline::chi_quantile(5000, 0.5) == doctest::Approx(std::sqrt(5000 - 2.0 / 3)).epsilon(1e-4));
    CHECK_THROWS_AS(kfm::offline::chi_quantile(3, 1.0), std::invalid_argument);
}

TEST_CASE("log_gamma: within 4e-15 relative of boost's lgamma in 60-digit arithmetic, x in [0.5, 1e5]") {
    using big60 = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<60>>;
    for (double x : {0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 7.5, 14.5, 15.0, 15.5, 40.0, 1000.5, 50001.0, 1e5}) {
        INFO(x);
        const double expected = static_cast<double>(boost::math::lgamma(big60(x)));
        CHECK(std::fabs(kfm::offline::log_gamma(x) - expected) <= 4e-15 * std::max(1.0, std::fabs(expected)));
    }
    CHECK_THROWS(kfm::offline::log_gamma(0.0));
    CHECK_THROWS(kfm::offline::log_gamma(std::nan("")));
}
