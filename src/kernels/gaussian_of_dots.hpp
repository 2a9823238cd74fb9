// The Gaussian kernel against n points from dot products (Nystroem's kernel_landmarks projection):
// out[j] = exp(scale * max(x_sq + l_sq[j] - 2 dot[j], 0)) with scale = -1 / (2 sigma^2), dot[j] = x . l_j,
// x_sq = |x|^2 and l_sq[j] = |l_j|^2, so the squared distances come from one GEMV. The clamp at 0 keeps a
// rounding of the difference below 0 from giving a kernel value above 1. dot == out is allowed.
// Written once over the architecture A (xsimd's exp on SIMD ISAs, the C library's expf on scalar).
#pragma once
#include <cmath>
#include <cstddef>

#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

template <class A>
void gaussian_of_dots(const float* dot, const float* l_sq, float x_sq, float scale, std::size_t n,
                      float* out) noexcept {
    constexpr std::size_t W = lanes<A>;
    std::size_t j = 0;
    if constexpr (W > 1) {
        const vf<A> xs = splat<A>(x_sq), s = splat<A>(scale), two = splat<A>(2.0f);
        for (; j + W <= n; j += W) {
            const vf<A> d2 = neg_mul_add<A>(two, load_f<A>(dot + j), xs + load_f<A>(l_sq + j));
            store_f<A>(out + j, xsimd::exp(s * max0<A>(d2)));
        }
    }
    for (; j < n; ++j) {
        const float d2 = x_sq + l_sq[j] - 2.0f * dot[j];
        out[j] = std::exp(scale * (d2 > 0.0f ? d2 : 0.0f));
    }
}

}  // namespace
}  // namespace kfm::detail::kern
