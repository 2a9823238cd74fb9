// The shift-invariant kernels kfm approximates with cos/sin features of w.x, w drawn from the kernel's
// spectral law (docs/kernels.md): the gaussian, the Matérn and rational-quadratic kernels (Gaussian scale
// mixtures: w = sqrt(s) g, g ~ N(0, I), s drawn per direction from the kernel's mixing law) and the L1
// Laplacian (independent Cauchy coordinates). Which methods build which kernel is decided here too.
#pragma once
#include <string>

#include "kfm/offline.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::offline {

// Largest Matérn nu kfm accepts: above it the Bessel form of the exact kernel overflows a double near
// zero distance (and the kernel is within a hair of the gaussian, --kernel gaussian).
inline constexpr double max_matern_nu = 100.0;

// gaussian, matern, rational-quadratic, laplacian: the kernels with cos/sin (or random-phase) features.
bool fourier_kernel(format::kernel k);

// gaussian, matern, rational-quadratic: spectral law N(0, s I) mixed over the scale s.
bool scale_mixture_kernel(format::kernel k);

// Throws std::invalid_argument (prefixed by `method`) unless the kernel's parameters are valid:
// finite sigma / length > 0, matern 0 < nu <= max_matern_nu, rational-quadratic finite alpha > 0.
void check_fourier_kernel(const kernel_spec& k, const std::string& method);

// One draw of sqrt(s) for a scale-mixture kernel, so that sqrt(s) g (g ~ N(0, I)) has the kernel's
// spectral law: gaussian 1/sigma (no draw); matern sqrt(nu / G) / l with G ~ Gamma(nu, 1) (the t law
// with 2 nu degrees of freedom); rational-quadratic sqrt(G / alpha) / l with G ~ Gamma(alpha, 1).
double frequency_scale(const kernel_spec& k, rng& r);

// A standard Cauchy draw (the 1-d spectral law of exp(-|z|)), from the Cauchy quantile tan(pi (u - 1/2)).
double standard_cauchy(rng& r);
double cauchy_quantile(double u);

// Whether `m` builds maps of the kernel `k` when `k` is one of the kernels of this file other than the
// gaussian, by the method registry's kernel lists (registry.cpp; the builders check the kernels'
// parameters, e.g. quadrature's nu > 1); throws std::invalid_argument naming the methods that do when not.
void check_method_supports(format::method m, format::kernel k);

}  // namespace kfm::offline
