// The statistical checks tensor-srht and ctr-srht share. Both sketch the polynomial-sphere kernel
// alpha (q + x.y / |x||y|)^p with products of p rows of sign-flipped Hadamard blocks over
// x~ = (x / |x|, sqrt(q)) zero-padded to d2, in passes of d2 features, so both are checked on the same
// inputs, seeds and kernels; each test file states its method, its feature count and its bounds.
#pragma once
#include <cstdint>

#include "common/stats_util.hpp"
#include "kfm/format.hpp"
#include "kfm/offline.hpp"

namespace kfm::test {

// `method`'s options for the polynomial-sphere kernel of degree p and scale a.
offline::build_options polynomial_sphere_options(format::method method, unsigned d, unsigned features, unsigned degree,
                                                 double scale, std::uint64_t seed);

// The mean estimate over maps 1 .. 6000 of `features` outputs at d = 5 (x~ padded to d2 = 8), at three pairs of
// varying norms (far apart, and a point moved slightly), for p = 3 at a = 4 (q = 7) and p = 2 at the smallest
// scale a = 2 (q = 1): each 0.999 Student-t interval must contain the kernel and be narrower than
// max_relative_half_width times it.
void check_mean_estimate_is_kernel(format::method method, unsigned features, double max_relative_half_width);

// The relative Frobenius Gram error at p = 3, a = 4 and d = 6, at D = 16, 32, ..., 512, falls like D^{-1/2}
// (check_error_falls_like_inverse_sqrt_features: 10 maps per D on 40 x 40 points, slope within -1/2 +- 0.12).
void check_gram_error_falls_like_inverse_sqrt(format::method method);

// A gaussian kernel is refused by name, and so are degrees whose products could give Inf or NaN features:
// the limits docs/methods.md states at a = 4, degree 10 up to d2 = 128 and 8 at d2 = 512.
void check_kernel_and_degree_refusals(format::method method);

}  // namespace kfm::test
