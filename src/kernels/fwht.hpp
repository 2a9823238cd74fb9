// Normalised Walsh-Hadamard transform x <- n^{-1/2} H diag(s) x, written once over the architecture A.
// The first pass over memory applies the signs (bit i set means s_i = -1), the normalisation and every
// stage with h < lanes inside one register (lane swizzle: lower lanes a + b, upper lanes a - b, one
// multiply-add), then up to three more stages across 8 registers; the remaining stages are contiguous
// vector loops fused three or two at a time (radix-8 and radix-4 passes), so n = 1024 takes 3 passes.
#pragma once
#include <cmath>
#include <cstdint>

#include "kernels/fwht_norm.hpp"
#include "kernels/sign_bits.hpp"
#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

template <unsigned H>
struct lane_sign_bits {  // bit pattern of +1.0f (lower lanes of each 2H block) or -1.0f (upper lanes)
    static constexpr std::uint32_t get(std::size_t i, std::size_t) { return (i & H) ? 0xbf800000u : 0x3f800000u; }
};

// Lower lanes a + b, upper lanes a - b (a the lower, b the upper value), as one multiply-add
// v * (+-1) + partner(v): exact (the product by +-1 is), two operations instead of add, subtract, blend.
template <unsigned H, class A>
inline vf<A> fwht_lane_stage(const vf<A>& v) noexcept {
    using U = u32_lanes<A>;
    const vf<A> sign = U::to_float(U::template constant<lane_sign_bits<H>>());
    return mul_add<A>(v, sign, partner<H>(v));
}

// The in-register stages h, 2h, ... (G/2)h over G vectors v[r] = x[r h] (G a power of two).
template <std::size_t G, class V>
inline void fwht_registers(vf<V> (&v)[G]) noexcept {
    for (std::size_t s = 1; s < G; s *= 2)
        for (std::size_t r = 0; r < G; ++r)
            if ((r & s) == 0) {
                const vf<V> a = v[r], b = v[r + s];
                v[r] = a + b;
                v[r + s] = a - b;
            }
}

// First pass over memory, G vectors at a time: signs, normalisation, the in-lane stages h < lanes, then
// the stages lanes .. (G/2) lanes across the G registers.
template <class A, std::size_t G>
inline void fwht_first_pass(float* x, std::size_t n, const std::uint8_t* sign_bits, float norm) noexcept {
    constexpr std::size_t W = lanes<A>;
    const vf<A> scale(norm);
    for (std::size_t k = 0; k < n; k += G * W) {
        vf<A> v[G];
        for (std::size_t r = 0; r < G; ++r) {
            vf<A> u = load_f<A>(x + k + r * W) * scale;
            if (sign_bits) u = flip_lanes<A>(u, sign_bits, k + r * W);
            u = fwht_lane_stage<1, A>(u);
            u = fwht_lane_stage<2, A>(u);
            if constexpr (W > 4) u = fwht_lane_stage<4, A>(u);
            if constexpr (W > 8) u = fwht_lane_stage<8, A>(u);
            v[r] = u;
        }
        fwht_registers<G, A>(v);
        for (std::size_t r = 0; r < G; ++r) store_f<A>(x + k + r * W, v[r]);
    }
}

// Stages h .. (G/2) h in one pass over memory; h a multiple of lanes<V>.
template <std::size_t G, class V>
inline void fwht_pass(float* x, std::size_t n, std::size_t h) noexcept {
    constexpr std::size_t W = lanes<V>;
    for (std::size_t base = 0; base < n; base += G * h) {
        float* p = x + base;
        for (std::size_t j = 0; j < h; j += W) {
            vf<V> v[G];
            for (std::size_t r = 0; r < G; ++r) v[r] = load_f<V>(p + j + r * h);
            fwht_registers<G, V>(v);
            for (std::size_t r = 0; r < G; ++r) store_f<V>(p + j + r * h, v[r]);
        }
    }
}

template <class A>
void fwht(float* x, unsigned log2_n, const std::uint8_t* sign_bits) noexcept {
    constexpr std::size_t W = lanes<A>;
    const std::size_t n = std::size_t(1) << log2_n;
    const float norm = fwht_norm(log2_n);
    if constexpr (W >= 4) {
        if (n >= W) {
            // Fewest passes over memory: up to 3 register stages in the first pass, then 3 (radix-8)
            // or 2 (radix-4) stages per pass, a radix-2 pass only when a single stage is left.
            std::size_t h = W;
            if (n >= 8 * W) {
                fwht_first_pass<A, 8>(x, n, sign_bits, norm);
                h = 8 * W;
            } else if (n >= 4 * W) {
                fwht_first_pass<A, 4>(x, n, sign_bits, norm);
                h = 4 * W;
            } else if (n >= 2 * W) {
                fwht_first_pass<A, 2>(x, n, sign_bits, norm);
                h = 2 * W;
            } else {
                fwht_first_pass<A, 1>(x, n, sign_bits, norm);
            }
            while (h < n) {
                const std::size_t left = n / h;  // 2^(stages left)
                if (left >= 8 && left != 16) {
                    fwht_pass<8, A>(x, n, h);
                    h *= 8;
                } else if (left >= 4) {
                    fwht_pass<4, A>(x, n, h);
                    h *= 4;
                } else {
                    fwht_pass<2, A>(x, n, h);
                    h *= 2;
                }
            }
            return;
        }
    }
    // The reference path (and vectors shorter than one register).
    for (std::size_t i = 0; i < n; ++i) {
        const bool flip = sign_bits && sign_bit(sign_bits, i);
        x[i] = flip ? -norm * x[i] : norm * x[i];
    }
    for (std::size_t h = 1; h < n; h *= 2) fwht_pass<2, scalar_arch>(x, n, h);
}

}  // namespace
}  // namespace kfm::detail::kern
