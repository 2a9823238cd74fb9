// Which kernels a build's projections call. Each platforms/<dir>/kernels_<isa>.cpp passes its table
// through keep_selected_kernels, which clears the entries no kept projection calls (each projection's row in
// runtime/projection_list.def names the entries it calls; KFM_PROJECTION_<KIND> is 1 for a kept one, from
// CMake's KFM_PROJECTIONS), so that the linker's --gc-sections can drop those kernels from firmware that
// links only some projections, and the batch kernels in the firmware profile (KFM_FIRMWARE). A full build
// keeps every entry.
#pragma once
#include "kernels/kernel_table.hpp"
#include "kernels/nonlinearity_selection.hpp"

namespace kfm::detail {

// One bit per kernel_table entry a projection may call (the kernels column of projection_list.def).
enum kernel_use : unsigned {
    uses_gemv = 1u << 0,
    uses_gemm = 1u << 1,
    uses_kernel_of_dots = 1u << 2,
    uses_fft = 1u << 3,
    uses_fft_batch = 1u << 4,
    uses_flip_signs = 1u << 5,
    uses_expand = 1u << 6,
    uses_butterfly = 1u << 7,
    uses_butterfly_simplex_batch = 1u << 8,
    uses_butterfly_simplex_row = 1u << 9,
    uses_fwht = 1u << 10,
    uses_fft_batch_row = 1u << 11,
    uses_block_product = 1u << 12,  // the feature stage's block products, real and complex, which only hadamard maps carry (verify_map)
};

// The entries the build's kept projections call.
constexpr unsigned kept_kernel_uses() noexcept {
    unsigned uses = 0;
#define KFM_PROJECTION(kind, KIND, name, file, kernels) \
    if (KFM_PROJECTION_##KIND) uses |= (kernels);
#include "runtime/projection_list.def"
#undef KFM_PROJECTION
    return uses;
}

// Whether the build can open a map with block products (real or complex): they are product segments, and only
// hadamard maps carry them (verify_map). The runtime compiles its complex block product path only when true.
constexpr bool block_products_kept() noexcept {
    return (kept_kernel_uses() & uses_block_product) != 0 && nonlinearity_built(format::nonlinearity::product);
}

constexpr kernel_table keep_selected_kernels(kernel_table t) noexcept {
    constexpr unsigned kept = kept_kernel_uses();
    if ((kept & uses_gemv) == 0) t.gemv = nullptr;
    if ((kept & uses_gemm) == 0) t.gemm = nullptr;
    if ((kept & uses_kernel_of_dots) == 0) t.kernel_of_dots = nullptr;
    if ((kept & uses_fft) == 0) t.fft = nullptr;
    if ((kept & uses_fft_batch) == 0) t.fft_batch = nullptr;
    if ((kept & uses_fft_batch_row) == 0) t.fft_batch_row = nullptr;
    if ((kept & uses_flip_signs) == 0) t.flip_signs = nullptr;
    if ((kept & uses_expand) == 0) t.expand = nullptr;
    if ((kept & uses_butterfly) == 0) t.butterfly = nullptr;
    if ((kept & uses_butterfly_simplex_batch) == 0) t.butterfly_simplex_batch = nullptr;
    if ((kept & uses_butterfly_simplex_row) == 0) t.butterfly_simplex_row = nullptr;
    if ((kept & uses_fwht) == 0) t.fwht = nullptr;
    // The runtime calls it only where it is built with the identity nonlinearity (transform.cpp).
    if (!nonlinearity_built(format::nonlinearity::identity)) t.gaussian_factors = nullptr;
    if (!block_products_kept()) {
        t.block_product = nullptr;
        t.complex_block_product = nullptr;
    }
#if KFM_FIRMWARE  // the firmware profile has no batched paths (runtime/projection.hpp, KFM_BATCH_PATH)
    t.fft_batch = nullptr;
    t.fft_batch_row = nullptr;  // its single rows take fft: there is no batch FFT to agree with
    t.butterfly_simplex_batch = nullptr;
    t.gemm = nullptr;
    t.flip_signs = nullptr;  // only SSF's interleaved groups flip signs apart from the placement (expand)
#endif
    return t;
}

}  // namespace kfm::detail
