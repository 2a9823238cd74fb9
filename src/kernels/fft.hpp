// Radix-2 complex FFT on split real/imaginary arrays, written once over the architecture A.
// Decimation in time: a bit-reversal copy into the output, then the stages in place on the output.
// For n >= lanes^2 (in or out of place), the bit reversal is done by register-tile transposes with the
// stages h < lanes applied across the tile's rows before the transpose (broadcast twiddles, no shuffles).
// Stages with half-size h < lanes either run across the rows of a register tile during the bit
// reversal (below) or, for short transforms or re / im aliased alone, inside one register (a lane swizzle brings each
// butterfly's partner across, the lane twiddle tables of fft_layout.hpp carry the sign), all of them fused
// in one pass; stages with h >= lanes are contiguous vector loops, fused two at a time (radix-4 pass;
// one radix-8 pass when their number is odd) to cut the passes over memory. For n == lanes^2 the tile is
// the whole transform and every stage runs in registers (one load, one store), as for n == 2 lanes^2 on 4
// lanes (two tiles, 16 data registers; not on MVE); fft_r2_c2c dispatches those before any stack frame is
// set up (the other paths are fft_tiles_and_passes, out of line). Tile transposes are unpacks and
// shuffles on AVX / SSE and trn1 / trn2 on NEON (generic lane swizzles and blends elsewhere). The inverse is the
// forward transform with re and im swapped (conj(F(conj x))). On AVX2 (and AVX-512, which uses the 8-lane
// kernel), 16 <= n < 64 runs the 4-lane SSE instance of the same template (half_width_arch). On MVE, with 8
// vector registers, the out-of-place bit reversal and the stages h >= lanes are fft_mve.hpp's passes. The
// one-lane instance (the scalar table) is fft_scalar.hpp's radix-4 FFT.
#pragma once
#include <cstdint>
#include <utility>
#include <type_traits>

#include "format/fft_layout.hpp"
#include "kernels/fft_bit_reversal.hpp"
#include "kernels/fft_scalar.hpp"  // the one-lane FFT
#include "kernels/vec.hpp"
#if KFM_MVE
#include "kernels/fft_mve.hpp"  // the MVE passes (8 vector registers)
#endif

namespace kfm::detail::kern {
namespace {

// Lanes (i & S) != 0 from `upper`, the others from `lower`. xsimd 8.1 lowers a constant float mask on AVX
// to the variable blend (two uops); the immediate blend is one.
template <unsigned S, class A>
inline vf<A> blend_upper(const vf<A>& upper, const vf<A>& lower) noexcept {
#if XSIMD_WITH_AVX
    if constexpr (std::is_base_of<xsimd::avx, A>::value && lanes<A> == 8) {
        constexpr int mask = S == 1 ? 0xaa : S == 2 ? 0xcc : 0xf0;
        return vf<A>(_mm256_blend_ps(lower, upper, mask));
    } else
#endif
#if XSIMD_WITH_SSE4_1
    if constexpr (std::is_base_of<xsimd::sse4_1, A>::value && lanes<A> == 4) {
        constexpr int mask = S == 1 ? 0xa : 0xc;
        return vf<A>(_mm_blend_ps(lower, upper, mask));
    } else
#endif
    {
        return xsimd::select(upper_mask<S, A>(), upper, lower);
    }
}

// c - a b, fused where the ISA has it. On NEON64 one fmls: xsimd 8.1's fnma there (neg_mul_add's fallback)
// is a negation, a multiply and an add.
template <class A>
KFM_ALWAYS_INLINE vf<A> sub_mul(const vf<A>& a, const vf<A>& b, const vf<A>& c) noexcept {
#if XSIMD_WITH_NEON64
    if constexpr (std::is_base_of<xsimd::neon64, A>::value) return vf<A>(vfmsq_f32(c, a, b));
#endif
    return neg_mul_add<A>(a, b, c);
}

// One radix-2 butterfly on registers: (a, b) <- (a + w b, a - w b).
template <class V>
inline void butterfly2(vf<V>& ar, vf<V>& ai, vf<V>& br, vf<V>& bi, const vf<V>& wr, const vf<V>& wi) noexcept {
    const vf<V> tr = sub_mul<V>(wi, bi, wr * br);
    const vf<V> ti = mul_add<V>(wi, br, wr * bi);
    br = ar - tr;
    bi = ai - ti;
    ar = ar + tr;
    ai = ai + ti;
}

// Stages h, 2h, ... (R = 4: two stages, R = 8: three) fused: each group of R elements at distance h goes
// through all of them in registers, one pass over memory. h must be a multiple of lanes<V>.
// Stage g = span h (span = 1, 2, 4) of column j uses the twiddles w_{j + q h}, q < span. For q >= span / 2
// those are -i w_{j + (q - span / 2) h} (w_k of stage g is exp(-i pi k / g)), so only q < max(1, span / 2)
// are loaded, kept at wr[span / 2 + q]: 2 twiddle vectors for radix 4 (not 3), 4 for radix 8 (not 7).
// A register holds the twiddles of columns j .. j + lanes - 1, or with Broadcast the one twiddle of column
// j in every lane (the interleaved batch FFT, whose lanes are separate vectors).
template <std::size_t R, class V, bool Broadcast = false>
struct radix_twiddles {
    vf<V> wr[R / 2], wi[R / 2];
    radix_twiddles(const float* tw, std::size_t h, std::size_t j) noexcept {
        KFM_UNROLL(16)
        for (std::size_t span = 1; span < R; span *= 2) {
            const float* w_re = tw + fft_layout::stage_offset(span * h);
            const float* w_im = w_re + span * h;
            KFM_UNROLL(16)
            for (std::size_t q = 0; q < (span + 1) / 2; ++q) {
                wr[span / 2 + q] = Broadcast ? splat<V>(w_re[j + q * h]) : load_f<V>(w_re + j + q * h);
                wi[span / 2 + q] = Broadcast ? splat<V>(w_im[j + q * h]) : load_f<V>(w_im + j + q * h);
            }
        }
    }
    vf<V> re(std::size_t k) const noexcept { return wr[k]; }
    vf<V> im(std::size_t k) const noexcept { return wi[k]; }
};

// The same twiddles read from the table where a butterfly uses them, not held in registers for the group
// (radix_pass_twiddles says where).
template <std::size_t R, class V>
struct radix_twiddle_loads {
    const float* wr[R / 2];
    const float* wi[R / 2];
    radix_twiddle_loads(const float* tw, std::size_t h, std::size_t j) noexcept {
        KFM_UNROLL(16)
        for (std::size_t span = 1; span < R; span *= 2) {
            const float* w_re = tw + fft_layout::stage_offset(span * h);
            const float* w_im = w_re + span * h;
            KFM_UNROLL(16)
            for (std::size_t q = 0; q < (span + 1) / 2; ++q) {
                wr[span / 2 + q] = w_re + j + q * h;
                wi[span / 2 + q] = w_im + j + q * h;
            }
        }
    }
    vf<V> re(std::size_t k) const noexcept { return load_f<V>(wr[k]); }
    vf<V> im(std::size_t k) const noexcept { return load_f<V>(wi[k]); }
};

// Radix-2 butterfly with twiddle -i w: (a, b) <- (a + (-i) w b, a - (-i) w b), the -i by swapping parts.
template <class V>
inline void butterfly2_minus_i(vf<V>& ar, vf<V>& ai, vf<V>& br, vf<V>& bi, const vf<V>& wr, const vf<V>& wi) noexcept {
    const vf<V> tr = sub_mul<V>(wi, bi, wr * br);  // t = w b; (-i) t = (t.im, -t.re)
    const vf<V> ti = mul_add<V>(wi, br, wr * bi);
    br = ar - ti;
    bi = ai + tr;
    ar = ar + ti;
    ai = ai - tr;
}

// The stages span = 1, 2, .. R / 2 of one radix-R group in registers (element m pairs with m + span when
// (m & span) == 0), with twiddles kept as radix_twiddles describes (also the batch FFT's). Column0: the
// group of column 0, whose twiddles are 1 and -i (no multiplies). Constant trip counts: GCC's
// -Warray-bounds sees through the unrolled copies.
template <std::size_t R, bool Column0, class V, class Tw>
KFM_ALWAYS_INLINE void radix_stages(vf<V> (&xr)[R], vf<V> (&xi)[R], const Tw& w) noexcept {
    KFM_UNROLL(4)
    for (unsigned level = 0; (std::size_t(2) << level) <= R; ++level) {
        const std::size_t span = std::size_t(1) << level, half = span / 2;
        KFM_UNROLL(8)
        for (std::size_t p = 0; p < R / 2; ++p) {
            const std::size_t q = p % span, m = (p / span) * 2 * span + q;
            vf<V>&ar = xr[m], &ai = xi[m], &br = xr[m + span], &bi = xi[m + span];
            const bool minus_i = span > 1 && q >= half;  // twiddle -i w_{j + (q - half) h}, kept at q
            const std::size_t k = minus_i ? q : half + q;
            if (Column0 && k == half) {  // the twiddle is 1 or -i
                const vf<V> tr = minus_i ? bi : br, ti = minus_i ? -br : bi;
                br = ar - tr; bi = ai - ti; ar = ar + tr; ai = ai + ti;
            } else if (minus_i) {
                butterfly2_minus_i<V>(ar, ai, br, bi, w.re(k), w.im(k));
            } else {
                butterfly2<V>(ar, ai, br, bi, w.re(k), w.im(k));
            }
        }
    }
}

// One group of R registers: loads element m from in + perm(m) * in_stride (perm = the R-point bit reversal
// when Reversed, else the identity), runs the stages span = 1, 2, .. R / 2 in registers (radix_stages),
// stores element m at out + m * out_stride (strides in floats; in == out is allowed: every load comes
// first). Tw: radix_twiddles (broadcast ones in the batch FFT).
template <std::size_t R, bool Reversed, bool Column0, class V, class Tw>
inline void radix_group(const float* in_re, const float* in_im, std::size_t in_stride, float* out_re,
                        float* out_im, std::size_t out_stride, const Tw& w) noexcept {
    vf<V> xr[R], xi[R];
    KFM_UNROLL(8)
    for (std::size_t m = 0; m < R; ++m) {
        const std::size_t pm = !Reversed ? m : R == 8 ? ((m & 1) << 2 | (m & 2) | (m >> 2)) : R == 4 ? ((m & 1) << 1 | (m >> 1)) : m;
        xr[m] = load_f<V>(in_re + pm * in_stride);
        xi[m] = load_f<V>(in_im + pm * in_stride);
    }
    radix_stages<R, Column0, V>(xr, xi, w);
    KFM_UNROLL(8)
    for (std::size_t m = 0; m < R; ++m) {
        store_f<V>(out_re + m * out_stride, xr[m]);
        store_f<V>(out_im + m * out_stride, xi[m]);
    }
}

// A radix pass's twiddles per column: held in registers, except on AVX2 (16 registers, and arithmetic that
// reads an operand from memory) for radix 8, whose 16 data registers and 8 held twiddles spill, and for the
// one-column pass h = lanes, where GCC kept the held ones on the stack: there they are read at their
// butterflies (AVX2: n = 256 1.05x, 1024 1.10x faster, 512 1-3 % slower; loads on ARMv7 NEON, which has 16
// registers too, cost more instructions than the spills: 1.05-1.12x at n = 64 ... 4096).
#if defined(__AVX2__) && !defined(__AVX512F__)
constexpr bool twiddles_at_butterflies = true;
#else
constexpr bool twiddles_at_butterflies = false;
#endif
template <std::size_t R, class V, bool OneColumn>
using radix_pass_twiddles = std::conditional_t<twiddles_at_butterflies && (R == 8 || OneColumn),
                                               radix_twiddle_loads<R, V>, radix_twiddles<R, V>>;

template <std::size_t R, class V>
inline void radix_pass(float* re, float* im, std::size_t n, std::size_t h, const float* tw) noexcept {
    constexpr std::size_t W = lanes<V>;
    if (h == W) {  // one column: its twiddles loaded once for all groups (the stores could alias tw)
        const radix_pass_twiddles<R, V, true> w(tw, h, 0);
        for (std::size_t base = 0; base < n; base += R * h)
            radix_group<R, false, false, V>(re + base, im + base, h, re + base, im + base, h, w);
        return;
    }
    // otherwise groups outer, columns inner: sequential access (columns outer measured slower at n = 4096)
    for (std::size_t base = 0; base < n; base += R * h) {
        for (std::size_t j = 0; j < h; j += W) {
            radix_group<R, false, false, V>(re + base + j, im + base + j, h, re + base + j, im + base + j, h,
                                            radix_pass_twiddles<R, V, false>(tw, h, j));
        }
    }
}

// In-register stage of half-size H < lanes: lane i pairs with lane i ^ H; the lane table holds
// sigma_i w so out = a + (sigma w) b for both halves of each butterfly.
template <unsigned H, class A>
inline void lane_stage(vf<A>& re, vf<A>& im, const vf<A>& wr, const vf<A>& wi) noexcept {
    const vf<A> pr = partner<H>(re), pi = partner<H>(im);
    const vf<A> ar = blend_upper<H, A>(pr, re), ai = blend_upper<H, A>(pi, im);
    const vf<A> br = blend_upper<H, A>(re, pr), bi = blend_upper<H, A>(im, pi);
    re = mul_add<A>(wr, br, sub_mul<A>(wi, bi, ar));
    im = mul_add<A>(wr, bi, mul_add<A>(wi, br, ai));
}

// The in-register stages h < lanes<A> on one register pair (re, im).
template <class A>
struct lane_twiddles {
    vf<A> r1, i1, r2, i2, r4, i4, r8, i8;
    explicit lane_twiddles(const float* tw) noexcept {
        constexpr std::size_t W = lanes<A>;
        const std::size_t L = fft_layout::lane_count;
        r1 = load_f<A>(tw + fft_layout::lane_offset(1)); i1 = load_f<A>(tw + fft_layout::lane_offset(1) + L);
        r2 = load_f<A>(tw + fft_layout::lane_offset(2)); i2 = load_f<A>(tw + fft_layout::lane_offset(2) + L);
        r4 = W > 4 ? load_f<A>(tw + fft_layout::lane_offset(4)) : vf<A>(0.0f);
        i4 = W > 4 ? load_f<A>(tw + fft_layout::lane_offset(4) + L) : vf<A>(0.0f);
        r8 = W > 8 ? load_f<A>(tw + fft_layout::lane_offset(8)) : vf<A>(0.0f);
        i8 = W > 8 ? load_f<A>(tw + fft_layout::lane_offset(8) + L) : vf<A>(0.0f);
    }
    void apply(vf<A>& r, vf<A>& i) const noexcept {
        constexpr std::size_t W = lanes<A>;
        lane_stage<1, A>(r, i, r1, i1);
        lane_stage<2, A>(r, i, r2, i2);
        if constexpr (W > 4) lane_stage<4, A>(r, i, r4, i4);
        if constexpr (W > 8) lane_stage<8, A>(r, i, r8, i8);
    }
};

// Register k of the bit-reversed input: lane l = in[rev(k W + l)], built from scalars in registers
// (storing the reversed copy and loading it back as vectors stalls on store forwarding: it made n = 16
// and 32 slower than n = 64).
template <class A, std::size_t... L>
inline vf<A> load_bit_reversed(const float* in, std::size_t k, unsigned log2_n, std::index_sequence<L...>) noexcept {
    constexpr std::size_t W = sizeof...(L);
    return vf<A>({in[std::uint32_t(reversed_byte.v[k * W + L]) >> (8 - log2_n)]...});
}

// Bit-reversal copy fused with the stages h < lanes<A>, out of place, for lanes<A> <= n < 256.
template <class A>
inline void reverse_and_lane_stages(const float* in_re, const float* in_im, float* out_re, float* out_im,
                                    unsigned log2_n, const float* tw) noexcept {
    constexpr std::size_t W = lanes<A>;
    const lane_twiddles<A> lt(tw);
    for (std::size_t k = 0; k < (std::size_t(1) << log2_n) / W; ++k) {
        vf<A> r = load_bit_reversed<A>(in_re, k, log2_n, std::make_index_sequence<W>());
        vf<A> i = load_bit_reversed<A>(in_im, k, log2_n, std::make_index_sequence<W>());
        lt.apply(r, i);
        store_f<A>(out_re + k * W, r);
        store_f<A>(out_im + k * W, i);
    }
}

// All stages h < lanes<A> in one pass over data already in bit-reversed order (n >= lanes<A>).
template <class A>
inline void lane_stages(float* re, float* im, std::size_t n, const float* tw) noexcept {
    constexpr std::size_t W = lanes<A>;
    const lane_twiddles<A> lt(tw);
    for (std::size_t k = 0; k < n; k += W) {
        vf<A> r = load_f<A>(re + k), i = load_f<A>(im + k);
        lt.apply(r, i);
        store_f<A>(re + k, r);
        store_f<A>(im + k, i);
    }
}

// W x W transpose of rows[0..W) in registers: rounds exchange blocks of size s = 1, 2, 4, 8.
template <unsigned S, class A>
inline void transpose_round(vf<A>* rows) noexcept {
    constexpr std::size_t W = lanes<A>;
    if constexpr (S < W) {
        KFM_UNROLL(16)
        for (std::size_t r = 0; r < W; ++r) {
            if (r & S) continue;
            const vf<A> a = rows[r], b = rows[r + S];
            rows[r] = blend_upper<S, A>(partner<S>(b), a);
            rows[r + S] = blend_upper<S, A>(b, partner<S>(a));
        }
    }
}
template <class A>
KFM_ALWAYS_INLINE void transpose(vf<A>* rows) noexcept {
#if XSIMD_WITH_AVX
    // AVX 8 x 8: in-lane unpacks and two-source shuffles for rounds 1 and 2, 128-bit inserts / permutes
    // for round 4: 24 shuffles, against 24 cross-lane permutes and 24 blends for the generic rounds.
    if constexpr (std::is_base_of<xsimd::avx, A>::value && lanes<A> == 8) {
        __m256 t[8], u[8];
        KFM_UNROLL(4)
        for (int q = 0; q < 8; q += 2) {
            t[q] = _mm256_unpacklo_ps(rows[q], rows[q + 1]);      // rows q, q+1: columns 0 1 | 4 5
            t[q + 1] = _mm256_unpackhi_ps(rows[q], rows[q + 1]);  // columns 2 3 | 6 7
        }
        KFM_UNROLL(2)
        for (int q = 0; q < 8; q += 4) {  // u[q + c] = column c | column c + 4 of rows q .. q + 3
            u[q + 0] = _mm256_shuffle_ps(t[q], t[q + 2], 0x44);
            u[q + 1] = _mm256_shuffle_ps(t[q], t[q + 2], 0xee);
            u[q + 2] = _mm256_shuffle_ps(t[q + 1], t[q + 3], 0x44);
            u[q + 3] = _mm256_shuffle_ps(t[q + 1], t[q + 3], 0xee);
        }
        KFM_UNROLL(4)
        for (int c = 0; c < 4; ++c) {
            rows[c] = vf<A>(_mm256_insertf128_ps(u[c], _mm256_castps256_ps128(u[c + 4]), 1));
            rows[c + 4] = vf<A>(_mm256_permute2f128_ps(u[c], u[c + 4], 0x31));
        }
        return;
    }
#endif
#if XSIMD_WITH_SSE2
    // SSE 4 x 4 (the half-width kernel of AVX2): 8 shuffles, against 8 swizzles and 8 blends.
    if constexpr (std::is_base_of<xsimd::sse2, A>::value && lanes<A> == 4) {
        const __m128 t0 = _mm_unpacklo_ps(rows[0], rows[1]);  // columns 0 1 of rows 0, 1 (interleaved)
        const __m128 t1 = _mm_unpacklo_ps(rows[2], rows[3]);
        const __m128 t2 = _mm_unpackhi_ps(rows[0], rows[1]);  // columns 2 3
        const __m128 t3 = _mm_unpackhi_ps(rows[2], rows[3]);
        rows[0] = vf<A>(_mm_movelh_ps(t0, t1));
        rows[1] = vf<A>(_mm_movehl_ps(t1, t0));
        rows[2] = vf<A>(_mm_movelh_ps(t2, t3));
        rows[3] = vf<A>(_mm_movehl_ps(t3, t2));
        return;
    }
#endif
#if XSIMD_WITH_NEON
    // NEON 4 x 4: transposes of 2 x 2 blocks of lanes, then of 64-bit halves: 8 instructions, against 8
    // table lookups and 8 bit selects (plus their index and mask constants) for the generic rounds.
    if constexpr (std::is_base_of<xsimd::neon, A>::value && lanes<A> == 4) {
#if XSIMD_WITH_NEON64
        const float32x4_t t0 = vtrn1q_f32(rows[0], rows[1]), t1 = vtrn2q_f32(rows[0], rows[1]);  // lanes 0 2 | 1 3
        const float32x4_t t2 = vtrn1q_f32(rows[2], rows[3]), t3 = vtrn2q_f32(rows[2], rows[3]);
        const float64x2_t d0 = vreinterpretq_f64_f32(t0), d1 = vreinterpretq_f64_f32(t1);
        const float64x2_t d2 = vreinterpretq_f64_f32(t2), d3 = vreinterpretq_f64_f32(t3);
        rows[0] = vf<A>(vreinterpretq_f32_f64(vtrn1q_f64(d0, d2)));
        rows[1] = vf<A>(vreinterpretq_f32_f64(vtrn1q_f64(d1, d3)));
        rows[2] = vf<A>(vreinterpretq_f32_f64(vtrn2q_f64(d0, d2)));
        rows[3] = vf<A>(vreinterpretq_f32_f64(vtrn2q_f64(d1, d3)));
#else
        const float32x4x2_t t01 = vtrnq_f32(rows[0], rows[1]), t23 = vtrnq_f32(rows[2], rows[3]);
        rows[0] = vf<A>(vcombine_f32(vget_low_f32(t01.val[0]), vget_low_f32(t23.val[0])));
        rows[1] = vf<A>(vcombine_f32(vget_low_f32(t01.val[1]), vget_low_f32(t23.val[1])));
        rows[2] = vf<A>(vcombine_f32(vget_high_f32(t01.val[0]), vget_high_f32(t23.val[0])));
        rows[3] = vf<A>(vcombine_f32(vget_high_f32(t01.val[1]), vget_high_f32(t23.val[1])));
#endif
        return;
    }
#endif
#if KFM_MVE
    if constexpr (std::is_same<mve_arch, A>::value) return mve_transpose(rows);  // interleaving store (mve.hpp)
#endif
    transpose_round<1, A>(rows);
    transpose_round<2, A>(rows);
    transpose_round<4, A>(rows);
    transpose_round<8, A>(rows);
}

// Bit reversal of a lane or row index k < W (a constant once the loops over k are unrolled).
template <class A>
constexpr std::size_t rev_lane(std::size_t k) noexcept {
    std::size_t r = 0;
    for (std::size_t bit = 1; bit < lanes<A>; bit *= 2) r = 2 * r + ((k & bit) != 0 ? 1 : 0);
    return r;
}

// Bit-reversal copy fused with the stages h < W, without gathers or lane shuffles in the butterflies
// (n >= W^2). Index i = (a, b, c) with a, c < W the top and bottom log2 W bits; rev(i) = (rev c, rev b,
// rev a). For each b the W x W tile M[a][c] is loaded with its rows in bit-reversed order, so row k holds
// output lane k of W output registers: the stages h < W pair whole rows (k, k + h) with one broadcast
// twiddle each. Then the tile is transposed and row c stored at (rev c, rev b, 0). Tile b is stored
// exactly where tile rev b was read, so in place the two are loaded before either is stored.
template <class A>
struct fft_tile {
    vf<A> re[lanes<A>], im[lanes<A>];
};

template <class A>
KFM_ALWAYS_INLINE void load_tile_first_stages(fft_tile<A>& t, const float* in_re, const float* in_im, std::size_t b,
                                   std::size_t row_stride, const float* tw) noexcept {
    constexpr std::size_t W = lanes<A>;
    vf<A>* re = t.re;
    vf<A>* im = t.im;
    KFM_UNROLL(16)
    for (std::size_t k = 0; k < W; ++k) {
        const std::size_t src = rev_lane<A>(k) * row_stride + b * W;
        re[k] = load_f<A>(in_re + src);
        im[k] = load_f<A>(in_im + src);
    }
    KFM_UNROLL(4)
    for (unsigned level = 0; (std::size_t(2) << level) <= W; ++level) {  // stage h = 2^level
        const std::size_t h = std::size_t(1) << level;
        const float* w_re = tw + fft_layout::stage_offset(h);
        const float* w_im = w_re + h;
        KFM_UNROLL(8)
        for (std::size_t p = 0; p < W / 2; ++p) {
            const std::size_t j = p % h, k = (p / h) * 2 * h + j;  // rows k and k + h
            if (2 * j == h) {  // w_{h/2} = -i: (a + (-i) b, a - (-i) b), no multiply or negation
                const vf<A> br = re[k + h], bi = im[k + h];
                re[k + h] = re[k] - bi;
                im[k + h] = im[k] + br;
                re[k] = re[k] + bi;
                im[k] = im[k] - br;
                continue;
            }
            vf<A> tr, ti;  // w_j b, with w_0 = 1 multiplication-free
            if (j == 0) {
                tr = re[k + h];
                ti = im[k + h];
            } else {
                const vf<A> wr(w_re[j]), wi(w_im[j]);
                tr = sub_mul<A>(wi, im[k + h], wr * re[k + h]);
                ti = mul_add<A>(wi, re[k + h], wr * im[k + h]);
            }
            re[k + h] = re[k] - tr;
            im[k + h] = im[k] - ti;
            re[k] = re[k] + tr;
            im[k] = im[k] + ti;
        }
    }
}

// Transposes one W x W block of rows and stores transposed row c at out + rev(c) row_stride.
// (Storing the AVX transpose's last round as 128-bit halves instead measured 25% slower at n = 256.)
template <class A>
inline void transpose_store(vf<A>* rows, float* out, std::size_t row_stride) noexcept {
    constexpr std::size_t W = lanes<A>;
#if KFM_MVE
    if constexpr (std::is_same<mve_arch, A>::value) return mve_scatter_columns(rows, out, row_stride);
#endif
    transpose<A>(rows);
    KFM_UNROLL(16)
    for (std::size_t c = 0; c < W; ++c) store_f<A>(out + rev_lane<A>(c) * row_stride, rows[c]);
}

template <class A>
inline void store_tile(fft_tile<A>& t, float* out_re, float* out_im, std::size_t rb,
                       std::size_t row_stride) noexcept {
    constexpr std::size_t W = lanes<A>;
    transpose_store<A>(t.re, out_re + rb * W, row_stride);
    transpose_store<A>(t.im, out_im + rb * W, row_stride);
}

// n == T W^2 (T = 1 or 2 tiles): the tiles are the whole transform, so the stages h >= W run on them in
// registers before the one store (no pass over memory). Tile b's transposed row c is output register
// p = T rev c + b (elements p W .. p W + W - 1); stage h = s W pairs registers p and p + s with the
// twiddles w_{(p mod s) W + lane}, plain vector loads. T = 2 is n = 32 on 4 lanes, where a second pass
// over memory cost more than FFTW's whole transform.
template <std::size_t T, class A>
inline void whole_tile_transform(const float* in_re, const float* in_im, float* out_re, float* out_im,
                                 const float* tw) noexcept {
    constexpr std::size_t W = lanes<A>, P = T * W;  // P output registers
    vf<A> re[P], im[P];
    KFM_UNROLL(2)
    for (std::size_t b = 0; b < T; ++b) {
        fft_tile<A> t;
        load_tile_first_stages<A>(t, in_re, in_im, b, T * W, tw);
        transpose<A>(t.re);
        transpose<A>(t.im);
        KFM_UNROLL(16)
        for (std::size_t c = 0; c < W; ++c) {
            re[T * rev_lane<A>(c) + b] = t.re[c];
            im[T * rev_lane<A>(c) + b] = t.im[c];
        }
    }
    KFM_UNROLL(16)
    for (std::size_t s = 1; s < P; s *= 2) {
        const float* w_re = tw + fft_layout::stage_offset(s * W);
        const float* w_im = w_re + s * W;
        KFM_UNROLL(32)
        for (std::size_t p = 0; p < P; ++p) {
            if (p & s) continue;
            const std::size_t k = (p & (s - 1)) * W;
            butterfly2<A>(re[p], im[p], re[p + s], im[p + s], load_f<A>(w_re + k), load_f<A>(w_im + k));
        }
    }
    KFM_UNROLL(32)
    for (std::size_t p = 0; p < P; ++p) {
        store_f<A>(out_re + p * W, re[p]);
        store_f<A>(out_im + p * W, im[p]);
    }
}

// InPlace is a template parameter: as a run-time flag, GCC spilled the whole tile around the branch.
template <bool InPlace, class A>
inline void reverse_tiles_and_first_stages(const float* in_re, const float* in_im, float* out_re, float* out_im,
                                           unsigned log2_n, const float* tw) noexcept {
    constexpr std::size_t W = lanes<A>;
    constexpr unsigned w = W == 4 ? 2 : W == 8 ? 3 : 4;
    const unsigned mid_bits = log2_n - 2 * w;
    const std::size_t row_stride = std::size_t(1) << (log2_n - w);
    fft_tile<A> t0, t1;
    for (std::size_t b = 0; b < (std::size_t(1) << mid_bits); ++b) {
        const std::size_t rb = mid_bits ? reverse_bits<A>(std::uint32_t(b), mid_bits) : 0;
        if (InPlace && rb < b) continue;  // done together with tile rb
        load_tile_first_stages<A>(t0, in_re, in_im, b, row_stride, tw);
        if (InPlace && rb != b) {
            load_tile_first_stages<A>(t1, in_re, in_im, rb, row_stride, tw);
            store_tile<A>(t1, out_re, out_im, b, row_stride);
        }
        store_tile<A>(t0, out_re, out_im, rb, row_stride);
    }
}

// The inverse is the forward transform with re and im swapped: conj(F(conj x)) == swap(F(swap x)).
inline void swap_re_im(const float*& in_re, const float*& in_im, float*& out_re, float*& out_im) noexcept {
    const float* t = in_re; in_re = in_im; in_im = t;
    float* u = out_re; out_re = out_im; out_im = u;
}

// The 4-lane architecture compiled with the same flags as an 8-lane one (void where there is none).
template <class A>
struct half_width_arch {
    using type = void;
};
#if XSIMD_WITH_FMA3_AVX2 && XSIMD_WITH_SSE4_2
template <>
struct half_width_arch<xsimd::fma3<xsimd::avx2>> {
    using type = xsimd::sse4_2;
};
#endif

#if KFM_MVE
template <class A>
constexpr bool eight_vector_registers = std::is_same<mve_arch, A>::value;
#else
template <class A>
constexpr bool eight_vector_registers = false;
#endif

// Every forward transform but the whole-tile ones (fft_r2_c2c). Out of line: inlined, the tiles' stack
// frame and the saved registers were set up on the whole-tile path too (about a fifth of n = 16 on NEON).
template <class A>
__attribute__((noinline)) void fft_tiles_and_passes(const float* in_re, const float* in_im, float* out_re,
                                                    float* out_im, unsigned log2_n, const float* twiddles) noexcept {
    const std::size_t n = std::size_t(1) << log2_n;
    constexpr std::size_t W = lanes<A>;
    const bool in_place = in_re == out_re || in_im == out_im;
    std::size_t h = 1;
    if constexpr (W >= 4) {
        if (n >= W) {
            if (n >= W * W && in_re == out_re && in_im == out_im) {
                reverse_tiles_and_first_stages<true, A>(out_re, out_im, out_re, out_im, log2_n, twiddles);
            } else if (n >= W * W && !in_place) {
#if KFM_MVE
                if constexpr (std::is_same<mve_arch, A>::value) mve_reverse_first_stages(in_re, in_im, out_re, out_im, log2_n); else
#endif
                reverse_tiles_and_first_stages<false, A>(in_re, in_im, out_re, out_im, log2_n, twiddles);
            } else if (log2_n <= 8 && !in_place) {
                reverse_and_lane_stages<A>(in_re, in_im, out_re, out_im, log2_n, twiddles);
            } else {
                bit_reverse_copy<A>(in_re, in_im, out_re, out_im, log2_n);
                lane_stages<A>(out_re, out_im, n, twiddles);
            }
            h = W;
        }
    }
    if (h == 1) bit_reverse_copy<A>(in_re, in_im, out_re, out_im, log2_n);
    if (h < W) {  // too short for one register: the reference loops
        for (; h < n; h *= 2) radix_pass<2, scalar_arch>(out_re, out_im, n, h, twiddles);
        return;
    }
    // An odd number of stages left: one radix-8 pass first, then radix-4 passes (on AVX2 faster than ending
    // on a radix-2 pass: 1.08x at n = 1024 and 4096, equal at 256, though the 16 data registers spill a little).
    // Except five stages on 8 lanes (n = 256): radix 4 then radix 8 measured 8 % faster (139-146 ns against
    // 153-158 ns, alternating runs); at n = 1024 and 4096 the order made no measurable difference.
#if KFM_MVE
    if constexpr (std::is_same<mve_arch, A>::value) return mve_radix_passes(out_re, out_im, n, h, twiddles);
#endif
    unsigned left = log2_n;  // stages still to do
    for (std::size_t s = h; s > 1; s /= 2) --left;
    if (W == 8 && left == 5) {
        radix_pass<4, A>(out_re, out_im, n, h, twiddles);
        radix_pass<8, A>(out_re, out_im, n, 4 * h, twiddles);
        return;
    }
    if (left % 2 == 1 && left >= 3) {
        radix_pass<8, A>(out_re, out_im, n, h, twiddles);
        h *= 8;
    }
    for (; 4 * h <= n; h *= 4) radix_pass<4, A>(out_re, out_im, n, h, twiddles);
    if (2 * h <= n) radix_pass<2, A>(out_re, out_im, n, h, twiddles);
}

template <class A>
void fft_r2_c2c(const float* in_re, const float* in_im, float* out_re, float* out_im, unsigned log2_n,
                const float* twiddles, bool inverse) noexcept {
    const std::size_t n = std::size_t(1) << log2_n;
    constexpr std::size_t W = lanes<A>;
    // 16 <= n < 64 on 8 lanes: the 4-lane kernel reaches its tile path (n >= 16), where the 8-lane one
    // needs scalar gathers and in-register lane shuffles.
    using Half = typename half_width_arch<A>::type;
    if constexpr (!std::is_void<Half>::value) {
        constexpr std::size_t HW = lanes<Half>;
        if (n >= HW * HW && n < W * W) {
            fft_r2_c2c<Half>(in_re, in_im, out_re, out_im, log2_n, twiddles, inverse);
            return;
        }
    }
    if (inverse) swap_re_im(in_re, in_im, out_re, out_im);
    if constexpr (W == 1) {
        fft_scalar(in_re, in_im, out_re, out_im, log2_n, twiddles);
    } else {
        if constexpr (W >= 4) {  // the whole transform in registers: out of place or wholly in place
            const bool in_place = in_re == out_re || in_im == out_im;
            const bool tile_ok = !in_place || (in_re == out_re && in_im == out_im);
            if constexpr (W == 4 && !eight_vector_registers<A>) {  // n = 2 W^2: 16 data registers
                if (n == 2 * W * W && tile_ok)
                    return whole_tile_transform<2, A>(in_re, in_im, out_re, out_im, twiddles);
            }
            if (n == W * W && tile_ok) return whole_tile_transform<1, A>(in_re, in_im, out_re, out_im, twiddles);
        }
        fft_tiles_and_passes<A>(in_re, in_im, out_re, out_im, log2_n, twiddles);
    }
}

}  // namespace
}  // namespace kfm::detail::kern
