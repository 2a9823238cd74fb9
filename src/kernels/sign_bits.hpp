// Sign diagonals stored as bits (bit i set means s_i = -1), applied to whole registers: the W bits of a
// register become the float sign bits of its lanes by one AND and one integer multiply, then an XOR
// (flip_lanes), or select a negated scale factor (signed_scale). Used by the Hadamard transform's first
// pass, by flip_signs and by SSF's block input (expand.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

template <class A>
struct lane_bit {
    static constexpr std::uint32_t get(std::size_t i, std::size_t) { return std::uint32_t(1) << i; }
};
template <class A>
struct lane_to_sign {  // multiplier moving bit i to bit 31
    static constexpr std::uint32_t get(std::size_t i, std::size_t) { return std::uint32_t(1) << (31 - i); }
};

// W sign bits starting at bit i (i a multiple of W, W in 4, 8, 16). Reads only the bytes holding them.
template <std::size_t W>
inline std::uint32_t sign_bits_at(const std::uint8_t* bits, std::size_t i) noexcept {
    if constexpr (W >= 16) {
        return std::uint32_t(bits[i >> 3]) | std::uint32_t(bits[(i >> 3) + 1]) << 8;
    } else if constexpr (W == 8) {
        return bits[i >> 3];
    } else {
        return (std::uint32_t(bits[i >> 3]) >> (i & 7)) & ((std::uint32_t(1) << W) - 1);
    }
}

// Bits i .. i+31 (i a multiple of 8) as one word, bit j of the word = bit i + j.
inline std::uint32_t sign_word_at(const std::uint8_t* bits, std::size_t i) noexcept {
    const std::uint8_t* p = bits + (i >> 3);
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

inline bool sign_bit(const std::uint8_t* bits, std::size_t i) noexcept { return ((bits[i >> 3] >> (i & 7)) & 1u) != 0; }

// v with lane j negated where bit j of `word` is set (word broadcast to every lane).
template <class A>
inline vf<A> flip_lanes(const vf<A>& v, const vu<A>& word) noexcept {
    using U = u32_lanes<A>;
    const vu<A> signs = (word & U::template constant<lane_bit<A>>()) * U::template constant<lane_to_sign<A>>();
    return U::to_float(U::of(v) ^ signs);
}

// s with lane j negated where bit `shift + j` of `word` is set, to scale a product: signed_scale(s) * x is
// flip_lanes(s * x) bit for bit (rounding is symmetric). On AVX2 two instructions: the word shifted so that
// each lane's bit reaches its sign bit selects -s (the blend reads the sign bit alone), where flip_lanes is
// a shift, an AND, an integer multiply and an XOR. `shift` is a constant where the loops unroll.
template <class A>
inline vf<A> signed_scale(const vf<A>& s, const vu<A>& word, unsigned shift) noexcept {
#if XSIMD_WITH_AVX2
    if constexpr (std::is_base_of<xsimd::avx2, A>::value && lanes<A> == 8) {
        const int top = 31 - int(shift);
        const __m256i to_sign = _mm256_setr_epi32(top, top - 1, top - 2, top - 3, top - 4, top - 5, top - 6, top - 7);
        const __m256 sign = _mm256_castsi256_ps(_mm256_sllv_epi32(word, to_sign));
        return vf<A>(_mm256_blendv_ps(s, _mm256_xor_ps(s, _mm256_set1_ps(-0.0f)), sign));
    }
#endif
    return flip_lanes<A>(s, word >> int(shift));
}

// v with lane j negated where bit i + j is set (i a multiple of the lane count).
template <class A>
inline vf<A> flip_lanes(const vf<A>& v, const std::uint8_t* bits, std::size_t i) noexcept {
    if constexpr (lanes<A> == 1) return sign_bit(bits, i) ? -v : v;
    else return flip_lanes<A>(v, u32_lanes<A>::splat(sign_bits_at<lanes<A>>(bits, i)));
}

// v with every lane negated when `negative` (an exact sign flip, no multiply).
template <class A>
inline vf<A> flip_all(const vf<A>& v, bool negative) noexcept {
    if constexpr (lanes<A> == 1) return negative ? -v : v;
    else return u32_lanes<A>::to_float(u32_lanes<A>::of(v) ^ u32_lanes<A>::splat(negative ? 0x80000000u : 0u));
}

}  // namespace
}  // namespace kfm::detail::kern
