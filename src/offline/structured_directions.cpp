// Sign diagonals of the hadamard direction blocks shared by the GORF and SRF builders.
#include "offline/structured_directions.hpp"

#include <cmath>
#include <stdexcept>

#include "offline/random.hpp"

namespace kfm::offline {

hadamard_directions make_hadamard_directions(unsigned d, std::uint32_t rows, std::uint64_t seed) {
    if (d == 0 || rows == 0 || d > (1u << 24)) throw std::invalid_argument("hadamard directions: bad dimensions");
    hadamard_directions h;
    h.d2 = 1;
    while (h.d2 < d) h.d2 *= 2;
    h.blocks = (rows + h.d2 - 1) / h.d2;
    h.row_scale = std::sqrt(double(h.d2) / double(d));
    const std::uint32_t stride = format::hadamard_sign_stride(h.d2);
    h.signs.assign(std::size_t(h.blocks) * 3 * stride, false);
    rng r(seed);
    for (std::size_t stage = 0; stage < std::size_t(h.blocks) * 3; ++stage)
        for (std::uint32_t j = 0; j < h.d2; ++j) h.signs[stage * stride + j] = r.rademacher() < 0;
    return h;
}

void set_hadamard_projection(format::map_meta& m, const hadamard_directions& h, std::uint32_t rows) {
    m.projection = static_cast<std::uint32_t>(format::projection::hadamard);
    m.work_dim = h.d2;
    m.projection_dim = rows;
    m.block_count = h.blocks;
    m.block_size = h.d2;
    m.repeats = 3;
}

}  // namespace kfm::offline
