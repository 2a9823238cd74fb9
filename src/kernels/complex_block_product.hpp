// Complex block products (ctr-srht's features): Z_j = prod_{l < factors} z_l with the complex factor
// z_l = scale * (t[2l stride + (j + l) mod stride] + i t[(2l + 1) stride + (j + l) mod stride]): factor l is a
// pair of rows of stride projections, its real row then its imaginary row, each read from position l on and
// wrapping round as block_product's rows do (why: format.hpp's segment_flag_block_product). Writes
// re[j] = weight Re Z_j and im[j] = weight Im Z_j for j < n <= stride, in float. Written once over the
// architecture A.
// Each step is (a + ib)(c + id) = (ac - bd) + i(ad + bc) as four multiplications, then the subtraction and
// the addition, in that order in every lane and in the scalar tail; the kernels are built with
// -ffp-contract=off (cmake/kfm_platform.cmake), so no ISA fuses a multiply into the addition and every ISA gives
// the scalar table's bits. The real and imaginary parts may cancel, so the error is bounded against the
// magnitudes, M(z) = |Re z| + |Im z|: with u = 2^-24 and gamma_m = m u / (1 - m u),
//   |re[j] - w Re Z_j| + |im[j] - w Im Z_j| <= gamma_(3 factors - 1) |w| prod_l M(z_l)
// (the scaling rounds each factor once, each step adds two roundings to the partial product's, the weight
// one), while the partial products stay normal floats (the map's output bound keeps them below 2^126; one
// below 2^-126 adds an absolute error under 2^-126 times the remaining factors and the weight).
// tests/kernels/complex_block_product_test.cpp checks it against a double reference.
#pragma once
#include <cstddef>

#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

template <class A>
void complex_block_product(const float* t, std::size_t stride, unsigned factors, std::size_t n, float scale, float weight,
                           float* re, float* im) noexcept {
    constexpr std::size_t W = lanes<A>;
    std::size_t j = 0;
    if constexpr (W > 1) {
        // Features j < stride - (factors - 1) read no wrapped row: factor l's rows at t[2l stride + l + j] and
        // t[(2l + 1) stride + l + j], whole vectors of them.
        const std::size_t straight = stride + 1 > factors ? std::min(n, stride + 1 - factors) : 0;
        const vf<A> s = splat<A>(scale), w = splat<A>(weight);
        const auto lanes_from = [&](std::size_t first) {
            vf<A> a = s * load_f<A>(t + first), b = s * load_f<A>(t + stride + first);
            for (unsigned l = 1; l < factors; ++l) {
                const float* row = t + 2 * l * stride + l + first;
                const vf<A> c = s * load_f<A>(row), d = s * load_f<A>(row + stride);
                const vf<A> real = a * c - b * d;
                b = a * d + b * c;
                a = real;
            }
            store_f<A>(re + first, w * a);
            store_f<A>(im + first, w * b);
        };
        for (; j + W <= straight; j += W) lanes_from(j);
        // A partial last vector as the last W straight features again: recomputed with the same operations,
        // so the overlap writes the same bits.
        if (j < straight && straight >= W) {
            lanes_from(straight - W);
            j = straight;
        }
    }
    // The rest one feature at a time, each row index wrapped (one loop: firmware links this kernel into every
    // hadamard build, so it is kept small).
    for (; j < n; ++j) {
        float a = scale * t[j], b = scale * t[stride + j];
        for (unsigned l = 1; l < factors; ++l) {
            const std::size_t column = (j + l) % stride;
            const float c = scale * t[2 * l * stride + column], d = scale * t[(2 * l + 1) * stride + column];
            const float real = a * c - b * d;
            b = a * d + b * c;
            a = real;
        }
        re[j] = weight * a;
        im[j] = weight * b;
    }
}

}  // namespace
}  // namespace kfm::detail::kern
