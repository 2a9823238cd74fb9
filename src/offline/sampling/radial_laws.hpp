// The radial law of ||w|| for the Gaussian scale-mixture kernels (gaussian, matern, rational-quadratic)
// in dimension d, at unit length (divide by the kernel's sigma / length for the frequencies): the
// quantiles SSF's radial rules place their radii at, and the size-biased law the quadrature's stochastic
// radial rule draws from. docs/kernels.md restates the maths:
//   gaussian            ||w||^2 = chi2(d)
//   matern(nu)          ||w||^2 = chi2(d) nu / G, G ~ Gamma(nu, 1)   =>  ||w||^2 / d ~ F(d, 2 nu)
//   rational-quadratic  ||w||^2 = chi2(d) G / alpha, G ~ Gamma(alpha, 1) (a product of two gammas,
//                       no named law: its CDF is a one-dimensional integral, inverted numerically)
#pragma once

#include "kfm/offline.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::offline {

// F^{-1}(u) of ||w|| at unit length, 0 < u < 1. Throws std::invalid_argument for another kernel.
double radial_quantile(const kernel_spec& k, unsigned dim, double u);

// E ||w||^2 at unit length: d (gaussian, rational-quadratic), d nu / (nu - 1) (matern nu > 1), and
// +infinity for matern nu <= 1 (E[1 / G] diverges for G ~ Gamma(nu <= 1)).
double radial_second_moment(const kernel_spec& k, unsigned dim);

// One draw from the size-biased radial law, density r^2 p(r) / E||w||^2 (p the radial density), at unit
// length: chi(d + 2) times the size-biased scale (matern sqrt(nu / G'), G' ~ Gamma(nu - 1); rational-
// quadratic sqrt(G' / alpha), G' ~ Gamma(alpha + 1); gaussian 1, so a gaussian draw is exactly chi(d+2)).
// Requires a finite second moment.
double size_biased_radius(const kernel_spec& k, unsigned dim, rng& r);

// G^{-1}(u) of that size-biased law, 0 < u < 1 (the quadrature's stratified radii): chi(d + 2) times the
// size-biased scale is the radial law in d + 2 dimensions of the kernel with the shifted parameter (matern
// nu - 1, rational-quadratic alpha + 1), times sqrt(nu / (nu - 1)) or sqrt((alpha + 1) / alpha). Requires
// a finite second moment.
double size_biased_quantile(const kernel_spec& k, unsigned dim, double u);

}  // namespace kfm::offline
