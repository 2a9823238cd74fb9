// Fitting SRF's positive-projected Gaussian-mixture surrogate with L-BFGS-B (LBFGSpp on Eigen). The
// objective 1/2 sum_z dz (K^(z) - K(z))^2 uses the precomputed matrix Omega[z][w] = 0F1(d/2; -(wz)^2/4)
// times trapezoid weights, so one evaluation is a matrix-vector product plus N*|w| exponentials.
#include "offline/srf_fit.hpp"

#include <Eigen/Dense>
#include <LBFGSB.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "offline/special_functions.hpp"

namespace kfm::offline {
namespace {

constexpr unsigned z_points = 201;
constexpr int restarts = 8;

// log of the density of |v|, v ~ N(0, 2 sigma^2 I_d), at w > 0.
double log_radial_gaussian(unsigned d, double sigma, double w) {
    const double s = std::sqrt(2.0) * sigma;
    return (d - 1.0) * std::log(w) - w * w / (2.0 * s * s) - d * std::log(s) - (0.5 * d - 1.0) * std::log(2.0) -
           std::lgamma(0.5 * d);
}

struct fit_problem {
    unsigned d = 0, terms = 0;
    std::vector<double> z, target, w, tau;  // z grid, K(z), w grid, trapezoid weights in w
    Eigen::MatrixXd omega;                  // z_points x |w|: 0F1 times tau
    double dz = 0.0;
    double smooth_l1 = 0.0;                 // 0: least squares

    // g(w_j) = sum_i c_i f_i(w_j) and, optionally, f_i(w_j).
    void mixture(const Eigen::VectorXd& x, Eigen::VectorXd& g, Eigen::MatrixXd* f) const {
        g.setZero(w.size());
        if (f) f->resize(terms, w.size());
        for (unsigned i = 0; i < terms; ++i) {
            const double sigma = std::exp(x[terms + i]);
            for (std::size_t j = 0; j < w.size(); ++j) {
                const double v = w[j] > 0.0 ? std::exp(log_radial_gaussian(d, sigma, w[j])) : (d == 1 ? 1.0 / (std::sqrt(M_PI) * sigma) : 0.0);
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
            const double sigma = std::exp(x[terms + i]);
            for (std::size_t j = 0; j < w.size(); ++j) {
                if (g[j] <= 0.0) continue;
                grad[i] += dm[j] * f(i, j);
                grad[terms + i] += dm[j] * x[i] * f(i, j) * (w[j] * w[j] / (2.0 * sigma * sigma) - double(d));
            }
        }
        return value;
    }
};

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
    if (p < 1 || p > 100) throw std::invalid_argument("srf: polynomial degree must be in 1..100");
    if (!(a >= 2.0) || !std::isfinite(a)) throw std::invalid_argument("srf: scale a must be finite and at least 2");
    if (terms < 1 || terms > 32) throw std::invalid_argument("srf: 1..32 mixture terms");

    // The kernel falls like exp(-p z^2 / a^2): its own width sigma0 = sqrt(p)/a sets the sigma range,
    // and the w grid must resolve the narrowest component (width ~ sigma_min) out to the widest.
    const double sigma0 = std::sqrt(double(p)) / a;
    const double sigma_min = sigma0 / 16.0, sigma_max = 6.0 * sigma0;
    fit_problem prob;
    prob.d = d;
    prob.terms = terms;
    const double w_max = std::sqrt(2.0) * sigma_max * (std::sqrt(double(d)) + 7.0);
    const std::size_t w_points = std::min<std::size_t>(6000, std::max<std::size_t>(1000, std::size_t(3.0 * w_max / (std::sqrt(2.0) * sigma_min))));
    for (std::size_t j = 0; j < w_points; ++j) prob.w.push_back(w_max * double(j) / double(w_points - 1));
    prob.tau.assign(w_points, w_max / double(w_points - 1));
    prob.tau.front() *= 0.5;
    prob.tau.back() *= 0.5;
    prob.dz = 2.0 / (z_points - 1);
    prob.omega.resize(z_points, w_points);
    for (unsigned k = 0; k < z_points; ++k) {
        const double z = prob.dz * k;
        prob.z.push_back(z);
        prob.target.push_back(std::pow(1.0 - z * z / (a * a), double(p)));
        for (std::size_t j = 0; j < w_points; ++j)
            prob.omega(k, j) = bessel_j_bounded(0.5 * d - 1.0, prob.w[j] * z) * prob.tau[j];
    }

    Eigen::VectorXd lower(2 * terms), upper(2 * terms);
    for (unsigned i = 0; i < terms; ++i) {
        lower[i] = -1e3;
        upper[i] = 1e3;
        lower[terms + i] = std::log(sigma_min);
        upper[terms + i] = std::log(sigma_max);
    }
    LBFGSpp::LBFGSBParam<double> param;
    param.epsilon = 1e-10;
    param.max_iterations = 300;
    LBFGSpp::LBFGSBSolver<double> solver(param);

    Eigen::VectorXd best;
    double best_value = std::numeric_limits<double>::infinity();
    unsigned best_iterations = 0;
    // Starts: sigmas log-spaced over [sigma0 / s, sigma0 * s] for a few spreads s; weights by ridge least
    // squares of the unprojected mixture sum c_i exp(-sigma_i^2 z^2).
    for (double spread : {1.5, 3.0}) {
        Eigen::VectorXd x(2 * terms);
        for (unsigned i = 0; i < terms; ++i) {
            const double t = terms == 1 ? 0.0 : 2.0 * i / (terms - 1) - 1.0;
            x[terms + i] = std::clamp(std::log(sigma0) + t * std::log(spread), lower[terms + i], upper[terms + i]);
        }
        Eigen::MatrixXd basis(z_points, terms);
        Eigen::VectorXd y(z_points);
        for (unsigned k = 0; k < z_points; ++k) {
            y[k] = prob.target[k];
            for (unsigned i = 0; i < terms; ++i) basis(k, i) = std::exp(-std::exp(2 * x[terms + i]) * prob.z[k] * prob.z[k]);
        }
        const Eigen::MatrixXd normal =
            basis.transpose() * basis / double(z_points) + 1e-4 * Eigen::MatrixXd::Identity(terms, terms);
        x.head(terms) = normal.ldlt().solve(basis.transpose() * y / double(z_points)).cwiseMax(-1e3).cwiseMin(1e3);
        double value = std::numeric_limits<double>::infinity();
        int iterations = 0;
        // Restarting from the point reached clears the curvature memory, which the kinks of max() spoil.
        for (int restart = 0; restart < restarts; ++restart) {
            const double before = value;
            try {
                iterations += solver.minimize(prob, x, value, lower, upper);
            } catch (const std::exception&) {
                // LBFGSpp throws when the line search cannot progress; keep the point reached.
                Eigen::VectorXd g;
                value = prob(x, g);
            }
            if (!(value < before * (1.0 - 1e-4))) break;
        }
        if (x.allFinite() && value < best_value) {
            best_value = value;
            best = x;
            best_iterations = unsigned(iterations);
        }
    }
    if (best.size() == 0) throw std::runtime_error("srf: the surrogate fit failed");
    // Polish for the mean absolute error (the paper's reported measure) with a smoothed |r|, narrowing
    // the smoothing; each phase's result is kept only if its mean |K - K^| improved.
    auto mean_abs = [&prob](const Eigen::VectorXd& x) {
        Eigen::VectorXd g;
        prob.mixture(x, g, nullptr);
        const Eigen::VectorXd model = prob.omega * g.cwiseMax(0.0);
        double sum = 0.0;
        for (std::size_t k = 0; k < prob.z.size(); ++k) sum += std::fabs(model[k] - prob.target[k]);
        return sum / double(prob.z.size());
    };
    double best_mean_abs = mean_abs(best);
    for (double eps : {1e-4, 3e-5}) {
        prob.smooth_l1 = eps;
        Eigen::VectorXd x = best;
        double value = std::numeric_limits<double>::infinity();
        for (int restart = 0; restart < restarts; ++restart) {
            const double before = value;
            try {
                best_iterations += unsigned(solver.minimize(prob, x, value, lower, upper));
            } catch (const std::exception&) {
                Eigen::VectorXd g;
                value = prob(x, g);
            }
            if (!(value < before * (1.0 - 1e-4))) break;
        }
        if (x.allFinite() && mean_abs(x) < best_mean_abs) {
            best = x;
            best_mean_abs = mean_abs(x);
        }
    }

    srf_surrogate s;
    s.dim = d;
    s.degree = p;
    s.scale = a;
    s.iterations = best_iterations;
    for (unsigned i = 0; i < terms; ++i) {
        s.weights.push_back(best[i]);
        s.sigmas.push_back(std::exp(best[terms + i]));
    }
    Eigen::VectorXd g;
    prob.mixture(best, g, nullptr);
    s.w_grid = prob.w;
    s.radial.resize(w_points);
    for (std::size_t j = 0; j < w_points; ++j) {
        s.radial[j] = std::max(g[j], 0.0);
        s.mass += s.radial[j] * prob.tau[j];
    }
    if (!(s.mass > 0.0)) throw std::runtime_error("srf: the fitted surrogate has no positive spectral mass");
    const Eigen::VectorXd model = prob.omega * Eigen::Map<Eigen::VectorXd>(s.radial.data(), Eigen::Index(w_points));
    for (unsigned k = 0; k < z_points; ++k) {
        const double e = std::fabs(model[k] - prob.target[k]);
        s.mean_abs_error += e / z_points;
        s.max_abs_error = std::max(s.max_abs_error, e);
    }
    return s;
}

}  // namespace kfm::offline
