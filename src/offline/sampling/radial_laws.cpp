// Radial laws of the scale-mixture kernels (see the header).
#include "offline/sampling/radial_laws.hpp"

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/bessel.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/special_functions/trigamma.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace kfm::offline {
namespace {

[[noreturn]] void not_a_mixture(const kernel_spec& k) {
    throw std::invalid_argument(std::string("kernel '") + kernel_name(k.kind) + "' has no radial law");
}

// Rational quadratic: ||w||^2 = 2 X Y / alpha with X ~ Gamma(a = d/2), Y ~ Gamma(b = alpha) independent.
// P(X Y <= z) = E_Y[P(X <= z / Y)] (lower) and P(X Y > z) = E_Y[Q(X > z / Y)] (upper, for u > 1/2, so that
// both tails keep relative accuracy), integrated over t = log y on the range outside which Y has
// probability below 1e-18 (P(Y < y) <= y^b / Gamma(b + 1); the upper end is far in the exponential tail).
class gamma_product {
public:
    gamma_product(double a, double b) : a_(a), b_(b), lgb_(std::lgamma(b)) {
        t_lo_ = (std::log(1e-18) + std::lgamma(b + 1.0)) / b;
        t_hi_ = std::log(2.0 * b + 10.0 * std::sqrt(b) + 60.0);
    }

    double tail(double z, bool lower) const {
        auto integrand = [&](double t) {
            const double y = std::exp(t);
            const double density = std::exp(b_ * t - y - lgb_);  // of log Y
            if (density == 0.0) return 0.0;
            return density * (lower ? boost::math::gamma_p(a_, z / y) : boost::math::gamma_q(a_, z / y));
        };
        return boost::math::quadrature::gauss_kronrod<double, 31>::integrate(integrand, t_lo_, t_hi_, 20, 1e-11);
    }

    // log of the density of X Y: 2 z^{(a+b)/2 - 1} K_{a-b}(2 sqrt z) / (Gamma(a) Gamma(b)); only Newton's
    // slope, so K's overflow near 0 and underflow far out give a non-finite value the caller replaces.
    double log_density(double z) const {
        using namespace boost::math::policies;
        const double k = boost::math::cyl_bessel_k(a_ - b_, 2.0 * std::sqrt(z),
                                                   policy<overflow_error<ignore_error>, underflow_error<ignore_error>>());
        return std::log(2.0) + (0.5 * (a_ + b_) - 1.0) * std::log(z) + std::log(k) - std::lgamma(a_) - lgb_;
    }

    // Solves P(X Y <= z) = u for z by safeguarded Newton in log z, from the normal approximation of
    // log X + log Y (mean digamma(a) + digamma(b), variance trigamma(a) + trigamma(b)).
    double quantile(double u) const {
        const bool lower = u <= 0.5;
        const double target = lower ? u : 1.0 - u;
        auto step = [&](double s) {
            const double z = std::exp(s);
            const double p = tail(z, lower);
            const double slope = std::exp(s + log_density(z));  // d/ds of P(X Y <= e^s)
            const double value = lower ? p - target : target - p;
            return std::make_pair(value, std::isfinite(slope) && slope > 0.0 ? slope : 1.0);
        };
        const double mean = boost::math::digamma(a_) + boost::math::digamma(b_);
        const double sd = std::sqrt(boost::math::trigamma(a_) + boost::math::trigamma(b_));
        const double guess = mean - sd * std::sqrt(2.0) * boost::math::erfc_inv(2.0 * u);
        std::uintmax_t iterations = 200;
        const double s = boost::math::tools::newton_raphson_iterate(step, guess, -700.0, 700.0, 40, iterations);
        return std::exp(s);
    }

private:
    double a_, b_, lgb_, t_lo_ = 0.0, t_hi_ = 0.0;
};

}  // namespace

double radial_quantile(const kernel_spec& k, unsigned dim, double u) {
    if (!(u > 0.0 && u < 1.0)) throw std::invalid_argument("radial quantile: u must be in (0, 1)");
    const double d = dim;
    switch (k.kind) {
        case format::kernel::gaussian:
            return std::sqrt(boost::math::quantile(boost::math::chi_squared_distribution<double>(d), u));
        case format::kernel::matern: {
            const boost::math::fisher_f_distribution<double> f(d, 2.0 * k.nu);
            const double q = u <= 0.5 ? boost::math::quantile(f, u) : boost::math::quantile(boost::math::complement(f, 1.0 - u));
            return std::sqrt(d * q);
        }
        case format::kernel::rational_quadratic:
            return std::sqrt(2.0 * gamma_product(0.5 * d, k.alpha).quantile(u) / k.alpha);
        default: break;
    }
    not_a_mixture(k);
}

double radial_second_moment(const kernel_spec& k, unsigned dim) {
    const double d = dim;
    switch (k.kind) {
        case format::kernel::gaussian:
        case format::kernel::rational_quadratic: return d;
        case format::kernel::matern:
            return k.nu > 1.0 ? d * k.nu / (k.nu - 1.0) : std::numeric_limits<double>::infinity();
        default: break;
    }
    not_a_mixture(k);
}

double size_biased_radius(const kernel_spec& k, unsigned dim, rng& r) {
    if (!std::isfinite(radial_second_moment(k, dim)))
        throw std::invalid_argument("size-biased radius: the radial law has no finite second moment");
    const double chi = r.chi(double(dim) + 2.0);
    switch (k.kind) {
        case format::kernel::gaussian: return chi;
        case format::kernel::matern: return chi * std::sqrt(k.nu / r.gamma(k.nu - 1.0));
        case format::kernel::rational_quadratic: return chi * std::sqrt(r.gamma(k.alpha + 1.0) / k.alpha);
        default: break;
    }
    not_a_mixture(k);
}

double size_biased_quantile(const kernel_spec& k, unsigned dim, double u) {
    if (!std::isfinite(radial_second_moment(k, dim)))
        throw std::invalid_argument("size-biased quantile: the radial law has no finite second moment");
    kernel_spec shifted = k;
    double factor = 1.0;
    switch (k.kind) {
        case format::kernel::gaussian: break;
        case format::kernel::matern:
            shifted.nu = k.nu - 1.0;
            factor = std::sqrt(k.nu / (k.nu - 1.0));
            break;
        case format::kernel::rational_quadratic:
            shifted.alpha = k.alpha + 1.0;
            factor = std::sqrt((k.alpha + 1.0) / k.alpha);
            break;
        default: not_a_mixture(k);
    }
    return factor * radial_quantile(shifted, dim + 2, u);
}

}  // namespace kfm::offline
