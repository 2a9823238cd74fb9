// Special functions for the polynomial and indefinite spectral models (SRF, GORF): Bessel J of large
// order without overflow, the bounded form Gamma(nu+1) (2/x)^nu J_nu(x), and chi / gamma quantiles.
#pragma once

namespace kfm::offline {

// Gamma(nu+1) (2/x)^nu J_nu(x) = 0F1(; nu+1; -x^2/4), which lies in [-1, 1] and equals 1 at x = 0.
// Finite and accurate (about 1e-12 absolute) for nu >= 0 up to several thousand and x up to a few
// thousand. The same bits on every architecture (only + - * / sqrt).
double bessel_j_bounded(double nu, double x);

// log |J_nu(x)| for nu >= 0, x >= 0; *sign receives the sign of J_nu(x) (0 when it is exactly zero,
// and then the result is -infinity). Never overflows or underflows for orders in the thousands.
double log_abs_bessel_j(double nu, double x, int* sign);

// log Gamma(x) for x > 0, from the Stirling series after shifting x above 15 by the recurrence. Used
// instead of std::lgamma, whose last bits differ between architectures: built only on +, *, / and
// portable::log, which give the same bits everywhere (docs/reliability.md, "Determinism").
double log_gamma(double x);

// Quantile functions (inverse CDFs) at u in (0, 1).
double gamma_quantile(double shape, double u);  // Gamma(shape, 1)
double chi_quantile(double k, double u);        // chi with k degrees of freedom

}  // namespace kfm::offline
