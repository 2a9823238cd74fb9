// Block products (maclaurin-opt's sketched features): out[j] = weight * prod_{l < factors} (scale * t[l stride + j])
// for j < n, each factor read from contiguous projections, in float. Written once over the architecture A.
// Every lane does the same 2 factors multiplications in the same order as the scalar tail (no additions,
// so no contraction), so every ISA gives the scalar table's bits. Against the exact product of the float
// inputs the result is within 2 factors roundings, |out - exact| <= ((1 + 2^-24)^(2 factors) - 1) |exact| (about
// 2 factors 2^-24 relative: 1e-6 at degree 8), while the partial products stay normal floats (the map's
// output bound keeps them below 2^126); one that falls below 2^-126 adds an absolute error under 2^-126 times
// the remaining factors and the weight. tests/kernels/block_product_test.cpp checks it against a double reference.
#pragma once
#include <cstddef>

#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

template <class A>
void block_product(const float* t, std::size_t stride, unsigned factors, std::size_t n, float scale, float weight,
                   float* out) noexcept {
    constexpr std::size_t W = lanes<A>;
    std::size_t j = 0;
    if constexpr (W > 1) {
        const vf<A> s = splat<A>(scale), w = splat<A>(weight);
        const auto lanes_from = [&](std::size_t first) {
            vf<A> p = s * load_f<A>(t + first);
            for (unsigned l = 1; l < factors; ++l) p = p * (s * load_f<A>(t + l * stride + first));
            store_f<A>(out + first, w * p);
        };
        for (; j + W <= n; j += W) lanes_from(j);
        // A partial last vector (a pass of d2 - (k - 1) features) as the last W features again: they are
        // recomputed with the same operations, so the overlap writes the same bits.
        if (j < n && n >= W) {
            lanes_from(n - W);
            return;
        }
    }
    for (; j < n; ++j) {
        float p = scale * t[j];
        for (unsigned l = 1; l < factors; ++l) p = p * (scale * t[l * stride + j]);
        out[j] = weight * p;
    }
}

}  // namespace
}  // namespace kfm::detail::kern
