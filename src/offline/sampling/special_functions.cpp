// Bessel functions of large order in log or bounded form, and gamma/chi quantiles, on Boost.Math.
// log |J|: three regimes, the 0F1 power series where it has little cancellation, Boost's J_nu where the
// value is representable, and the Debye expansion where J_nu underflows (x well below nu). The bounded
// form, which the fits use: the series, else Miller's recurrence (bessel_recurrence.hpp).
#include "offline/sampling/special_functions.hpp"

#include "offline/sampling/bessel_recurrence.hpp"
#include "offline/sampling/portable_math.hpp"

#include <boost/math/special_functions/bessel.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace kfm::offline {
namespace {

// promote_double<false>: Boost evaluates in double rather than long double, whose width differs per
// architecture (80-bit x86, 128-bit AArch64, 64-bit ARMv7) and would change the results' last bits.
using quiet_policy = boost::math::policies::policy<
    boost::math::policies::promote_double<false>,
    boost::math::policies::domain_error<boost::math::policies::errno_on_error>,
    boost::math::policies::overflow_error<boost::math::policies::errno_on_error>,
    boost::math::policies::evaluation_error<boost::math::policies::errno_on_error>,
    boost::math::policies::underflow_error<boost::math::policies::ignore_error>>;

// The series terms grow to about exp(x^2 / (4 (nu+1))) before cancelling; below e^8 at most ~4 of the
// 16 digits are lost, so the series is used there.
constexpr double series_growth_limit = 8.0;

bool series_is_accurate(double nu, double x) { return x * x / (4.0 * (nu + 1.0)) <= series_growth_limit; }

// 0F1(; nu+1; -x^2/4) by its power series.
double bounded_series(double nu, double x) {
    const double q = -0.25 * x * x;
    double term = 1.0, sum = 1.0;
    for (int k = 1; k < 100000; ++k) {
        term *= q / (double(k) * (nu + double(k)));
        sum += term;
        if (std::fabs(term) <= 1e-17 * std::fabs(sum) && double(k) * (nu + double(k)) > -q) break;
    }
    return sum;
}

// Debye's expansion of log J_nu(nu sech a) for x < nu (J positive, exponentially small).
double debye_log_j(double nu, double x) {
    const double ratio = x / nu;
    const double th = std::sqrt((1.0 - ratio) * (1.0 + ratio));  // tanh a
    const double a = std::log1p(th) - std::log(ratio);  // acosh(1 / ratio), without std::acosh (see log_gamma)
    const double t = 1.0 / th;
    const double t2 = t * t;
    const double u1 = t * (3.0 - 5.0 * t2) / 24.0;
    const double u2 = t2 * (81.0 - 462.0 * t2 + 385.0 * t2 * t2) / 1152.0;
    return nu * (th - a) - 0.5 * std::log(2.0 * M_PI * nu * th) + std::log1p(u1 / nu + u2 / (nu * nu));
}

}  // namespace

double log_abs_bessel_j(double nu, double x, int* sign) {
    if (!(nu >= 0.0) || !(x >= 0.0) || !std::isfinite(nu) || !std::isfinite(x))
        throw std::invalid_argument("log_abs_bessel_j: needs finite nu >= 0 and x >= 0");
    if (x == 0.0) {
        *sign = nu == 0.0 ? 1 : 0;
        return nu == 0.0 ? 0.0 : -std::numeric_limits<double>::infinity();
    }
    const double log_scale = nu * std::log(0.5 * x) - log_gamma(nu + 1.0);  // log of (x/2)^nu / Gamma(nu+1)
    if (series_is_accurate(nu, x)) {
        const double s = bounded_series(nu, x);
        *sign = s > 0 ? 1 : (s < 0 ? -1 : 0);
        return std::log(std::fabs(s)) + log_scale;
    }
    const double j = boost::math::cyl_bessel_j(nu, x, quiet_policy());
    if (std::isfinite(j) && std::fabs(j) > 1e-280) {
        *sign = j > 0 ? 1 : -1;
        return std::log(std::fabs(j));
    }
    if (x < nu) {  // underflowed in double: J is positive and tiny here
        *sign = 1;
        return debye_log_j(nu, x);
    }
    *sign = 0;  // an exact zero of J in the oscillating region
    return -std::numeric_limits<double>::infinity();
}

double bessel_j_bounded(double nu, double x) {
    if (!(nu >= 0.0) || !(x >= 0.0) || !std::isfinite(nu) || !std::isfinite(x))
        throw std::invalid_argument("bessel_j_bounded: needs finite nu >= 0 and x >= 0");
    if (series_is_accurate(nu, x)) return bounded_series(nu, x);
    // Not Boost's J_nu: its elementary functions round differently per architecture (see log_gamma).
    return bessel_j_bounded_by_recurrence(nu, x);
}

double log_gamma(double x) {
    if (!(x > 0.0) || !std::isfinite(x)) throw std::invalid_argument("log_gamma: needs finite x > 0");
    // log Gamma(x) = log Gamma(x + n) - log(x (x+1) ... (x+n-1)); the product stays far from overflow.
    double shift = 1.0;
    while (x < 15.0) {
        shift *= x;
        x += 1.0;
    }
    // Stirling's series to the x^-9 term: the next term is below 2e-16 relative for x >= 15.
    const double r = 1.0 / x, r2 = r * r;
    const double series =
        r * (1.0 / 12.0 - r2 * (1.0 / 360.0 - r2 * (1.0 / 1260.0 - r2 * (1.0 / 1680.0 - r2 * (1.0 / 1188.0)))));
    return (x - 0.5) * portable::log(x) - x + 0.5 * portable::log(2.0 * M_PI) + series - portable::log(shift);
}

double gamma_quantile(double shape, double u) {
    if (!(shape > 0.0) || !(u > 0.0 && u < 1.0))
        throw std::invalid_argument("gamma_quantile: needs shape > 0 and u in (0, 1)");
    return boost::math::gamma_p_inv(shape, u, quiet_policy());
}

double chi_quantile(double k, double u) { return std::sqrt(2.0 * gamma_quantile(0.5 * k, u)); }

}  // namespace kfm::offline
