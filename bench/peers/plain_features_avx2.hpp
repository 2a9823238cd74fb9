// The feature-stage peer for AVX2 (plain_features.hpp): out0 (and out1) = f(a) for arguments already
// scaled and phase-shifted. Built only where the AVX2 kernels are (KFM_HAVE_AVX2).
#pragma once
#include <cstddef>

#include "kfm/format.hpp"

namespace kfm_bench {
void plain_xsimd_features_avx2(kfm::format::nonlinearity kind, const float* a, std::size_t n, float* out0,
                               float* out1) noexcept;
}  // namespace kfm_bench
