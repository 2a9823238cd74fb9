// tensor-srht through the real file path (build_map -> serialize -> open -> transform -> kernel_estimate).
// Each feature multiplies p independent rows sqrt(d2) (H D_l x~)_j, x~ = (x / |x|, sqrt(q)) zero-padded, so
// its product is unbiased for alpha (q + x.y / |x||y|)^p, the polynomial-sphere kernel: the mean estimate
// over independent maps must contain the kernel, at a = 4 and at the smallest scale a = 2 (q = a^2 / 2 - 1:
// 7 and 1), with a last pass that is partial. The passes are independent and the features within one pass
// share their blocks, so the relative Frobenius Gram error falls like D^{-1/2}.
// The shared checks are in tests/common/srht_sketch_checks.hpp.
#include <doctest/doctest.h>

#include "common/srht_sketch_checks.hpp"

using namespace kfm;
using namespace kfm::test;

TEST_CASE("tensor-srht: the mean estimate over maps is the polynomial-sphere kernel") {
    // 12 features: one full pass of 8 and a partial pass of 4. The interval is narrow enough to see a wrong
    // constant: alpha (x.y)^p (no appended sqrt(q)) or a missing 1/D would lie outside it.
    check_mean_estimate_is_kernel(format::method::tensor_srht, 12, 0.1);
}

TEST_CASE("tensor-srht: relative Frobenius error falls like D^{-1/2}") {
    check_gram_error_falls_like_inverse_sqrt(format::method::tensor_srht);
}

TEST_CASE("tensor-srht: refuses other kernels and degrees whose products could overflow") {
    check_kernel_and_degree_refusals(format::method::tensor_srht);
}
