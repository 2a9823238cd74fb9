// Bessel J in the bounded form Gamma(nu+1) (2/x)^nu J_nu(x) by Miller's backward recurrence, on + - * /
// and sqrt only, so that it gives the same bits on every architecture (docs/reliability.md,
// "Determinism"). special_functions.hpp's bessel_j_bounded uses it where the power series cancels.
#pragma once

namespace kfm::offline {

// Gamma(nu+1) (2/x)^nu J_nu(x) for nu >= 0 and x > 0 (finite). About 1e-14 of the local amplitude; the
// work grows like max(x, x^2 / nu), so meant for x up to a few thousand.
double bessel_j_bounded_by_recurrence(double nu, double x);

}  // namespace kfm::offline
