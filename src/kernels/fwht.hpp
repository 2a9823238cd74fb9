// Normalised Walsh-Hadamard transform x <- n^{-1/2} H diag(s) x, written once over the architecture A.
// The first pass over memory applies the signs (bit i set means s_i = -1), the normalisation and every
// stage with h < lanes inside one register (lane swizzle: lower lanes a + b, upper lanes a - b); the
// remaining stages are contiguous vector loops fused two at a time (radix-4 pass).
#pragma once
#include <cmath>
#include <cstdint>

#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

template <unsigned H, class A>
inline vf<A> fwht_lane_stage(const vf<A>& v) noexcept {
    const vf<A> p = partner<H>(v);
    return xsimd::select(upper_mask<H, A>(), p - v, v + p);
}

template <class A>
struct lane_bit {
    static constexpr std::uint32_t get(std::size_t i, std::size_t) { return std::uint32_t(1) << i; }
};
template <class A>
struct lane_to_sign {  // multiplier moving bit i to bit 31
    static constexpr std::uint32_t get(std::size_t i, std::size_t) { return std::uint32_t(1) << (31 - i); }
};

// W sign bits starting at bit i (i a multiple of W, W in 4, 8, 16).
template <std::size_t W>
inline std::uint32_t sign_bits_at(const std::uint8_t* bits, std::size_t i) noexcept {
    if constexpr (W >= 16) {
        return std::uint32_t(bits[i >> 3]) | std::uint32_t(bits[(i >> 3) + 1]) << 8;
    } else {
        return (std::uint32_t(bits[i >> 3]) >> (i & 7)) & ((std::uint32_t(1) << W) - 1);
    }
}

template <class A>
inline void fwht_first_pass(float* x, std::size_t n, const std::uint8_t* sign_bits, float norm) noexcept {
    constexpr std::size_t W = lanes<A>;
    using U = xsimd::batch<std::uint32_t, A>;
    const U bit = xsimd::make_batch_constant<U, lane_bit<A>>();
    const U to_sign = xsimd::make_batch_constant<U, lane_to_sign<A>>();
    const vf<A> scale(norm);
    for (std::size_t k = 0; k < n; k += W) {
        vf<A> v = load_f<A>(x + k) * scale;
        if (sign_bits) {
            const U flip = (U(sign_bits_at<W>(sign_bits, k)) & bit) * to_sign;
            v = xsimd::bitwise_cast<vf<A>>(xsimd::bitwise_cast<U>(v) ^ flip);
        }
        v = fwht_lane_stage<1, A>(v);
        v = fwht_lane_stage<2, A>(v);
        if constexpr (W > 4) v = fwht_lane_stage<4, A>(v);
        if constexpr (W > 8) v = fwht_lane_stage<8, A>(v);
        store_f<A>(x + k, v);
    }
}

template <class V>
inline void fwht_stage(float* x, std::size_t n, std::size_t h) noexcept {
    constexpr std::size_t W = lanes<V>;
    for (std::size_t base = 0; base < n; base += 2 * h)
        for (std::size_t j = 0; j < h; j += W) {
            const vf<V> a = load_f<V>(x + base + j), b = load_f<V>(x + base + j + h);
            store_f<V>(x + base + j, a + b);
            store_f<V>(x + base + j + h, a - b);
        }
}

// Stages h and 2h fused; h a multiple of lanes<V>.
template <class V>
inline void fwht_radix4(float* x, std::size_t n, std::size_t h) noexcept {
    constexpr std::size_t W = lanes<V>;
    for (std::size_t base = 0; base < n; base += 4 * h) {
        float* p = x + base;
        for (std::size_t j = 0; j < h; j += W) {
            const vf<V> x0 = load_f<V>(p + j), x1 = load_f<V>(p + j + h);
            const vf<V> x2 = load_f<V>(p + j + 2 * h), x3 = load_f<V>(p + j + 3 * h);
            const vf<V> a0 = x0 + x1, a1 = x0 - x1, a2 = x2 + x3, a3 = x2 - x3;
            store_f<V>(p + j, a0 + a2);
            store_f<V>(p + j + h, a1 + a3);
            store_f<V>(p + j + 2 * h, a0 - a2);
            store_f<V>(p + j + 3 * h, a1 - a3);
        }
    }
}

template <class A>
void fwht(float* x, unsigned log2_n, const std::uint8_t* sign_bits) noexcept {
    constexpr std::size_t W = lanes<A>;
    const std::size_t n = std::size_t(1) << log2_n;
    const float norm = float(1.0 / std::sqrt(double(n)));
    std::size_t h = 1;
    if constexpr (W >= 4) {
        if (n >= W) {
            fwht_first_pass<A>(x, n, sign_bits, norm);
            h = W;
        }
    }
    if (h == 1) {  // the reference path (and vectors shorter than one register)
        for (std::size_t i = 0; i < n; ++i) {
            const bool flip = sign_bits && ((sign_bits[i >> 3] >> (i & 7)) & 1u);
            x[i] = flip ? -norm * x[i] : norm * x[i];
        }
        for (; h < n; h *= 2) fwht_stage<scalar_arch>(x, n, h);
        return;
    }
    for (; 4 * h <= n; h *= 4) fwht_radix4<A>(x, n, h);
    if (h < n) fwht_stage<A>(x, n, h);
}

}  // namespace
}  // namespace kfm::detail::kern
