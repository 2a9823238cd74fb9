// Signed spectral models for GORF / GRFF: tabulated densities, the bessel-1d closed form and its sign
// split, and the signed Gaussian-mixture least-squares fit (L-BFGS from LBFGSpp).
#include "offline/sampling/spectral_signed.hpp"

#include <Eigen/Dense>
#include <LBFGS.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

#include "offline/sampling/random.hpp"
#include "offline/sampling/portable_math.hpp"
#include "offline/sampling/special_functions.hpp"

namespace kfm::offline {

tabulated_density::tabulated_density(std::vector<double> grid, const std::vector<double>& density)
    : grid_(std::move(grid)) {
    if (grid_.size() < 2 || density.size() != grid_.size())
        throw std::invalid_argument("tabulated_density: needs at least two grid points and one value per point");
    cdf_.assign(grid_.size(), 0.0);
    for (std::size_t i = 0; i < grid_.size(); ++i) {
        if (!std::isfinite(density[i]) || density[i] < 0.0 || !std::isfinite(grid_[i]))
            throw std::invalid_argument("tabulated_density: values must be finite and non-negative");
        if (i == 0) continue;
        if (!(grid_[i] > grid_[i - 1])) throw std::invalid_argument("tabulated_density: grid must increase");
        cdf_[i] = cdf_[i - 1] + 0.5 * (density[i] + density[i - 1]) * (grid_[i] - grid_[i - 1]);
    }
    mass_ = cdf_.back();
    if (!(mass_ > 0.0)) throw std::invalid_argument("tabulated_density: the density has zero mass");
    for (double& c : cdf_) c /= mass_;
    cdf_.back() = 1.0;
}

double tabulated_density::quantile(double u) const {
    u = std::clamp(u, 0.0, 1.0);
    // First cell whose upper CDF reaches u; cells of zero mass are skipped by upper_bound.
    auto it = std::lower_bound(cdf_.begin() + 1, cdf_.end(), u);
    if (it == cdf_.end()) return grid_.back();
    const std::size_t i = static_cast<std::size_t>(it - cdf_.begin());
    const double width = cdf_[i] - cdf_[i - 1];
    const double f = width > 0.0 ? (u - cdf_[i - 1]) / width : 0.0;
    return grid_[i - 1] + f * (grid_[i] - grid_[i - 1]);
}

double tabulated_density::sample(rng& r) const { return quantile(r.uniform()); }

double bessel_1d_density(unsigned d, unsigned p, double a, double w) {
    if (d == 0 || p == 0 || !(a >= 2.0) || !(w >= 0.0))
        throw std::invalid_argument("bessel_1d_density: needs d >= 1, p >= 1, a >= 2, w >= 0");
    // term j = C_j 2^nu / Gamma(nu+1) * 0F1(; nu+1; -w^2), nu = d/2 + j, with
    // C_j = p!/(p-j)! (1-4/a^2)^(p-j) (2/a^2)^j; the prefactors are combined in logs (they under- or
    // overflow for large d) and normalised so the density is 1 at w = 0.
    const double b = 1.0 - 4.0 / (a * a);
    std::vector<double> log_prefactor(p + 1, -std::numeric_limits<double>::infinity());
    double top = -std::numeric_limits<double>::infinity();
    for (unsigned j = 0; j <= p; ++j) {
        if (b == 0.0 && j < p) continue;  // a = 2: only the j = p term survives
        const double nu = 0.5 * d + j;
        const double log_c = log_gamma(p + 1.0) - log_gamma(p - j + 1.0) +
                             (p - j) * (b > 0.0 ? portable::log(b) : 0.0) + j * portable::log(2.0 / (a * a));
        log_prefactor[j] = log_c + nu * portable::log(2.0) - log_gamma(nu + 1.0);
        top = std::max(top, log_prefactor[j]);
    }
    double value = 0.0, at_zero = 0.0;
    for (unsigned j = 0; j <= p; ++j) {
        if (!std::isfinite(log_prefactor[j])) continue;
        const double c = portable::exp(log_prefactor[j] - top);
        at_zero += c;
        value += c * bessel_j_bounded(0.5 * d + j, 2.0 * w);
    }
    return value / at_zero;
}

signed_radial_model bessel_1d_model(unsigned d, unsigned p, double a) {
    constexpr unsigned points = 20000;
    constexpr double w_max = 100.0;
    std::vector<double> grid(points), positive(points), negative(points);
    for (unsigned i = 0; i < points; ++i) {
        grid[i] = w_max * i / (points - 1);
        const double f = bessel_1d_density(d, p, a, grid[i]);
        positive[i] = std::max(f, 0.0);
        negative[i] = std::max(-f, 0.0);
    }
    // A density with no negative part (it happens for some (d, p, a)) still gets a valid, massless
    // negative law so the map keeps its shape; its block then has weight 0.
    bool has_negative = false;
    for (double v : negative) has_negative = has_negative || v > 0.0;
    if (!has_negative) negative.assign(points, 1.0);
    tabulated_density pos(grid, positive);
    tabulated_density neg(grid, negative);
    const double neg_mass = has_negative ? neg.mass() : 0.0;
    const double total = pos.mass() + neg_mass;
    return signed_radial_model{pos, neg, pos.mass() / total, neg_mass / total};
}

namespace {

constexpr unsigned fit_points = 501;  // z grid on [0, 2]
constexpr double ridge = 1e-4;  // on the weights: trades fit error for total mass (variance), see docs/results-poly.md

struct mixture_objective {
    std::vector<double> z, target;
    unsigned terms;

    // f = 0.5 mean_z r(z)^2 + 0.5 ridge sum c^2, x = [c_1..c_n, log sigma_1..log sigma_n].
    double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& grad) const {
        grad.setZero();
        double f = 0.0;
        const double inv_n = 1.0 / double(z.size());
        std::vector<double> inv_sigma2(terms), e(terms), q(terms);
        for (unsigned i = 0; i < terms; ++i) inv_sigma2[i] = portable::exp(-2.0 * x[terms + i]);
        for (std::size_t k = 0; k < z.size(); ++k) {
            double model = 0.0;
            for (unsigned i = 0; i < terms; ++i) {
                q[i] = z[k] * z[k] * inv_sigma2[i];  // z^2 / sigma^2
                e[i] = portable::exp(-q[i] / 2);
                model += x[i] * e[i];
            }
            const double r = model - target[k];
            f += 0.5 * r * r * inv_n;
            for (unsigned i = 0; i < terms; ++i) {
                grad[i] += r * e[i] * inv_n;
                grad[terms + i] += r * x[i] * e[i] * q[i] * inv_n;  // d/d(log sigma) of c e^{-q/2} = c e q
            }
        }
        for (unsigned i = 0; i < terms; ++i) {
            f += 0.5 * ridge * x[i] * x[i];
            grad[i] += ridge * x[i];
        }
        return f;
    }
};

// The objective on the z grid of [0, 2] with the target K(z) = (1 - z^2/a^2)^p.
mixture_objective make_objective(unsigned p, double a, unsigned terms) {
    mixture_objective obj;
    obj.terms = terms;
    for (unsigned k = 0; k < fit_points; ++k) {
        const double z = 2.0 * k / (fit_points - 1);
        obj.z.push_back(z);
        obj.target.push_back(portable::pow(1.0 - z * z / (a * a), p));
    }
    return obj;
}

// Start: widths doubling around the kernel's own width a / sqrt(2p), weights by ridge least squares.
Eigen::VectorXd least_squares_start(const mixture_objective& obj, unsigned p, double a) {
    const unsigned terms = obj.terms;
    Eigen::VectorXd x(2 * terms);
    const double width = a / std::sqrt(2.0 * p);
    for (unsigned i = 0; i < terms; ++i) x[terms + i] = portable::log(width) + (double(i) - 0.5 * (terms - 1)) * std::numbers::ln2;
    Eigen::MatrixXd basis(fit_points, terms);
    Eigen::VectorXd y(fit_points);
    for (unsigned k = 0; k < fit_points; ++k) {
        y[k] = obj.target[k];
        for (unsigned i = 0; i < terms; ++i)
            basis(k, i) = portable::exp(-obj.z[k] * obj.z[k] * portable::exp(-2.0 * x[terms + i]) / 2);
    }
    // lazyProduct: each entry one sum in a fixed order (the blocked product splits sums by the cache size).
    const Eigen::MatrixXd normal = basis.transpose().lazyProduct(basis) / double(fit_points) +
                                   ridge * Eigen::MatrixXd::Identity(terms, terms);
    x.head(terms) = normal.ldlt().solve(basis.transpose().lazyProduct(y) / double(fit_points));
    return x;
}

// L-BFGS from x; the last accepted point when a line search stalls (LBFGSpp throws at a near-optimum).
Eigen::VectorXd minimise(const mixture_objective& obj, Eigen::VectorXd x) {
    LBFGSpp::LBFGSParam<double> param;
    param.epsilon = 1e-12;
    param.max_iterations = 2000;
    LBFGSpp::LBFGSSolver<double> solver(param);
    double fx = 0.0;
    Eigen::VectorXd best = x;
    try {
        solver.minimize(obj, x, fx);
        best = x;
    } catch (const std::exception&) {
        if (x.allFinite()) best = x;
    }
    return best;
}

// The fit of parameters x with its errors against the target; throws if it diverged.
signed_mixture_fit fit_of(const mixture_objective& obj, const Eigen::VectorXd& x) {
    const unsigned terms = obj.terms;
    signed_mixture_fit fit;
    for (unsigned i = 0; i < terms; ++i) {
        fit.weights.push_back(x[i]);
        fit.sigmas.push_back(portable::exp(x[terms + i]));
    }
    for (unsigned k = 0; k < fit_points; ++k) {
        double model = 0.0;
        for (unsigned i = 0; i < terms; ++i)
            model += fit.weights[i] * portable::exp(-obj.z[k] * obj.z[k] / (2 * fit.sigmas[i] * fit.sigmas[i]));
        const double e = std::fabs(model - obj.target[k]);
        fit.mean_abs_error += e / fit_points;
        fit.max_abs_error = std::max(fit.max_abs_error, e);
    }
    for (std::size_t i = 0; i < fit.weights.size(); ++i)
        if (!std::isfinite(fit.weights[i]) || !std::isfinite(fit.sigmas[i]) || !(fit.sigmas[i] > 0))
            throw std::runtime_error("fit_signed_mixture: the fit diverged");
    return fit;
}

}  // namespace

signed_mixture_fit fit_signed_mixture(unsigned p, double a, unsigned terms) {
    if (p == 0 || !(a >= 2.0) || !std::isfinite(a) || terms == 0 || terms > 32)
        throw std::invalid_argument("fit_signed_mixture: needs p >= 1, finite a >= 2 and 1..32 terms");
    const mixture_objective obj = make_objective(p, a, terms);
    return fit_of(obj, minimise(obj, least_squares_start(obj, p, a)));
}

}  // namespace kfm::offline
