// Bit reversal for the FFTs: of an index, of every byte (a table), and the bit-reversal copy of split
// re / im arrays, out of place or in place.
#pragma once
#include <cstdint>

#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

// The low `bits` bits of i reversed (0 < bits <= 32). One instruction on Armv7 and Armv8 (rbit; GCC 12 has
// no builtin for it).
template <class A>
KFM_ALWAYS_INLINE std::uint32_t reverse_bits(std::uint32_t i, unsigned bits) noexcept {
#if defined(__aarch64__)
    __asm__("rbit %w0, %w1" : "=r"(i) : "r"(i));
    return i >> (32 - bits);
#elif defined(__arm__) && __ARM_ARCH >= 7 && (__ARM_ARCH_ISA_THUMB == 2 || defined(__ARM_ARCH_ISA_ARM))
    __asm__("rbit %0, %1" : "=r"(i) : "r"(i));
    return i >> (32 - bits);
#endif
    i = ((i >> 1) & 0x55555555u) | ((i & 0x55555555u) << 1);
    i = ((i >> 2) & 0x33333333u) | ((i & 0x33333333u) << 2);
    i = ((i >> 4) & 0x0f0f0f0fu) | ((i & 0x0f0f0f0fu) << 4);
    i = ((i >> 8) & 0x00ff00ffu) | ((i & 0x00ff00ffu) << 8);
    i = (i >> 16) | (i << 16);
    return i >> (32 - bits);
}

// Bit reversal of every byte, for short transforms: one load per index instead of the ten operations of
// reverse_bits (the scalar copy below dominated n = 16 and 32).
struct byte_reversal {
    std::uint8_t v[256];
};
constexpr byte_reversal make_byte_reversal() {
    byte_reversal r{};
    for (unsigned i = 0; i < 256; ++i) {
        unsigned b = 0;
        for (unsigned k = 0; k < 8; ++k) b |= ((i >> k) & 1u) << (7 - k);
        r.v[i] = std::uint8_t(b);
    }
    return r;
}
constexpr byte_reversal reversed_byte = make_byte_reversal();

// out = in in bit-reversed order; in == out is allowed (pairs are swapped once), also for re or im alone.
template <class A>
KFM_ALWAYS_INLINE void bit_reverse_copy(const float* in_re, const float* in_im, float* out_re, float* out_im,
                                        unsigned log2_n) noexcept {
    const std::uint32_t n = std::uint32_t(1) << log2_n;
    if (in_re == out_re || in_im == out_im) {  // (partly) in place: copy the other half, then swap pairs
        for (std::uint32_t i = 0; in_re != out_re && i < n; ++i) out_re[i] = in_re[i];
        for (std::uint32_t i = 0; in_im != out_im && i < n; ++i) out_im[i] = in_im[i];
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t j = reverse_bits<A>(i, log2_n);
            if (i < j) {
                float t = out_re[i]; out_re[i] = out_re[j]; out_re[j] = t;
                t = out_im[i]; out_im[i] = out_im[j]; out_im[j] = t;
            }
        }
    } else if (log2_n <= 8) {
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t j = std::uint32_t(reversed_byte.v[i]) >> (8 - log2_n);
            out_re[i] = in_re[j];
            out_im[i] = in_im[j];
        }
    } else {
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t j = reverse_bits<A>(i, log2_n);
            out_re[i] = in_re[j];
            out_im[i] = in_im[j];
        }
    }
}

}  // namespace
}  // namespace kfm::detail::kern
