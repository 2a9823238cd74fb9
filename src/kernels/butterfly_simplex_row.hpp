// A quadrature rule's projection for one vector, t = V^T (M x): the single-vector form of
// butterfly_simplex_batch (kernels/butterfly_simplex_batch.hpp), with the same operations on its one row
// (the network's rotations round alike in every path, and the simplex step is one lane of the batch's),
// so a row's projections do not depend on its batch. The network's repeats run in the two halves of
// scratch: the first reads x directly (no copy in), each later one reads the previous repeat's gather,
// and the last repeat's gather is fused into the simplex step (read through perm), so no pass stores it.
#pragma once
#include <cstdint>

#include "kernels/butterfly.hpp"
#include "kernels/butterfly_simplex_batch.hpp"

namespace kfm::detail::kern {
namespace {

// t (d+1 floats) = V^T (M x) for x (d floats): the forward network (butterfly_apply's levels and
// permutation, `repeats` times) and simplex_rows' step with the coefficients r and diag. x and t do not
// overlap; scratch holds 2 d floats.
template <class A>
void butterfly_simplex_row(const float* x, float* t, unsigned d, unsigned log2_d2, const float* cs,
                           const std::uint32_t* perm, unsigned repeats, const float* r, const float* diag,
                           float* scratch) noexcept {
    float* levels = scratch;
    float* gathered = scratch + d;
    const float* src = x;
    for (unsigned rep = 0; rep < repeats; ++rep) {
        butterfly_levels<A>(src, levels, d, log2_d2, cs, false);
        if (rep + 1 < repeats) {
            permute_gather<A>(levels, d, perm, gathered);
            src = gathered;
        }
    }
    simplex_rows<scalar_arch, 1, true>(levels, perm, d, r, diag, t);
}

}  // namespace
}  // namespace kfm::detail::kern
