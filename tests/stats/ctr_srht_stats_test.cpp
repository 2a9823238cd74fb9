// ctr-srht through the real file path (build_map -> serialize -> open -> transform -> kernel_estimate).
// Each complex feature multiplies p independent factors sqrt(d2 / 2) ((H D_a x~)_r + i (H D_b x~)_r),
// x~ = (x / |x|, sqrt(q)) zero-padded, so Re(Z(x) conj(Z(y))) = Re Re + Im Im is unbiased for
// alpha (q + x.y / |x||y|)^p, the polynomial-sphere kernel: the mean estimate over independent maps must
// contain the kernel, at a = 4 and at the smallest scale a = 2 (q = a^2 / 2 - 1: 7 and 1), with a last pass
// that is partial. The passes are independent and the features within one pass share their blocks, so the
// relative Frobenius Gram error falls like D^{-1/2}.
// The shared checks are in tests/common/srht_sketch_checks.hpp.
#include <doctest/doctest.h>

#include "common/srht_sketch_checks.hpp"
#include "kfm/offline.hpp"

using namespace kfm;
using namespace kfm::test;

TEST_CASE("ctr-srht: the mean estimate over maps is the polynomial-sphere kernel") {
    // 24 outputs: 12 complex features, one full pass of 8 and a partial pass of 4. The interval is narrow
    // enough to see a wrong constant: alpha (x.y)^p (no appended sqrt(q)), a missing 1/sqrt(2) per factor
    // (2^p too large) or the real parts alone would lie outside it.
    check_mean_estimate_is_kernel(format::method::ctr_srht, 24, 0.1);
}

TEST_CASE("ctr-srht: relative Frobenius error falls like D^{-1/2}") {
    check_gram_error_falls_like_inverse_sqrt(format::method::ctr_srht);
}

TEST_CASE("ctr-srht: D rounds up to even, and other kernels and degrees whose products could overflow are refused") {
    const auto output_dim = [](unsigned features) {
        const offline::build_options o = polynomial_sphere_options(format::method::ctr_srht, 5, features, 3, 4.0, 1);
        return offline::build_map(o).meta.output_dim;
    };
    CHECK(output_dim(17) == 18);
    CHECK(output_dim(18) == 18);
    CHECK(output_dim(1) == 2);
    // The same limits as tensor-srht: the modulus of a complex factor is bounded as a real factor is.
    check_kernel_and_degree_refusals(format::method::ctr_srht);
}
