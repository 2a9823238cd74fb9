// |s x|^2 of n floats in the accumulator (runtime/transform.cpp's input normalisation with s a power of two,
// kernels/gaussian_factors.hpp's prefactor with s = 1, a product GCC folds away), with eight independent
// partial sums: one serial chain of additions would cost an add latency per element (measured at a quarter of
// a structured map's time at d = 1024). Element i goes to partial i mod 8 in order and the partials are summed
// ((p0 + p1) + (p2 + p3)) + ((p4 + p5) + (p6 + p7)); the tail's elements are named one by one, so the partials
// stay in registers. In double every product is exact and s a power of two, so the sum has the same bits
// however the compiler vectorises the partials, and is exactly s^2 times the unscaled one.
#pragma once
#include <cstddef>

#include "kernels/accumulator.hpp"

namespace kfm::detail::kern {
namespace {  // each translation unit its own copy, compiled with its own flags (kernels/simd.hpp)

inline accumulator squared_norm(const float* x, std::size_t n, accumulator s = 1) noexcept {
    constexpr std::size_t K = 8;
    accumulator partial[K] = {};
    std::size_t i = 0;
    for (; i + K <= n; i += K) {
        for (std::size_t k = 0; k < K; ++k) {
            const accumulator y = accumulator(x[i + k]) * s;
            partial[k] += y * y;
        }
    }
    for (std::size_t k = 0; k + 1 < K; ++k) {
        if (i + k < n) {
            const accumulator y = accumulator(x[i + k]) * s;
            partial[k] += y * y;
        }
    }
    return ((partial[0] + partial[1]) + (partial[2] + partial[3])) + ((partial[4] + partial[5]) + (partial[6] + partial[7]));
}

}  // namespace
}  // namespace kfm::detail::kern
