// Block products (maclaurin-opt's sketched features): out[j] = weight * prod_{l < factors} (scale * t[l stride +
// (j + l) mod stride]) for j < n <= stride: factor l reads its row of stride projections from position l on,
// wrapping round (why: format.hpp's segment_flag_block_product), in float. Written once over the architecture A.
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
    // Features j < stride - (factors - 1) read no wrapped row: factor l at t[l (stride + 1) + j].
    const std::size_t straight = stride + 1 > factors ? std::min(n, stride + 1 - factors) : 0;
    std::size_t j = 0;
    if constexpr (W > 1) {
        const vf<A> s = splat<A>(scale), w = splat<A>(weight);
        const auto lanes_from = [&](std::size_t first) {
            vf<A> p = s * load_f<A>(t + first);
            for (unsigned l = 1; l < factors; ++l) p = p * (s * load_f<A>(t + l * (stride + 1) + first));
            store_f<A>(out + first, w * p);
        };
        for (; j + W <= straight; j += W) lanes_from(j);
        // A partial last vector as the last W straight features again: recomputed with the same operations,
        // so the overlap writes the same bits.
        if (j < straight && straight >= W) {
            lanes_from(straight - W);
            j = straight;
        }
    }
    for (; j < straight; ++j) {
        float p = scale * t[j];
        for (unsigned l = 1; l < factors; ++l) p = p * (scale * t[l * (stride + 1) + j]);
        out[j] = weight * p;
    }
    for (; j < n; ++j) {  // the last factors - 1 features (or all, for factors > stride): wrapped rows
        float p = scale * t[j];
        std::size_t row = j;  // (j + l) mod stride, stepped: a division per factor was 2 % of a d = 16 map
        for (unsigned l = 1; l < factors; ++l) {
            row = row + 1 == stride ? 0 : row + 1;
            p = p * (scale * t[l * stride + row]);
        }
        out[j] = weight * p;
    }
}

}  // namespace
}  // namespace kfm::detail::kern
