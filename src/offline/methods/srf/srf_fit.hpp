// SRF's surrogate for the polynomial kernel on the sphere (Pennington et al. 2015): the radial spectral
// density is the positive part of a signed Gaussian mixture,
//   k^(w) = max(0, sum_i c_i f_i(w)),  f_i the law of |v| for v ~ N(0, 2 sigma_i^2 I_d)
// (so without the max, K^(z) = sum_i c_i exp(-sigma_i^2 z^2)), and
//   K^(z) = integral k^(w) Gamma(d/2) (2/(wz))^(d/2-1) J_(d/2-1)(wz) dw,
// fitted to K(z) = (1 - z^2/a^2)^p on z in [0, 2] by L-BFGS-B (LBFGSpp) over (c, log sigma) on fixed
// w and z grids. Radii are then sampled from k^ by inverse CDF on the w grid.
#pragma once
#include <vector>

#include "offline/sampling/spectral_signed.hpp"

namespace kfm::offline {

struct srf_surrogate {
    unsigned dim = 0, degree = 0;
    double scale = 0.0;
    std::vector<double> weights, sigmas;  // c_i, sigma_i
    std::vector<double> w_grid;           // radial grid
    std::vector<double> radial;           // k^(w) on the grid (a density of |w| with mass K^(0))
    double mass = 0.0;                    // K^(0)
    double mean_abs_error = 0.0;          // mean |K - K^| over a uniform z grid on [0, 2]
    double max_abs_error = 0.0;
    unsigned iterations = 0;              // L-BFGS iterations of the best start

    tabulated_density radius_law() const { return tabulated_density(w_grid, radial); }
};

// K^(z) of a surrogate at any z >= 0 (trapezoid rule on its grid).
double srf_surrogate_kernel(const srf_surrogate& s, double z);

// Fits the N-term surrogate for dimension d, degree p, scale a (>= 2). Deterministic (no randomness:
// a few fixed starting spreads, the best kept). Throws std::invalid_argument for impossible parameters.
srf_surrogate fit_srf_surrogate(unsigned d, unsigned p, double a, unsigned terms = 10);

}  // namespace kfm::offline
