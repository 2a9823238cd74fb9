// Signed spectral models for indefinite stationary kernels (GORF / GRFF): tabulated radial densities
// with inverse-CDF sampling, the paper's closed-form "bessel-1d" density of the polynomial kernel on the
// sphere, and our "signed-mixture" model (a least-squares signed Gaussian mixture fitted to K(z)).
#pragma once
#include <vector>

namespace kfm::offline {

class rng;

// A non-negative density tabulated on an increasing grid, sampled by inverse CDF: the CDF is the
// trapezoid integral, inverted by linear interpolation inside a grid cell.
class tabulated_density {
public:
    // Throws std::invalid_argument for mismatched sizes, a non-increasing grid, negative or non-finite
    // values, or zero total mass.
    tabulated_density(std::vector<double> grid, const std::vector<double>& density);
    double mass() const { return mass_; }  // trapezoid integral of the density before normalisation
    double quantile(double u) const;       // inverse CDF at u in [0, 1]
    double sample(rng& r) const;

private:
    std::vector<double> grid_;
    std::vector<double> cdf_;  // normalised, cdf_.front() = 0, cdf_.back() = 1
    double mass_ = 0.0;
};

// The paper's density of ||w|| for (1 - z^2/a^2)^p on S^{d-1} (eq. 18):
// sum_j p!/(p-j)! (1-4/a^2)^(p-j) (2/a^2)^j (2/w)^(d/2+j) J_(d/2+j)(2w), in units where its value at
// w = 0 is 1 (the overall scale cancels when the masses are normalised).
double bessel_1d_density(unsigned d, unsigned p, double a, double w);

// A Jordan split into two radial distributions with their masses (the kernel is
// positive_mass k_+ - negative_mass k_-, each k_ a characteristic function of its radius law times a
// uniform direction).
struct signed_radial_model {
    tabulated_density positive;
    tabulated_density negative;
    double positive_mass = 0.0;
    double negative_mass = 0.0;
};

// bessel-1d as the paper's reference code does it: the density on 20000 points of [0, 100], split by
// sign, each part a 1-D density of ||w|| (no w^(d-1) factor), masses scaled so that
// positive_mass + negative_mass = 1. Biased; kept because the paper's numbers come from it.
signed_radial_model bessel_1d_model(unsigned d, unsigned p, double a);

// K(z) ~ sum_i weights[i] exp(-z^2 / (2 sigmas[i]^2)) with signed weights.
struct signed_mixture_fit {
    std::vector<double> weights;
    std::vector<double> sigmas;
    double mean_abs_error = 0.0;  // over a uniform grid of z in [0, 2]
    double max_abs_error = 0.0;
};

// Least squares over (weights, log sigmas) of (1 - z^2/a^2)^p on z in [0, 2] with `terms` Gaussians,
// by L-BFGS (LBFGSpp) from a linear least-squares start, with a ridge on the weights so the
// masses (and so the estimator's variance) stay moderate. Deterministic.
signed_mixture_fit fit_signed_mixture(unsigned p, double a, unsigned terms = 4);

}  // namespace kfm::offline
