// Maps each format::projection kind to its implementation. A build may leave projections out
// (CMake KFM_PROJECTIONS, which defines KFM_PROJECTION_<KIND> for each kept one): a left-out kind is
// neither referenced nor linked, and maps using it fail open with status::unknown_projection.
#include "runtime/projection.hpp"

namespace kfm::detail {

extern const projection_ops dense_projection;
extern const projection_ops ssf_fft_projection;
extern const projection_ops butterfly_simplex_projection;
extern const projection_ops hadamard_projection;
extern const projection_ops butterfly_blocks_projection;
extern const projection_ops count_sketch_fft_projection;
extern const projection_ops fastfood_projection;
extern const projection_ops kernel_landmarks_projection;

const projection_ops* projection_ops_for(std::uint32_t kind) noexcept {
    switch (static_cast<format::projection>(kind)) {
#if KFM_PROJECTION_DENSE
        case format::projection::dense: return &dense_projection;
#endif
#if KFM_PROJECTION_SSF_FFT
        case format::projection::ssf_fft: return &ssf_fft_projection;
#endif
#if KFM_PROJECTION_BUTTERFLY_SIMPLEX
        case format::projection::butterfly_simplex: return &butterfly_simplex_projection;
#endif
#if KFM_PROJECTION_HADAMARD
        case format::projection::hadamard: return &hadamard_projection;
#endif
#if KFM_PROJECTION_BUTTERFLY_BLOCKS
        case format::projection::butterfly_blocks: return &butterfly_blocks_projection;
#endif
#if KFM_PROJECTION_COUNT_SKETCH_FFT
        case format::projection::count_sketch_fft: return &count_sketch_fft_projection;
#endif
#if KFM_PROJECTION_FASTFOOD
        case format::projection::fastfood: return &fastfood_projection;
#endif
#if KFM_PROJECTION_KERNEL_LANDMARKS
        case format::projection::kernel_landmarks: return &kernel_landmarks_projection;
#endif
        default: return nullptr;
    }
}

}  // namespace kfm::detail
