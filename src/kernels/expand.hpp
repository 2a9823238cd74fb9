// SSF's FFT input of one block, in one pass: the packed inputs placed at the set bits of a mask, scaled,
// with the block's signs. For the real half (h = 0) and the imaginary half (h = 1), k < n:
//   out[h n + k] = s_{h n + k} scale e_k,   e_k = in[h count + rank k] where bit k is set, 0 where it is clear,
// rank k = the set bits before k, s_j = -1 where bit first + j of the signs is set (the sign of the
// product: a clear position holds +0 or -0). SSF places its m inputs at the frequencies of its index set
// (stored as membership bits) this way: one register store per W outputs, zeros included; both halves
// share the mask's decoding, and the sign flips cost no pass of their own. Both halves read exactly their
// `count` inputs: the last ones go through a zero-padded copy (on NEON a window ending at the last
// input). Written once over the architecture A; the register step (expand_register) is the ISA-specific
// piece, and NEON (AArch64 and ARMv7) has its own loop, 8 positions per step from two registers
// (expand_neon).
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

// Set bits of one byte of a mask.
inline std::size_t count_byte(std::uint8_t byte) noexcept { return expand_lut.count[byte]; }

// Set bits among the low 16 bits of `mask`.
inline std::size_t count_bits(std::uint32_t mask) noexcept {
    return count_byte(std::uint8_t(mask & 0xffu)) + count_byte(std::uint8_t((mask >> 8) & 0xffu));
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

#if XSIMD_WITH_NEON
// NEON tables for 8 positions (one byte of the mask or of the signs) in two registers: the byte indices
// of a two-register table lookup (4 per lane, 0xff where the bit is clear: the lookup gives 0), and the float
// sign bits of the 8 lanes. 8 KiB each, so a step costs one load per table, where the 4-lane forms extract
// a nibble and load once per register, and flip_lanes' AND and multiply are two operations per register.
struct expand_bytes_8 {
    std::uint8_t count[256];  // expand_lut's, here for a shorter address
    std::uint8_t source[256][32];
};
struct expand_signs_8 {
    std::uint32_t sign[256][8];
};
constexpr expand_bytes_8 make_expand_bytes_8() {
    expand_bytes_8 p{};
    for (unsigned m = 0; m < 256; ++m) {
        p.count[m] = expand_lut.count[m];
        for (unsigned j = 0; j < 8; ++j)
            for (unsigned b = 0; b < 4; ++b)
                p.source[m][4 * j + b] = std::uint8_t(((m >> j) & 1u) != 0 ? 4 * expand_lut.source[m][j] + b : 0xff);
    }
    return p;
}
constexpr expand_signs_8 make_expand_signs_8() {
    expand_signs_8 p{};
    for (unsigned m = 0; m < 256; ++m)
        for (unsigned j = 0; j < 8; ++j) p.sign[m][j] = ((m >> j) & 1u) != 0 ? 0x80000000u : 0u;
    return p;
}
constexpr expand_bytes_8 expand_lut_bytes_8 = make_expand_bytes_8();
constexpr expand_signs_8 expand_lut_signs_8 = make_expand_signs_8();

// Two registers from 32 bytes (one ld1 of two registers on AArch64; ARMv7's GCC has no _x2 forms).
inline uint8x16x2_t load_bytes_32(const std::uint8_t* p) noexcept {
#if XSIMD_WITH_NEON64
    return vld1q_u8_x2(p);
#else
    return uint8x16x2_t{{vld1q_u8(p), vld1q_u8(p + 16)}};
#endif
}

// Bytes idx of the 32-byte table t (0 for an index >= 32): one tbl on AArch64, four-register vtbl per half
// on ARMv7 (a q register is two d registers there, so the halves cost no moves).
inline uint8x16_t lookup_32(const uint8x16x2_t& t, uint8x16_t idx) noexcept {
#if XSIMD_WITH_NEON64
    return vqtbl2q_u8(t, idx);
#else
    const uint8x8x4_t d{{vget_low_u8(t.val[0]), vget_high_u8(t.val[0]), vget_low_u8(t.val[1]), vget_high_u8(t.val[1])}};
    return vcombine_u8(vtbl4_u8(d, vget_low_u8(idx)), vtbl4_u8(d, vget_high_u8(idx)));
#endif
}

// The sign bits of the 8 lanes (sign byte `sign`) XORed into low and high, stored at out.
inline void store_signed_neon(uint32x4_t low, uint32x4_t high, std::uint32_t sign, float* out) noexcept {
    const std::uint32_t* bits = expand_lut_signs_8.sign[sign];
#if XSIMD_WITH_NEON64
    const uint32x4x2_t s = vld1q_u32_x2(bits);
    vst1q_f32_x2(out, float32x4x2_t{{vreinterpretq_f32_u32(veorq_u32(low, s.val[0])), vreinterpretq_f32_u32(veorq_u32(high, s.val[1]))}});
#else
    const float32x4_t a = vreinterpretq_f32_u32(veorq_u32(low, vld1q_u32(bits)));
    const float32x4_t b = vreinterpretq_f32_u32(veorq_u32(high, vld1q_u32(bits + 4)));
    vst1q_f32(out, a);
    vst1q_f32(out + 4, b);
#endif
}

// The 8 floats at src placed by the byte indices `source` (a two-register table lookup), times scale, with
// the sign byte `sign`, stored at out. Loads 8 floats from src.
inline void expand_half_neon(const float* src, const uint8x16x2_t& source, float32x4_t scale, std::uint32_t sign,
                             float* out) noexcept {
    const uint8x16x2_t table = load_bytes_32(reinterpret_cast<const std::uint8_t*>(src));
    store_signed_neon(vreinterpretq_u32_f32(vmulq_f32(scale, vreinterpretq_f32_u8(lookup_32(table, source.val[0])))),
                      vreinterpretq_u32_f32(vmulq_f32(scale, vreinterpretq_f32_u8(lookup_32(table, source.val[1])))),
                      sign, out);
}

// One step of expand_neon: positions [8 i, 8 i + 8) of both halves, from the 8 inputs of each half at
// window (its imaginary part at window + count) placed by the byte indices `source`.
inline void expand_step_neon(const float* window, std::size_t count, const uint8x16x2_t& source, float32x4_t scale,
                             const std::uint8_t* sign_re, const std::uint8_t* sign_im, std::size_t i, float* out_re,
                             float* out_im) noexcept {
    expand_half_neon(window, source, scale, sign_re[i], out_re + 8 * i);
    expand_half_neon(window + count, source, scale, sign_im[i], out_im + 8 * i);
}

// expand<neon> for n a multiple of 8, each half's signs starting at a whole byte (sign_re, sign_im) and
// count >= 8: a step per byte of the mask, both halves at once. A step without inputs stores the scaled
// zeros' signs alone (a third of the steps of a 64 -> 1024 map). Once fewer than 8 inputs remain, the
// lookups read the last 8 inputs of each half, their byte indices moved up by the inputs already used
// (a saturating add keeps 0xff, "zero", unchanged), so no read passes the end and nothing is copied.
inline void expand_neon(const float* in, std::size_t count, const std::uint8_t* bits, std::size_t n, float scale,
                        const std::uint8_t* sign_re, const std::uint8_t* sign_im, float* out) noexcept {
    const float32x4_t s = vdupq_n_f32(scale);
    const uint32x4_t zero = vreinterpretq_u32_f32(vmulq_f32(s, vdupq_n_f32(0.0f)));
    const float* src = in;                     // the next real input; its imaginary part at src + count
    const float* const last = in + count - 8;  // the last window of 8 inputs
    float* const out_re = out;
    float* const out_im = out + n;
    const std::size_t steps = n / 8;
    std::size_t i = 0;
    const auto zero_step = [&](std::size_t step) {  // a step without inputs
        store_signed_neon(zero, zero, sign_re[step], out_re + 8 * step);
        store_signed_neon(zero, zero, sign_im[step], out_im + 8 * step);
    };
    for (; i < steps && src <= last; ++i) {
        const std::uint32_t mask = bits[i];
        if (mask == 0) {
            zero_step(i);
            continue;
        }
        expand_step_neon(src, count, load_bytes_32(expand_lut_bytes_8.source[mask]), s, sign_re, sign_im, i, out_re, out_im);
        src += expand_lut_bytes_8.count[mask];
    }
    for (; i < steps; ++i) {
        const std::uint32_t mask = bits[i];
        if (mask == 0) {
            zero_step(i);
            continue;
        }
        uint8x16x2_t source = load_bytes_32(expand_lut_bytes_8.source[mask]);
        const uint8x16_t moved = vdupq_n_u8(std::uint8_t(4 * (src - last)));
        source.val[0] = vqaddq_u8(source.val[0], moved);
        source.val[1] = vqaddq_u8(source.val[1], moved);
        expand_step_neon(last, count, source, s, sign_re, sign_im, i, out_re, out_im);
        src += expand_lut_bytes_8.count[mask];
    }
}
#endif

// Both halves' positions [k, k + W) from W floats at re and at im placed at the set lanes of `mask`, with
// lane j's sign bit at bit shift + j of sign_re and sign_im (one word for every lane); returns the inputs
// used (the set bits). A step without inputs stores the scaled zeros' signs alone (the same bits; the
// branch is the same on every call of a map, and a third of the steps at (64, 1024) take it).
template <class A>
inline std::size_t expand_group(const float* re, const float* im, std::uint32_t mask, float scale, const vu<A>& sign_re,
                                const vu<A>& sign_im, unsigned shift, float* out_re, float* out_im) noexcept {
    const vf<A> s(scale);
    const vf<A> s_re = signed_scale<A>(s, sign_re, shift), s_im = signed_scale<A>(s, sign_im, shift);
    if (mask == 0) {
        store_f<A>(out_re, s_re * vf<A>(0.0f));
        store_f<A>(out_im, s_im * vf<A>(0.0f));
        return 0;
    }
    store_f<A>(out_re, s_re * expand_register<A>(re, mask));
    store_f<A>(out_im, s_im * expand_register<A>(im, mask));
    return count_bits(mask);
}

// Position k of both halves, one element each (the scalar form, and the other ISAs' form where n is not a
// multiple of their step or the signs do not start at a whole byte).
inline std::size_t expand_one(const float* in, std::size_t count, std::size_t r, const std::uint8_t* bits,
                              std::size_t n, std::size_t k, float scale, const std::uint8_t* signs,
                              std::size_t first, float* out) noexcept {
    const bool set = sign_bit(bits, k);
    const float re = scale * (set ? in[r] : 0.0f), im = scale * (set ? in[count + r] : 0.0f);
    out[k] = flip_all<scalar_arch>(re, sign_bit(signs, first + k));
    out[n + k] = flip_all<scalar_arch>(im, sign_bit(signs, first + n + k));
    return set ? 1 : 0;
}

// count = the set bits among bits[0 .. n).
template <class A>
void expand(const float* in, std::size_t count, const std::uint8_t* bits, std::size_t n, float scale,
            const std::uint8_t* signs, std::size_t first, float* out) noexcept {
    constexpr std::size_t W = lanes<A>;
    std::size_t k = 0, r = 0;
    if constexpr (W > 1) {
        if (n % W == 0 && n % 8 == 0 && first % 8 == 0) {  // each half's signs start at a whole byte
            const std::uint8_t* sign_re = signs + first / 8;
            const std::uint8_t* sign_im = signs + (first + n) / 8;
#if XSIMD_WITH_NEON
            if constexpr (std::is_base_of<xsimd::neon, A>::value) {
                if (count >= 8) return expand_neon(in, count, bits, n, scale, sign_re, sign_im, out);
            } else
#endif
            {
                // Steps before direct_end have at least W inputs left in each half (the set bits from there
                // on, counted back from the end a byte of the mask at a time), so they read `in` directly, 32
                // positions per word of the mask and of each half's signs; after it, the last inputs (fewer
                // than W + 8) are read from a copy followed by zeros: every step stays a register step, and
                // none reads past the end.
                static_assert(W <= 8, "the copy below holds 2 W + 8 floats per half");
                constexpr std::uint32_t lane_mask = (std::uint32_t(1) << W) - 1;
                std::size_t direct_end = n, left = 0;  // left: the set bits from direct_end on
                while (direct_end > 0 && left < W) {
                    left += count_byte(bits[direct_end / 8 - 1]);
                    direct_end -= 8;
                }
                const float* re = in;
                for (; k + 32 <= direct_end; k += 32) {
                    const std::uint32_t mask = sign_word_at(bits, k);
                    const vu<A> s_re = u32_lanes<A>::splat(sign_word_at(sign_re, k));
                    const vu<A> s_im = u32_lanes<A>::splat(sign_word_at(sign_im, k));
                    KFM_UNROLL(4)  // whole on AVX2 (the shifts become constants), half on 4 lanes
                    for (unsigned g = 0; g < 32; g += W)
                        re += expand_group<A>(re, re + count, (mask >> g) & lane_mask, scale, s_re, s_im, g, out + k + g,
                                              out + n + k + g);
                }
                const auto step = [&](const float* from_re, const float* from_im) {
                    const std::size_t used = expand_group<A>(
                        from_re, from_im, sign_bits_at<W>(bits, k), scale, u32_lanes<A>::splat(sign_bits_at<W>(sign_re, k)),
                        u32_lanes<A>::splat(sign_bits_at<W>(sign_im, k)), 0, out + k, out + n + k);
                    k += W;
                    return used;
                };
                while (k < direct_end) re += step(re, re + count);
                float tail[2][2 * W + 8];
                KFM_UNROLL(8)
                for (std::size_t i = 0; i < 2 * W + 8; i += W) {  // register stores (an initialiser: a string store)
                    store_f<A>(tail[0] + i, vf<A>(0.0f));
                    store_f<A>(tail[1] + i, vf<A>(0.0f));
                }
                for (std::size_t i = 0; i < left; ++i) {
                    tail[0][i] = re[i];
                    tail[1][i] = re[count + i];
                }
                for (std::size_t t = 0; k < n;) t += step(tail[0] + t, tail[1] + t);
                return;
            }
        }
    }
    for (; k < n; ++k) r += expand_one(in, count, r, bits, n, k, scale, signs, first, out);
}

}  // namespace
}  // namespace kfm::detail::kern
