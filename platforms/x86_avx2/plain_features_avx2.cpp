// The AVX2 instance of the benchmark peer (src/kernels/plain_features.hpp). It sits in its own object
// file so programs that do not benchmark never link it.
#include "kernels/plain_features.hpp"

namespace kfm::avx2 {
void plain_xsimd_features(format::nonlinearity kind, const float* a, std::size_t n, float* out0,
                          float* out1) noexcept {
    detail::kern::plain_features<xsimd::fma3<xsimd::avx2>>(kind, a, n, out0, out1);
}
}  // namespace kfm::avx2
