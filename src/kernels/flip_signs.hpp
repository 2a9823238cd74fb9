// A sign diagonal stored as bits applied to r interleaved vectors: out[k r + v] = s_k in[k r + v] for
// k < n, v < r, with s_k = -1 where bit first + k is set. r = 1 is one vector (lanes<A> bits per register);
// r = lanes<A> is an interleaved batch (one bit per register). Written once over the architecture A.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/sign_bits.hpp"
#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

template <class A>
void flip_signs(const float* in, const std::uint8_t* bits, std::size_t first, std::size_t n, std::size_t r,
                float* out) noexcept {
    constexpr std::size_t W = lanes<A>;
    std::size_t k = 0;
    if constexpr (W > 1) {
        if (r == W) {
            for (; k < n; ++k) store_f<A>(out + k * W, flip_all<A>(load_f<A>(in + k * W), sign_bit(bits, first + k)));
            return;
        }
        // 32 elements per 32-bit word of bits, shifted down by W for each register; then whole registers
        // while the bits of one register start at a multiple of W
        if (r == 1 && first % 8 == 0) {
            for (; k + 32 <= n; k += 32) {
                vu<A> word = u32_lanes<A>::splat(sign_word_at(bits, first + k));
                for (std::size_t g = 0; g < 32; g += W) {
                    store_f<A>(out + k + g, flip_lanes<A>(load_f<A>(in + k + g), word));
                    word = word >> int(W);
                }
            }
        }
        if (r == 1 && (first + k) % W == 0)
            for (; k + W <= n; k += W) store_f<A>(out + k, flip_lanes<A>(load_f<A>(in + k), bits, first + k));
    }
    for (; k < n; ++k) {
        const bool negative = sign_bit(bits, first + k);
        for (std::size_t v = 0; v < r; ++v) out[k * r + v] = negative ? -in[k * r + v] : in[k * r + v];
    }
}

}  // namespace
}  // namespace kfm::detail::kern
