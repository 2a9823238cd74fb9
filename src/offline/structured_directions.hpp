// Structured orthogonal directions for GORF and SRF (--directions hadamard): stacked blocks
// H D1 H D2 H D3 on x padded to d2 = 2^ceil(log2 d) (the runtime's hadamard projection), whose rows are
// orthonormal in R^d2. The radii go to the per-argument scales section, times sqrt(d2/d) so a row
// restricted to the d real coordinates has unit norm on average (exactly when d is a power of two).
#pragma once
#include <cstdint>
#include <vector>

#include "kfm/format.hpp"

namespace kfm::offline {

struct hadamard_directions {
    std::uint32_t d2 = 0;      // padded dimension
    std::uint32_t blocks = 0;  // ceil(rows / d2)
    double row_scale = 1.0;    // sqrt(d2 / d)
    std::vector<bool> signs;   // SIGN section, layout of format::hadamard_sign_stride
};

hadamard_directions make_hadamard_directions(unsigned d, std::uint32_t rows, std::uint64_t seed);

// Fills the projection fields of the meta record for these directions and `rows` projections.
void set_hadamard_projection(format::map_meta& meta, const hadamard_directions& h, std::uint32_t rows);

}  // namespace kfm::offline
