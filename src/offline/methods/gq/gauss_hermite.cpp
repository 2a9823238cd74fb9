// The nodes are the roots of the orthonormal Hermite polynomial psi_n of the N(0, 1) weight, found by
// bisection between the sign changes of psi_n on a fine grid (its roots lie in |x| < sqrt(4n + 2) and are
// more than 0.3 apart for n <= 64, far above the grid step), and the weights are the Christoffel numbers
// 1 / sum_{k<n} psi_k(x)^2. Bisection to adjacent doubles needs no derivative and no libm.
#include "offline/methods/gq/gauss_hermite.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace kfm::offline {
namespace {

constexpr double grid_step = 1.0 / 1024;

// psi_n(x) by psi_0 = 1, psi_1 = x, psi_{k+1} = (x psi_k - sqrt(k) psi_{k-1}) / sqrt(k + 1); with
// `christoffel`, also 1 / sum_{k<n} psi_k(x)^2.
double orthonormal_hermite(unsigned n, double x, double* christoffel = nullptr) {
    double previous = 0.0, current = 1.0, squares = 0.0;
    for (unsigned k = 0; k < n; ++k) {
        squares += current * current;
        const double next = (x * current - std::sqrt(double(k)) * previous) / std::sqrt(double(k + 1));
        previous = current;
        current = next;
    }
    if (christoffel) *christoffel = 1.0 / squares;
    return current;
}

// The root of psi_n in [lo, hi], where psi_n changes sign.
double bisect(unsigned n, double lo, double hi) {
    const bool rising = orthonormal_hermite(n, lo) < 0.0;
    for (;;) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) return mid;
        const double value = orthonormal_hermite(n, mid);
        if (value == 0.0) return mid;
        if ((value < 0.0) == rising) lo = mid;
        else hi = mid;
    }
}

}  // namespace

gauss_hermite_rule gauss_hermite_normal(unsigned n) {
    if (n < 1 || n > gauss_hermite_max_nodes)
        throw std::invalid_argument("gauss_hermite_normal: " + std::to_string(n) + " nodes is outside 1.." +
                                    std::to_string(gauss_hermite_max_nodes));
    // The positive roots (psi_n is even or odd, so the rule is symmetric), plus 0 when n is odd. The grid
    // starts half a step from 0 so it never lands on the root at 0.
    std::vector<double> positive;
    const double end = std::sqrt(4.0 * n + 2.0);
    double x = 0.5 * grid_step, value = orthonormal_hermite(n, x);
    while (x < end && positive.size() < n / 2) {
        const double next_x = x + grid_step, next_value = orthonormal_hermite(n, next_x);
        if ((value < 0.0) != (next_value < 0.0)) positive.push_back(bisect(n, x, next_x));
        x = next_x;
        value = next_value;
    }
    if (positive.size() != n / 2) throw std::logic_error("gauss_hermite_normal: missed a root");

    gauss_hermite_rule rule;
    for (auto it = positive.rbegin(); it != positive.rend(); ++it) rule.nodes.push_back(-*it);
    if (n % 2 == 1) rule.nodes.push_back(0.0);
    rule.nodes.insert(rule.nodes.end(), positive.begin(), positive.end());
    for (double node : rule.nodes) {
        double weight = 0.0;
        orthonormal_hermite(n, node, &weight);
        rule.weights.push_back(weight);
    }
    return rule;
}

}  // namespace kfm::offline
