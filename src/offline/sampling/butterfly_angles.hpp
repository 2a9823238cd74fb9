// Random butterfly orthogonal networks (Genz 1998) for the quadrature rules and structured directions:
// the (cos, sin) angle table in the layout of kernels->butterfly (docs/methods.md, "The butterfly network"),
// the gather permutation (random_permutation, random.hpp), and a double-precision reference of the network
// used to build dense matrices in tests.
#pragma once
#include <cstdint>
#include <vector>

#include "kfm/format.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::offline {

inline constexpr unsigned butterfly_repeats = 3;  // (levels, permutation) applied three times, as quffka
static_assert(butterfly_repeats <= format::max_butterfly_repeats, "kfm::open refuses more repeats");

// d2 = 2^ceil_log2(d) (format/bits.hpp) is the network's padded size.
// 2*(d2-1) floats: (cos θ_k, sin θ_k) for k = 0..d2-2. The angles come from a generating vector u
// uniform on S^{d2-1} (Genz): θ_k = atan2(u_k, u_{k+1}). The block of size B = 2h starting at s uses
// angle k = s+h-1. Angles whose pairs reach past d are stored but never used (those pairs pass through).
std::vector<float> butterfly_cos_sin(unsigned d, rng& r);

// The network M = (P L)^repeats on x[0..d) in double, with the stored floats: L applies the levels
// ℓ = 1..log2 d2 (y_i = c x_i + s x_{i+h}, y_{i+h} = -s x_i + c x_{i+h}; pairs with i+h >= d pass
// through), P gathers y[i] = x[perm[i]]. transpose applies M^T = M^{-1}.
void butterfly_apply_reference(double* x, unsigned d, const float* cs, const std::uint32_t* perm,
                               unsigned repeats, bool transpose);

// The orthogonal matrix Q = M^T as d*d values, row-major, so that (Q v) . x = v . (M x): the fast
// path applies M to x and the quadrature points are the columns Q v_j.
std::vector<double> butterfly_dense_q(unsigned d, const float* cs, const std::uint32_t* perm,
                                      unsigned repeats);

}  // namespace kfm::offline
