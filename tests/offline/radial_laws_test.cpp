// The radial laws of ||w|| (src/offline/sampling/radial_laws.hpp) against independent values: closed-form CDFs
// (Matérn nu = 1/2 in d = 1 and 3, nu = 3/2 in d = 1, the gaussian in d = 2), the multivariate-t radial
// density (Matérn) and the Bessel-K density of a product of two gammas (rational quadratic) integrated
// with Boost's Gauss-Kronrod rule, and the size-biased draws of the quadrature rule against the quantiles.
#include <doctest/doctest.h>

#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/math/special_functions/bessel.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "offline/sampling/radial_laws.hpp"

using kfm::format::kernel;
using kfm::offline::kernel_spec;
using kfm::offline::radial_quantile;

namespace {

constexpr double pi = std::numbers::pi;
const std::vector<double> probabilities = {1e-6, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1 - 1e-6};

kernel_spec spec(kernel kind, double shape) {
    kernel_spec k;
    k.kind = kind;
    k.nu = shape;
    k.alpha = shape;
    return k;
}

// Integral of f over [a, b] (b may be infinite), adaptive 61-point Gauss-Kronrod.
template <class F>
double integrate(F f, double a, double b) {
    return boost::math::quadrature::gauss_kronrod<double, 61>::integrate(f, a, b, 15, 1e-13);
}

// Integral of f over [0, b] for a density with an integrable singularity at 0 (tanh-sinh).
template <class F>
double integrate_from_zero(F f, double b) {
    boost::math::quadrature::tanh_sinh<double> rule;
    return rule.integrate(f, 0.0, b, 1e-12);
}

// Matérn(nu) spectral law at unit length: the standard multivariate t with 2 nu degrees of freedom. Its
// radial density: the sphere's area 2 pi^{d/2} / Gamma(d/2) times r^{d-1} times the t density.
double matern_radial_density(double r, unsigned d, double nu) {
    const double k = 2 * nu, dd = d;
    const double log_t = std::lgamma((k + dd) / 2) - std::lgamma(k / 2) - dd / 2 * std::log(k * pi) -
                         (k + dd) / 2 * std::log1p(r * r / k);
    const double log_area = std::log(2.0) + dd / 2 * std::log(pi) - std::lgamma(dd / 2);
    return std::exp(log_area + (dd - 1) * std::log(r) + log_t);
}

// Rational quadratic: ||w||^2 = 2 Z / alpha, Z = X Y, X ~ Gamma(d/2), Y ~ Gamma(alpha); the density of a
// product of two gammas is 2 z^{(a+b)/2 - 1} K_{a-b}(2 sqrt z) / (Gamma(a) Gamma(b)).
// Near z = 0, where K overflows, K_v(x) ~ Gamma(|v|)/2 (2/x)^|v| gives Gamma(|a-b|) z^{min(a,b)-1} / (Gamma(a) Gamma(b)).
double gamma_product_density(double z, double a, double b) {
    if (z <= 0) return 0;
    if (a != b && z < 1e-30) return std::exp(std::lgamma(std::fabs(a - b)) + (std::min(a, b) - 1) * std::log(z) -
                                             std::lgamma(a) - std::lgamma(b));
    const double log_k = std::log(boost::math::cyl_bessel_k(a - b, 2 * std::sqrt(z)));
    return std::exp(std::log(2.0) + ((a + b) / 2 - 1) * std::log(z) + log_k - std::lgamma(a) - std::lgamma(b));
}

}  // namespace

TEST_CASE("gaussian radial quantile: chi(2) is the Rayleigh law") {
    const kernel_spec k = spec(kernel::gaussian, 0);
    for (double u : probabilities) {
        CAPTURE(u);
        CHECK(radial_quantile(k, 2, u) == doctest::Approx(std::sqrt(-2 * std::log1p(-u))).epsilon(1e-12));
    }
}

TEST_CASE("Matérn radial quantile matches closed forms: nu = 1/2 in d = 1 and 3, nu = 3/2 in d = 1") {
    for (double u : probabilities) {
        CAPTURE(u);
        // d = 1, nu = 1/2: |Cauchy|, quantile tan(pi u / 2).
        CHECK(radial_quantile(spec(kernel::matern, 0.5), 1, u) == doctest::Approx(std::tan(pi * u / 2)).epsilon(1e-10));
        // d = 1, nu = 3/2: |t_3|, CDF (2/pi) (r / (sqrt3 (1 + r^2/3)) + atan(r / sqrt3)).
        const double r3 = radial_quantile(spec(kernel::matern, 1.5), 1, u);
        const double cdf3 = 2 / pi * (r3 / (std::sqrt(3.0) * (1 + r3 * r3 / 3)) + std::atan(r3 / std::sqrt(3.0)));
        CHECK(cdf3 == doctest::Approx(u).epsilon(1e-9));
        // d = 3, nu = 1/2: radial density (4/pi) r^2 / (1 + r^2)^2, CDF (2/pi) (atan r - r / (1 + r^2));
        // near u = 1 compare the upper tails, 1 - CDF = (2/pi) (atan(1/r) + r / (1 + r^2)).
        const double r = radial_quantile(spec(kernel::matern, 0.5), 3, u);
        if (u < 0.5) CHECK(2 / pi * (std::atan(r) - r / (1 + r * r)) == doctest::Approx(u).epsilon(1e-9));
        else CHECK(2 / pi * (std::atan(1 / r) + r / (1 + r * r)) == doctest::Approx(1 - u).epsilon(1e-9));
    }
}

TEST_CASE("Matérn radial quantile matches the integrated multivariate-t radial density") {
    for (unsigned d : {2u, 5u, 8u, 33u})
        for (double nu : {0.5, 1.5, 2.5, 7.0})
            for (double u : {1e-4, 0.2, 0.5, 0.8, 0.9999}) {
                CAPTURE(d);
                CAPTURE(nu);
                CAPTURE(u);
                const double r = radial_quantile(spec(kernel::matern, nu), d, u);
                auto p = [&](double t) { return matern_radial_density(t, d, nu); };
                if (u <= 0.5) CHECK(integrate(p, 0, r) == doctest::Approx(u).epsilon(1e-8));
                else CHECK(integrate(p, r, std::numeric_limits<double>::infinity()) == doctest::Approx(1 - u).epsilon(1e-7));
            }
}

TEST_CASE("rational-quadratic radial quantile matches the integrated Bessel-K density of a gamma product") {
    for (unsigned d : {1u, 4u, 8u, 33u})
        for (double alpha : {0.3, 0.75, 1.5, 5.0})
            for (double u : {1e-4, 0.2, 0.5, 0.8, 0.9999}) {
                CAPTURE(d);
                CAPTURE(alpha);
                CAPTURE(u);
                const double r = radial_quantile(spec(kernel::rational_quadratic, alpha), d, u);
                const double z = alpha * r * r / 2;  // ||w||^2 = 2 Z / alpha
                auto p = [&](double t) { return gamma_product_density(t, d / 2.0, alpha); };
                if (u <= 0.5) CHECK(integrate_from_zero(p, z) == doctest::Approx(u).epsilon(1e-7));
                else CHECK(integrate(p, z, std::numeric_limits<double>::infinity()) == doctest::Approx(1 - u).epsilon(1e-7));
            }
}

TEST_CASE("radial quantiles refuse u outside (0, 1) and kernels without a radial law") {
    CHECK_THROWS_AS(radial_quantile(spec(kernel::matern, 1.5), 4, 0.0), std::invalid_argument);
    CHECK_THROWS_AS(radial_quantile(spec(kernel::matern, 1.5), 4, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(radial_quantile(spec(kernel::laplacian, 1.5), 4, 0.5), std::invalid_argument);
}

TEST_CASE("second moments: d, d nu / (nu - 1), infinite for matern nu <= 1") {
    CHECK(kfm::offline::radial_second_moment(spec(kernel::gaussian, 0), 6) == 6.0);
    CHECK(kfm::offline::radial_second_moment(spec(kernel::rational_quadratic, 0.5), 6) == 6.0);
    CHECK(kfm::offline::radial_second_moment(spec(kernel::matern, 2.5), 6) == doctest::Approx(10.0));
    CHECK(std::isinf(kfm::offline::radial_second_moment(spec(kernel::matern, 1.0), 6)));
    kfm::offline::rng r(1);
    CHECK_THROWS_AS(kfm::offline::size_biased_radius(spec(kernel::matern, 0.5), 6, r), std::invalid_argument);
}

// The quadrature's identity: with rho from the size-biased law, E[(m2 / rho^2) h(rho)] = E[h(R)] for R
// from the radial law. h = 1 gives 1; h = 1{rho <= median} gives 1/2, which ties the size-biased sampler
// to the quantile function. 99.99% intervals over 200000 draws.
TEST_CASE("size-biased radii reweighted by m2 / rho^2 reproduce the radial law") {
    const unsigned d = 6, n = 200000;
    for (const kernel_spec& k : {spec(kernel::gaussian, 0), spec(kernel::matern, 1.5), spec(kernel::matern, 2.5),
                                 spec(kernel::rational_quadratic, 1.5), spec(kernel::rational_quadratic, 2.0)}) {
        CAPTURE(kfm::offline::kernel_name(k.kind));
        CAPTURE(k.nu);
        const double m2 = kfm::offline::radial_second_moment(k, d);
        const double median = radial_quantile(k, d, 0.5);
        kfm::offline::rng r(7);
        double s1 = 0, s1sq = 0, s2 = 0, s2sq = 0;
        for (unsigned i = 0; i < n; ++i) {
            const double rho = kfm::offline::size_biased_radius(k, d, r);
            const double w = m2 / (rho * rho);
            const double h = rho <= median ? w : 0.0;
            s1 += w, s1sq += w * w, s2 += h, s2sq += h * h;
        }
        const double z = 3.89;  // two-sided 99.99%
        const double m1 = s1 / n, m2h = s2 / n;
        CHECK(std::fabs(m1 - 1.0) < z * std::sqrt((s1sq / n - m1 * m1) / n));
        CHECK(std::fabs(m2h - 0.5) < z * std::sqrt((s2sq / n - m2h * m2h) / n));
    }
}

// The size-biased law's quantile (the quadrature's stratified radii) against its own definition, the CDF
// G(r) = int_0^r t^2 p(t) dt / m2 with the independent radial densities above (the chi(d) density for the
// gaussian), and against the size-biased sampler: the fraction of its draws at or below G^{-1}(u).
TEST_CASE("size-biased quantile inverts the integrated size-biased density r^2 p(r) / m2") {
    using kfm::offline::size_biased_quantile;
    const double inf = std::numeric_limits<double>::infinity();
    for (unsigned d : {1u, 6u, 33u})
        for (double u : {1e-4, 0.2, 0.5, 0.8, 0.9999}) {
            CAPTURE(d);
            CAPTURE(u);
            for (double nu : {1.5, 2.5, 7.0}) {
                CAPTURE(nu);
                const kernel_spec k = spec(kernel::matern, nu);
                const double m2 = kfm::offline::radial_second_moment(k, d);
                const double r = size_biased_quantile(k, d, u);
                auto g = [&](double t) { return t * t * matern_radial_density(t, d, nu) / m2; };
                if (u <= 0.5) CHECK(integrate(g, 0, r) == doctest::Approx(u).epsilon(1e-8));
                else CHECK(integrate(g, r, inf) == doctest::Approx(1 - u).epsilon(1e-7));
            }
            for (double alpha : {0.75, 1.5, 5.0}) {
                CAPTURE(alpha);
                const kernel_spec k = spec(kernel::rational_quadratic, alpha);
                const double r = size_biased_quantile(k, d, u);
                const double z = alpha * r * r / 2;  // ||w||^2 = 2 Z / alpha, m2 = d
                auto g = [&](double t) { return 2 * t / alpha * gamma_product_density(t, d / 2.0, alpha) / d; };
                if (u <= 0.5) CHECK(integrate_from_zero(g, z) == doctest::Approx(u).epsilon(1e-7));
                else CHECK(integrate(g, z, inf) == doctest::Approx(1 - u).epsilon(1e-7));
            }
            const double r = size_biased_quantile(spec(kernel::gaussian, 0), d, u);
            const double dd = d;
            auto chi_density = [&](double t) {
                return std::exp((dd - 1) * std::log(t) - t * t / 2 - (dd / 2 - 1) * std::log(2.0) - std::lgamma(dd / 2));
            };
            auto g = [&](double t) { return t * t * chi_density(t) / dd; };
            if (u <= 0.5) CHECK(integrate(g, 0, r) == doctest::Approx(u).epsilon(1e-8));
            else CHECK(integrate(g, r, inf) == doctest::Approx(1 - u).epsilon(1e-7));
        }
    CHECK_THROWS_AS(size_biased_quantile(spec(kernel::matern, 1.0), 6, 0.5), std::invalid_argument);
    CHECK_THROWS_AS(size_biased_quantile(spec(kernel::laplacian, 1.5), 6, 0.5), std::invalid_argument);

    // the sampler and the quantile describe one law: 99.99% binomial intervals over 100000 draws
    const unsigned d = 6, n = 100000;
    for (const kernel_spec& k : {spec(kernel::matern, 1.5), spec(kernel::rational_quadratic, 1.5)})
        for (double u : {0.1, 0.5, 0.9}) {
            const double cut = size_biased_quantile(k, d, u);
            kfm::offline::rng r(11);
            double below = 0;
            for (unsigned i = 0; i < n; ++i) below += kfm::offline::size_biased_radius(k, d, r) <= cut ? 1.0 : 0.0;
            CAPTURE(u);
            CHECK(std::fabs(below - n * u) <= 3.89 * std::sqrt(n * u * (1 - u)));
        }
}
