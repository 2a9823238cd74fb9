// Fitting SRF's positive-projected Gaussian-mixture surrogate with L-BFGS-B (LBFGSpp on Eigen). The
// objective 1/2 sum_z dz (K^(z) - K(z))^2 uses the precomputed matrix Omega[z][w] = 0F1(d/2; -(wz)^2/4)
// times trapezoid weights, so one evaluation is a matrix-vector product plus N*|w| exponentials.
#include "offline/methods/srf/srf_fit.hpp"

#include <Eigen/Dense>
#include <LBFGSB.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "kfm/format.hpp"
#include "offline/sampling/portable_math.hpp"
#include "offline/sampling/special_functions.hpp"

namespace kfm::offline {
namespace {

constexpr unsigned z_points = 201;
constexpr int restarts = 8;

struct fit_problem {
    unsigned d = 0, terms = 0;
    std::vector<double> z, target, w, tau;  // z grid, K(z), w grid, trapezoid weights in w
    std::vector<double> log_w;              // log w_j (w_j > 0), hoisted out of the mixture's loops
    Eigen::MatrixXd omega;                  // z_points x |w|: 0F1 times tau
    double dz = 0.0;
    double smooth_l1 = 0.0;                 // 0: least squares

    // log of the density of |v|, v ~ N(0, 2 sigma^2 I_d), at w_j > 0.
    double log_radial_gaussian(double log_normaliser, double s, std::size_t j) const {
        return (d - 1.0) * log_w[j] - w[j] * w[j] / (2.0 * s * s) - log_normaliser;
    }

    // g(w_j) = sum_i c_i f_i(w_j) and, optionally, f_i(w_j).
    void mixture(const Eigen::VectorXd& x, Eigen::VectorXd& g, Eigen::MatrixXd* f) const {
        g.setZero(w.size());
        if (f) f->resize(terms, w.size());
        for (unsigned i = 0; i < terms; ++i) {
            const double sigma = portable::exp(x[terms + i]);
            const double s = std::sqrt(2.0) * sigma;
            const double log_normaliser = d * portable::log(s) + (0.5 * d - 1.0) * portable::log(2.0) + log_gamma(0.5 * d);
            for (std::size_t j = 0; j < w.size(); ++j) {
                const double v = w[j] > 0.0 ? portable::exp(log_radial_gaussian(log_normaliser, s, j)) : (d == 1 ? 1.0 / (std::sqrt(M_PI) * sigma) : 0.0);
                g[j] += x[i] * v;
                if (f) (*f)(i, j) = v;
            }
        }
    }

    double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& grad) const {
        Eigen::VectorXd g;
        Eigen::MatrixXd f;
        mixture(x, g, &f);
        const Eigen::VectorXd m = g.cwiseMax(0.0);
        const Eigen::VectorXd model = omega * m;
        Eigen::VectorXd r(z.size());
        for (std::size_t k = 0; k < z.size(); ++k) r[k] = model[k] - target[k];
        // Least squares, or (second phase) a smoothed mean |r| = sum dz sqrt(r^2 + eps^2), the paper's
        // reported measure.
        double value = 0.0;
        Eigen::VectorXd dr(z.size());  // dF/dr_k
        for (std::size_t k = 0; k < z.size(); ++k) {
            if (smooth_l1 > 0.0) {
                const double h = std::sqrt(r[k] * r[k] + smooth_l1 * smooth_l1);
                value += dz * h;
                dr[k] = dz * r[k] / h;
            } else {
                value += 0.5 * dz * r[k] * r[k];
                dr[k] = dz * r[k];
            }
        }
        const Eigen::VectorXd dm = omega.transpose() * dr;  // dF/dm_j
        grad.setZero(x.size());
        for (unsigned i = 0; i < terms; ++i) {
            const double sigma = portable::exp(x[terms + i]);
            for (std::size_t j = 0; j < w.size(); ++j) {
                if (g[j] <= 0.0) continue;
                grad[i] += dm[j] * f(i, j);
                grad[terms + i] += dm[j] * x[i] * f(i, j) * (w[j] * w[j] / (2.0 * sigma * sigma) - double(d));
            }
        }
        return value;
    }
};

// The kernel falls like exp(-p z^2 / a^2): its own width sigma0 = sqrt(p)/a sets the range of the
// components' sigmas.
struct sigma_range {
    double sigma0 = 0.0, min = 0.0, max = 0.0;
};

sigma_range sigma_range_for(unsigned p, double a) {
    const double sigma0 = std::sqrt(double(p)) / a;
    return {sigma0, sigma0 / 16.0, 6.0 * sigma0};
}

// The grids: w must resolve the narrowest component (width ~ sigma_min) out to the widest; z covers [0, 2]
// with the target K(z) = (1 - z^2/a^2)^p.
fit_problem make_fit_problem(unsigned d, unsigned p, double a, unsigned terms, const sigma_range& sigma) {
    fit_problem prob;
    prob.d = d;
    prob.terms = terms;
    const double w_max = std::sqrt(2.0) * sigma.max * (std::sqrt(double(d)) + 7.0);
    const std::size_t w_points = std::min<std::size_t>(6000, std::max<std::size_t>(1000, std::size_t(3.0 * w_max / (std::sqrt(2.0) * sigma.min))));
    for (std::size_t j = 0; j < w_points; ++j) {
        prob.w.push_back(w_max * double(j) / double(w_points - 1));
        prob.log_w.push_back(j > 0 ? portable::log(prob.w.back()) : 0.0);
    }
    prob.tau.assign(w_points, w_max / double(w_points - 1));
    prob.tau.front() *= 0.5;
    prob.tau.back() *= 0.5;
    prob.dz = 2.0 / (z_points - 1);
    prob.omega.resize(z_points, w_points);
    for (unsigned k = 0; k < z_points; ++k) {
        const double z = prob.dz * k;
        prob.z.push_back(z);
        prob.target.push_back(portable::pow(1.0 - z * z / (a * a), p));
        for (std::size_t j = 0; j < w_points; ++j)
            prob.omega(k, j) = bessel_j_bounded(0.5 * d - 1.0, prob.w[j] * z) * prob.tau[j];
    }
    return prob;
}

// Bounds on x = (c, log sigma).
struct parameter_box {
    Eigen::VectorXd lower, upper;
};

parameter_box box_for(unsigned terms, const sigma_range& sigma) {
    parameter_box b{Eigen::VectorXd(2 * terms), Eigen::VectorXd(2 * terms)};
    for (unsigned i = 0; i < terms; ++i) {
        b.lower[i] = -1e3;
        b.upper[i] = 1e3;
        b.lower[terms + i] = portable::log(sigma.min);
        b.upper[terms + i] = portable::log(sigma.max);
    }
    return b;
}

using solver_t = LBFGSpp::LBFGSBSolver<double>;

LBFGSpp::LBFGSBParam<double> solver_param() {
    LBFGSpp::LBFGSBParam<double> param;
    param.epsilon = 1e-10;
    param.max_iterations = 1000;  // 300 stopped the d = 256, p = 20 fit early (mean error 0.00331, 0.00319 now)
    return param;
}

// L-BFGS-B from x, restarted from the point reached while the objective still falls (a restart clears
// the curvature memory, which the kinks of max() spoil). Returns the iterations; `value` is the last one.
unsigned minimise_with_restarts(solver_t& solver, const fit_problem& prob, Eigen::VectorXd& x,
                                const parameter_box& box, double& value) {
    value = std::numeric_limits<double>::infinity();
    unsigned iterations = 0;
    for (int restart = 0; restart < restarts; ++restart) {
        const double before = value;
        try {
            iterations += unsigned(solver.minimize(prob, x, value, box.lower, box.upper));
        } catch (const std::exception&) {
            // LBFGSpp throws when the line search cannot progress; keep the point reached.
            Eigen::VectorXd g;
            value = prob(x, g);
        }
        if (!(value < before * (1.0 - 1e-4))) break;
    }
    return iterations;
}

// A start: sigmas log-spaced over [sigma0 / spread, sigma0 * spread], weights by ridge least squares of
// the unprojected mixture sum c_i exp(-sigma_i^2 z^2).
Eigen::VectorXd least_squares_start(const fit_problem& prob, double sigma0, double spread, const parameter_box& box) {
    const unsigned terms = prob.terms;
    Eigen::VectorXd x(2 * terms);
    for (unsigned i = 0; i < terms; ++i) {
        const double t = terms == 1 ? 0.0 : 2.0 * i / (terms - 1) - 1.0;
        x[terms + i] = std::clamp(portable::log(sigma0) + t * portable::log(spread), box.lower[terms + i], box.upper[terms + i]);
    }
    Eigen::MatrixXd basis(z_points, terms);
    Eigen::VectorXd y(z_points);
    for (unsigned k = 0; k < z_points; ++k) {
        y[k] = prob.target[k];
        for (unsigned i = 0; i < terms; ++i) basis(k, i) = portable::exp(-portable::exp(2 * x[terms + i]) * prob.z[k] * prob.z[k]);
    }
    // lazyProduct: each entry one sum in a fixed order (the blocked product splits sums by the cache size).
    const Eigen::MatrixXd normal =
        basis.transpose().lazyProduct(basis) / double(z_points) + 1e-4 * Eigen::MatrixXd::Identity(terms, terms);
    x.head(terms) = normal.ldlt().solve(basis.transpose().lazyProduct(y) / double(z_points)).cwiseMax(-1e3).cwiseMin(1e3);
    return x;
}

struct fit_result {
    Eigen::VectorXd x;
    unsigned iterations = 0;
};

// Least squares from a few starting spreads; the best finite result.
fit_result fit_least_squares(solver_t& solver, const fit_problem& prob, const parameter_box& box, double sigma0) {
    fit_result best;
    double best_value = std::numeric_limits<double>::infinity();
    for (double spread : {1.5, 3.0}) {
        Eigen::VectorXd x = least_squares_start(prob, sigma0, spread, box);
        double value = 0.0;
        const unsigned iterations = minimise_with_restarts(solver, prob, x, box, value);
        if (x.allFinite() && value < best_value) {
            best_value = value;
            best = {x, iterations};
        }
    }
    if (best.x.size() == 0) throw std::runtime_error("srf: the surrogate fit failed");
    return best;
}

// Mean |K^ - K| over the z grid.
double mean_abs_error(const fit_problem& prob, const Eigen::VectorXd& x) {
    Eigen::VectorXd g;
    prob.mixture(x, g, nullptr);
    const Eigen::VectorXd model = prob.omega * g.cwiseMax(0.0);
    double sum = 0.0;
    for (std::size_t k = 0; k < prob.z.size(); ++k) sum += std::fabs(model[k] - prob.target[k]);
    return sum / double(prob.z.size());
}

// Polish for the mean absolute error (the paper's reported measure) with a smoothed |r|, narrowing the
// smoothing; each phase's result is kept only if its mean |K - K^| improved.
void polish_mean_abs(solver_t& solver, fit_problem& prob, const parameter_box& box, fit_result& best) {
    double best_mean_abs = mean_abs_error(prob, best.x);
    for (double eps : {1e-4, 3e-5}) {
        prob.smooth_l1 = eps;
        Eigen::VectorXd x = best.x;
        double value = 0.0;
        best.iterations += minimise_with_restarts(solver, prob, x, box, value);
        if (x.allFinite() && mean_abs_error(prob, x) < best_mean_abs) {
            best.x = x;
            best_mean_abs = mean_abs_error(prob, x);
        }
    }
}

// The surrogate of the fitted parameters: k^ on the w grid, its mass K^(0), and its errors against K.
srf_surrogate surrogate_of(const fit_problem& prob, unsigned p, double a, const fit_result& best) {
    const unsigned terms = prob.terms;
    srf_surrogate s;
    s.dim = prob.d;
    s.degree = p;
    s.scale = a;
    s.iterations = best.iterations;
    for (unsigned i = 0; i < terms; ++i) {
        s.weights.push_back(best.x[i]);
        s.sigmas.push_back(portable::exp(best.x[terms + i]));
    }
    Eigen::VectorXd g;
    prob.mixture(best.x, g, nullptr);
    s.w_grid = prob.w;
    s.radial.resize(prob.w.size());
    for (std::size_t j = 0; j < prob.w.size(); ++j) {
        s.radial[j] = std::max(g[j], 0.0);
        s.mass += s.radial[j] * prob.tau[j];
    }
    if (!(s.mass > 0.0)) throw std::runtime_error("srf: the fitted surrogate has no positive spectral mass");
    const Eigen::VectorXd model = prob.omega * Eigen::Map<Eigen::VectorXd>(s.radial.data(), Eigen::Index(prob.w.size()));
    for (unsigned k = 0; k < z_points; ++k) {
        const double e = std::fabs(model[k] - prob.target[k]);
        s.mean_abs_error += e / z_points;
        s.max_abs_error = std::max(s.max_abs_error, e);
    }
    return s;
}

}  // namespace

double srf_surrogate_kernel(const srf_surrogate& s, double z) {
    double sum = 0.0;
    for (std::size_t j = 0; j + 1 < s.w_grid.size(); ++j) {
        const double h = s.w_grid[j + 1] - s.w_grid[j];
        sum += 0.5 * h *
               (s.radial[j] * bessel_j_bounded(0.5 * s.dim - 1.0, s.w_grid[j] * z) +
                s.radial[j + 1] * bessel_j_bounded(0.5 * s.dim - 1.0, s.w_grid[j + 1] * z));
    }
    return sum;
}

srf_surrogate fit_srf_surrogate(unsigned d, unsigned p, double a, unsigned terms) {
    if (d < 2 || d > 100000) throw std::invalid_argument("srf: input dimension must be in 2..100000");
    if (p < 1 || p > format::max_polynomial_degree) throw std::invalid_argument("srf: polynomial degree must be in 1..100");
    if (!(a >= 2.0) || !std::isfinite(a)) throw std::invalid_argument("srf: scale a must be finite and at least 2");
    if (terms < 1 || terms > 32) throw std::invalid_argument("srf: 1..32 mixture terms");
    const sigma_range sigma = sigma_range_for(p, a);
    fit_problem prob = make_fit_problem(d, p, a, terms, sigma);
    const parameter_box box = box_for(terms, sigma);
    const LBFGSpp::LBFGSBParam<double> param = solver_param();
    solver_t solver(param);  // keeps a reference to param
    fit_result best = fit_least_squares(solver, prob, box, sigma.sigma0);
    polish_mean_abs(solver, prob, box, best);
    return surrogate_of(prob, p, a, best);
}

}  // namespace kfm::offline
