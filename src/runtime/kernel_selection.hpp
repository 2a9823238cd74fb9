// Which kernels a build's projections call. Each platforms/<dir>/kernels_<isa>.cpp passes its table
// through keep_selected_kernels, which clears the entries no kept projection uses (KFM_PROJECTION_<KIND>,
// defined from CMake's KFM_PROJECTIONS), so that the linker's --gc-sections can drop those kernels from
// firmware that links only some projections, and the batch kernels in the firmware profile (KFM_FIRMWARE).
// A full build keeps every entry.
#pragma once
#include "kernels/kernel_table.hpp"

namespace kfm::detail {

constexpr kernel_table keep_selected_kernels(kernel_table t) noexcept {
#if !KFM_PROJECTION_DENSE && !KFM_PROJECTION_KERNEL_LANDMARKS
    t.gemv = nullptr;
    t.gemm = nullptr;
#endif
#if !KFM_PROJECTION_KERNEL_LANDMARKS
    t.kernel_of_dots = nullptr;
#endif
#if !KFM_PROJECTION_SSF_FFT && !KFM_PROJECTION_COUNT_SKETCH_FFT
    t.fft = nullptr;
#endif
#if !KFM_PROJECTION_SSF_FFT
    t.fft_batch = nullptr;
    t.fft_batch_row = nullptr;
    t.flip_signs = nullptr;
    t.expand = nullptr;
#endif
#if !KFM_PROJECTION_BUTTERFLY_SIMPLEX && !KFM_PROJECTION_BUTTERFLY_BLOCKS
    t.butterfly = nullptr;
#endif
#if !KFM_PROJECTION_BUTTERFLY_SIMPLEX
    t.butterfly_simplex_batch = nullptr;
    t.simplex_row = nullptr;
#endif
#if !KFM_PROJECTION_HADAMARD && !KFM_PROJECTION_FASTFOOD
    t.fwht = nullptr;
#endif
#if KFM_FIRMWARE  // the firmware profile has no batched paths (runtime/projection.hpp, KFM_BATCH_PATH)
    t.fft_batch = nullptr;
    t.fft_batch_row = nullptr;  // its single rows take fft: there is no batch FFT to agree with
    t.butterfly_simplex_batch = nullptr;
    t.gemm = nullptr;
#endif
    return t;
}

}  // namespace kfm::detail
