// Maps each format::projection kind to its implementation.
#include "runtime/projection.hpp"

namespace kfm::detail {

extern const projection_ops dense_projection;
extern const projection_ops ssf_fft_projection;
extern const projection_ops butterfly_simplex_projection;
extern const projection_ops hadamard_projection;
extern const projection_ops butterfly_blocks_projection;
extern const projection_ops count_sketch_fft_projection;

const projection_ops* projection_ops_for(std::uint32_t kind) noexcept {
    switch (static_cast<format::projection>(kind)) {
        case format::projection::dense: return &dense_projection;
        case format::projection::ssf_fft: return &ssf_fft_projection;
        case format::projection::butterfly_simplex: return &butterfly_simplex_projection;
        case format::projection::hadamard: return &hadamard_projection;
        case format::projection::butterfly_blocks: return &butterfly_blocks_projection;
        case format::projection::count_sketch_fft: return &count_sketch_fft_projection;
        default: return nullptr;
    }
}

}  // namespace kfm::detail
