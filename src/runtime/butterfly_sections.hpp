// Verification shared by the projections that run stacked butterfly networks (butterfly_simplex and
// butterfly_blocks): per block, 2*(d2-1) (cos, sin) floats and a gather permutation of d indices.
#pragma once
#include <cstdint>

#include "kfm/kfm.hpp"

namespace kfm::detail {

// log2 of the smallest power of two >= d (d >= 1).
unsigned butterfly_log2_d2(std::uint32_t d) noexcept;

// Checks meta.block_size == d2 for d = meta.work_dim, repeats >= 1, the BFLY section has
// block_count * 2 * (d2 - 1) finite floats in [-1, 1] and PERM has block_count * d indices < d.
status verify_butterfly_sections(const map_view& map) noexcept;

}  // namespace kfm::detail
