// Shared by the projections that run stacked butterfly networks (butterfly_simplex and butterfly_blocks):
// the open-time check of their sections (per block, 2*(d2-1) (cos, sin) floats and a gather permutation
// of d indices) and the application of one block's network (butterfly_blocks; butterfly_simplex runs its
// rules through kernels->butterfly_simplex_row, network and simplex step in one call).
#pragma once
#include <cstdint>

#include "runtime/map_state.hpp"

namespace kfm::detail {

// Checks meta.block_size == d2 for d = meta.work_dim, 1 <= repeats <= format::max_butterfly_repeats, the BFLY section has
// block_count * (d2 - 1) (cos, sin) pairs with c^2 + s^2 = 1 (to 2^-20) and PERM has block_count * d indices < d.
status verify_butterfly_sections(const map_state& map) noexcept;

// y[0 .. d) = M_k x for block k < block_count of a verified map (d = meta.work_dim): its angles and
// permutation, meta.repeats times, not transposed. y must not overlap x; scratch holds d floats.
void apply_butterfly_block(const map_state& map, std::uint32_t k, const float* x, float* y, float* scratch) noexcept;

}  // namespace kfm::detail
