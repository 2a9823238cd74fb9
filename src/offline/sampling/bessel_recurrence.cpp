// Miller's algorithm: y_mu obeys J's three-term recurrence y_(mu-1) = (2 mu / x) y_mu - y_(mu+1) downward
// from y_(N+1) = 0, y_N = 1 at an order N far above where J_mu(x) matters; J is the minimal solution, so
// y_mu becomes proportional to J_mu(x) for mu well below N. The proportionality factor comes from the
// Neumann series (DLMF 10.23.15)
//     (x/2)^nu = sum_k (nu + 2k) Gamma(nu + k) / k!  J_(nu+2k)(x),
// which, divided by Gamma(nu + 1), gives the bounded form directly:
//     Gamma(nu+1) (2/x)^nu J_nu(x) = y_nu / sum_k c_k y_(nu+2k),  c_k = (nu + 2k) Gamma(nu + k) / (Gamma(nu + 1) k!),
// with c_0 = 1, c_1 = nu + 2 and c_(k-1) / c_k = k (nu + 2k - 2) / ((nu + k - 1)(nu + 2k)).
// Both y and c are carried with a scale factor each (rescaled by powers of ten) so that nothing over- or
// underflows; the ratio y_nu c_0 / sum is invariant under either rescaling.
#include "offline/sampling/bessel_recurrence.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace kfm::offline {
namespace {

// The starting order nu + 2K. Two conditions: the recurrence must start where J_mu(x) is negligible, and
// the Neumann sum must reach past its largest terms, which sit near k* = (sqrt(nu^2 + 2 x^2) - nu) / 4 and
// fall off over a few sqrt(k*). For x > nu the sum's coefficients grow with k, so the terms past the
// turning point mu = x decay more slowly than J_mu(x) alone: 5 sqrt(x) orders past it (2 sqrt(x) left
// errors of 1e-9 at nu = 127, x = 1300; 4 sqrt(x) was the least that reached 2e-13 up to x = 2000).
unsigned half_span(double nu, double x) {
    const double past_turning_point = std::max(x - nu, 0.0) + 5.0 * std::sqrt(x) + 30.0;
    const double k_peak = (std::sqrt(nu * nu + 2.0 * x * x) - nu) / 4.0;
    const double past_peak = k_peak + 9.0 * std::sqrt(k_peak) + 20.0;
    return static_cast<unsigned>(std::ceil(std::max(0.5 * past_turning_point, past_peak)));
}

}  // namespace

double bessel_j_bounded_by_recurrence(double nu, double x) {
    if (!(nu >= 0.0) || !(x > 0.0) || !std::isfinite(nu) || !std::isfinite(x))
        throw std::invalid_argument("bessel_j_bounded_by_recurrence: needs finite nu >= 0 and x > 0");
    constexpr double big = 1e100, small = 1e-100;
    const unsigned K = half_span(nu, x);
    const double two_over_x = 2.0 / x;
    double y_above = 0.0, y = 1.0;  // y_(mu+1), y_mu
    double c = 1.0;                 // c_k (scaled), at mu = nu + 2k
    double sum = y;                 // sum over k of c_k y_(nu+2k) (scaled like both)
    for (unsigned k = K; k > 0; --k) {
        // Two steps down: nu + 2k -> nu + 2k - 1 -> nu + 2k - 2.
        for (unsigned step = 0; step < 2; ++step) {
            const double mu = nu + double(2 * k - step);
            const double y_below = mu * two_over_x * y - y_above;
            y_above = y;
            y = y_below;
        }
        c *= k == 1 ? 1.0 / (nu + 2.0) : double(k) * (nu + double(2 * k) - 2.0) / ((nu + double(k) - 1.0) * (nu + double(2 * k)));
        sum += c * y;
        if (std::fabs(y) > big) {
            y *= small;
            y_above *= small;
            sum *= small;
        }
        if (c < small) {
            c *= big;
            sum *= big;
        }
    }
    return y / sum * c;  // c is now c_0 in the same scale as sum
}

}  // namespace kfm::offline
