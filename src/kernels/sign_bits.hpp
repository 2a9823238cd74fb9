// Sign diagonals stored as bits (bit i set means s_i = -1), applied to whole registers: the W bits of a
// register become the float sign bits of its lanes by one AND and one integer multiply, then an XOR.
// Used by the Hadamard transform's first pass and by flip_signs.
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

// The 32-bit integer lanes of a float register, as the sign operations below use them. On NEON, xsimd 8.1's
// integer batch operations and casts are out-of-line dispatch calls (one per operation: most of the extra
// instructions of an SSF transform on AArch64, measured under qemu); the compiler's own uint32x4_t
// operators are single instructions.
template <class A, class = void>
struct sign_lanes {
    using type = xsimd::batch<std::uint32_t, A>;
    static type broadcast(std::uint32_t w) noexcept { return type(w); }
    static type lane_bits() noexcept { return xsimd::make_batch_constant<type, lane_bit<A>>(); }
    static type lane_to_signs() noexcept { return xsimd::make_batch_constant<type, lane_to_sign<A>>(); }
    static vf<A> xor_bits(const vf<A>& v, const type& m) noexcept {
        return xsimd::bitwise_cast<vf<A>>(xsimd::bitwise_cast<type>(v) ^ m);
    }
};
#if XSIMD_WITH_NEON
template <class A>
struct sign_lanes<A, std::enable_if_t<std::is_base_of<xsimd::neon, A>::value>> {
    using type = uint32x4_t;
    static type broadcast(std::uint32_t w) noexcept { return vdupq_n_u32(w); }
    static type lane_bits() noexcept { return type{lane_bit<A>::get(0, 4), lane_bit<A>::get(1, 4), lane_bit<A>::get(2, 4), lane_bit<A>::get(3, 4)}; }
    static type lane_to_signs() noexcept {
        return type{lane_to_sign<A>::get(0, 4), lane_to_sign<A>::get(1, 4), lane_to_sign<A>::get(2, 4), lane_to_sign<A>::get(3, 4)};
    }
    static vf<A> xor_bits(const vf<A>& v, const type& m) noexcept { return vf<A>(vreinterpretq_f32_u32(vreinterpretq_u32_f32(v) ^ m)); }
};
#endif

// v with lane j negated where bit j of `word` is set (word broadcast to every lane).
template <class A>
inline vf<A> flip_lanes(const vf<A>& v, const typename sign_lanes<A>::type& word) noexcept {
    using L = sign_lanes<A>;
    return L::xor_bits(v, (word & L::lane_bits()) * L::lane_to_signs());
}

// v with lane j negated where bit i + j is set (i a multiple of the lane count).
template <class A>
inline vf<A> flip_lanes(const vf<A>& v, const std::uint8_t* bits, std::size_t i) noexcept {
    if constexpr (lanes<A> == 1) return sign_bit(bits, i) ? -v : v;
    else return flip_lanes<A>(v, sign_lanes<A>::broadcast(sign_bits_at<lanes<A>>(bits, i)));
}

// v with every lane negated when `negative` (an exact sign flip, no multiply).
template <class A>
inline vf<A> flip_all(const vf<A>& v, bool negative) noexcept {
    if constexpr (lanes<A> == 1) return negative ? -v : v;
    else return sign_lanes<A>::xor_bits(v, sign_lanes<A>::broadcast(negative ? 0x80000000u : 0u));
}

}  // namespace
}  // namespace kfm::detail::kern
