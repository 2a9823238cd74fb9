// Expansion of a packed array to the set bits of a mask: out[k] = scale e_k, e_k = in[rank k] where bit k
// is set (rank k = the set bits before k), 0 elsewhere, for k < n. It reads exactly the `count` inputs
// (the set bits), so the last inputs are placed element by element. SSF places its m inputs at the
// frequencies of its index set (stored as membership bits) this way: one register store per W outputs,
// zeros included, where the scalar scatter paid a store per input after clearing the buffer (2-4x slower
// on AVX2). Written once over the architecture A; the register step (expand_register) is the one
// ISA-specific piece.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/sign_bits.hpp"
#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

// For a mask of 8 lanes: the source lane of each output lane (its rank among the set bits), -1 where the
// bit is clear; the number of set bits; and for a mask of 4 lanes the same as byte indices (4 bytes per
// lane, 0xff where the bit is clear: a NEON table lookup gives 0 there).
struct expand_pattern {
    std::int8_t source[256][8];
    std::uint8_t count[256];
    std::uint8_t source_bytes[16][16];
};
constexpr expand_pattern make_expand_pattern() {
    expand_pattern p{};
    for (unsigned m = 0; m < 256; ++m) {
        int rank = 0;
        for (unsigned j = 0; j < 8; ++j) {
            const bool set = ((m >> j) & 1u) != 0;
            p.source[m][j] = std::int8_t(set ? rank : -1);
            if (m < 16 && j < 4)
                for (unsigned b = 0; b < 4; ++b) p.source_bytes[m][4 * j + b] = std::uint8_t(set ? 4 * rank + b : 0xff);
            rank += set ? 1 : 0;
        }
        p.count[m] = std::uint8_t(rank);
    }
    return p;
}
constexpr expand_pattern expand_lut = make_expand_pattern();

// Set bits among the low 16 bits of `mask`.
inline std::size_t count_bits(std::uint32_t mask) noexcept {
    return std::size_t(expand_lut.count[mask & 0xffu]) + expand_lut.count[(mask >> 8) & 0xffu];
}

// The W floats at src (popcount(mask) of them are used) placed at the set lanes of mask, in order; 0
// elsewhere. Loads W floats from src.
template <class A>
inline vf<A> expand_register(const float* src, std::uint32_t mask) noexcept {
    constexpr std::size_t W = lanes<A>;
#if XSIMD_WITH_AVX2
    if constexpr (std::is_base_of<xsimd::avx2, A>::value && W == 8) {
        // vpermps by the pattern; the -1 entries (sign bit set) select zero in the blend
        const __m256i source = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(expand_lut.source[mask])));
        const __m256 moved = _mm256_permutevar8x32_ps(_mm256_loadu_ps(src), source);
        return vf<A>(_mm256_blendv_ps(moved, _mm256_setzero_ps(), _mm256_castsi256_ps(source)));
    }
#endif
#if XSIMD_WITH_NEON64
    if constexpr (std::is_base_of<xsimd::neon64, A>::value && W == 4) {
        const uint8x16_t bytes = vreinterpretq_u8_f32(vld1q_f32(src));
        return vf<A>(vreinterpretq_f32_u8(vqtbl1q_u8(bytes, vld1q_u8(expand_lut.source_bytes[mask]))));
    }
#endif
#if XSIMD_WITH_NEON
    if constexpr (std::is_same<xsimd::neon, A>::value && W == 4) {
        const float32x4_t v = vld1q_f32(src);
        const uint8x8x2_t table = {{vreinterpret_u8_f32(vget_low_f32(v)), vreinterpret_u8_f32(vget_high_f32(v))}};
        const uint8x8_t low = vtbl2_u8(table, vld1_u8(expand_lut.source_bytes[mask]));
        const uint8x8_t high = vtbl2_u8(table, vld1_u8(expand_lut.source_bytes[mask] + 8));
        return vf<A>(vreinterpretq_f32_u8(vcombine_u8(low, high)));
    }
#endif
#if KFM_MVE
    if constexpr (std::is_same<mve_arch, A>::value) return mve_expand_register(src, mask);  // predicated gather
#endif
    alignas(64) float out[W];
    std::size_t r = 0;
    for (std::size_t j = 0; j < W; ++j) out[j] = ((mask >> j) & 1u) != 0 ? src[r++] : 0.0f;
    return vf<A>::load_aligned(out);
}

// count = the set bits among bits[0 .. n): register loads are issued only while W inputs remain.
template <class A>
void expand(const float* in, std::size_t count, const std::uint8_t* bits, std::size_t n, float scale,
            float* out) noexcept {
    constexpr std::size_t W = lanes<A>;
    std::size_t k = 0, r = 0;
    if constexpr (W > 1) {
        const vf<A> s(scale);
        for (; k + W <= n && r + W <= count; k += W) {
            const std::uint32_t mask = sign_bits_at<W>(bits, k);
            store_f<A>(out + k, s * expand_register<A>(in + r, mask));
            r += count_bits(mask);
        }
    }
    for (; k < n; ++k) out[k] = scale * (sign_bit(bits, k) ? in[r++] : 0.0f);
}

}  // namespace
}  // namespace kfm::detail::kern
