// The AVX2 instance of the feature-stage peer (plain_features.hpp), compiled with the AVX2 kernels' flags.
#include "plain_features_avx2.hpp"

#include "plain_features.hpp"

namespace kfm_bench {
void plain_xsimd_features_avx2(kfm::format::nonlinearity kind, const float* a, std::size_t n, float* out0,
                               float* out1) noexcept {
    kfm::detail::kern::plain_features<xsimd::fma3<xsimd::avx2>>(kind, a, n, out0, out1);
}
}  // namespace kfm_bench
