// One vector, stored contiguously, through exactly the floating-point operations that each lane of the
// interleaved batch FFT (fft_batch.hpp) performs, vectorised along the vector: a row transformed alone gets
// the bits it gets in any batch (the SSF projection's single rows, runtime/projection_ssf.cpp), at the
// speed of a single-vector FFT rather than of a batch padded with zero rows.
//
// Every lane of fft_batch_interleaved runs the radix-2 decimation-in-time butterflies (a, b) <- (a + t,
// a - t) of the textbook FFT; its radix passes only decide how t is rounded (radix_stages), by the column
// c < h of the butterfly in stage h and by whether stage h begins a pass:
//   - c = 0, or c = h / 2 in a stage that does not begin its pass (twiddle 1 or -i in the group of column 0):
//     t = b, or -i b = (b.im, -b.re), no multiply;
//   - otherwise, in a stage that begins its pass: t = w_c b, rounded as butterfly2 rounds it;
//   - otherwise, c < h / 2: the same; c > h / 2: t = -i (w_{c - h/2} b), the product rounded first
//     (butterfly2_minus_i).
// Neither the order of the passes nor the data layout enters, so this kernel runs the same butterflies stage
// by stage along the bit-reversed vector, with the batch's pass starts (batch_pass_starts). The batch FFT's
// depth-first leaves and its first pass's reads in bit-reversed order move data, not values.
//
// Layout of the work: the stages h < 2 W (W = lanes of V) in one pass over pairs of registers, read in
// bit-reversed order (stages h < W inside each register: a lane swizzle brings each butterfly's partner
// across; stage W between the two registers), then the stages h >= 2 W as vector loops over W columns at a
// time. Those first stages belong to the leaf's first two passes, whose radix (4 or 8, fft_batch.hpp's
// batch_radix_bits) fixes at compile time which of them begin a pass. Vectors shorter than 2 W take the
// one-lane instance, which runs every stage as a loop over its columns. V must round as the batch FFT's architecture does (mul_add fused on both or on neither:
// vec.hpp), which holds for the narrower architecture of the same translation unit.
#pragma once
#include <cstdint>
#include <utility>

#include "kernels/fft_batch.hpp"

namespace kfm::detail::kern {
namespace {

// How the batch FFT rounds the butterfly of column c in stage h (fused: the stage does not begin its
// pass): t = w_idx b, rotated by -i when minus_i; idx == 0 is the multiply-free twiddle 1 or -i.
struct column_rule {
    std::size_t idx;
    bool minus_i;
};
constexpr column_rule rule_of(std::size_t c, std::size_t h, bool fused) noexcept {
    const bool minus_i = fused && 2 * c >= h && h > 1;
    return {minus_i ? c - h / 2 : c, minus_i};
}

// Whether stage 2^s begins a pass when the leaf's first pass has radix 2^first_bits: the first pass, then
// radix-4 passes (batch_radix_bits; only these first stages are asked, all inside the leaf).
constexpr bool stage_fused(unsigned s, unsigned first_bits) noexcept {
    return !(s == 0 || (s >= first_bits && (s - first_bits) % 2 == 0));
}

// Lane i of a register holds column i mod H of stage H (H <= W): its rule as compile-time lane masks.
template <std::size_t H, bool Fused>
struct lane_multiply_free {
    static constexpr bool get(std::size_t i, std::size_t) { return rule_of(i % H, H, Fused).idx == 0; }
};
template <std::size_t H, bool Fused>
struct lane_minus_i {
    static constexpr bool get(std::size_t i, std::size_t) { return rule_of(i % H, H, Fused).minus_i; }
};
template <class G, std::size_t W>
constexpr bool any_lane() noexcept {
    for (std::size_t i = 0; i < W; ++i)
        if (G::get(i, W)) return true;
    return false;
}
template <class G, std::size_t W>
constexpr bool all_lanes() noexcept {
    for (std::size_t i = 0; i < W; ++i)
        if (!G::get(i, W)) return false;
    return true;
}
template <class V, class G>
KFM_ALWAYS_INLINE auto lane_mask() noexcept {
    if constexpr (lanes<V> == 1) return G::get(0, 1);
    else return xsimd::make_batch_bool_constant<vf<V>, G>();
}
// Lanes where mask is set from if_set, the others from if_clear (one lane: a bool).
template <class V, class M>
KFM_ALWAYS_INLINE vf<V> pick(const M& mask, const vf<V>& if_set, const vf<V>& if_clear) noexcept {
    if constexpr (lanes<V> == 1) return mask ? if_set : if_clear;
    else return xsimd::select(mask, if_set, if_clear);
}

// -b.re of the multiply-free twiddle -i (radix_stages' column-0 groups) as BatchA's vectors negate: xsimd 8.1
// computes an AVX-512 float's negation as 0 - x (a zero becomes +0), the other ISAs flip the sign bit.
template <class BatchA, class V>
KFM_ALWAYS_INLINE vf<V> batch_negate(const vf<V>& x) noexcept {
#if XSIMD_WITH_AVX512F
    if constexpr (std::is_base_of<xsimd::avx512f, BatchA>::value) return vf<V>(0.0f) - x;
#endif
    return -x;
}

// p = w b, rounded as butterfly2 rounds it.
template <class V>
KFM_ALWAYS_INLINE void times_twiddle(const vf<V>& br, const vf<V>& bi, const vf<V>& wr, const vf<V>& wi, vf<V>& pr,
                                     vf<V>& pi) noexcept {
    pr = sub_mul<V>(wi, bi, wr * br);
    pi = mul_add<V>(wi, br, wr * bi);
}

// The twiddles of stage H <= W for a register whose lane i holds column i mod H: lane i = w_idx of stage H
// (lanes with the multiply-free twiddle hold w_0, unused). Read once per call as two vector loads and lane
// permutations (the table holds at least W floats from stage H's imaginary parts on, as n >= 2 W).
template <std::size_t H, bool Fused>
struct twiddle_lane {
    static constexpr std::uint32_t get(std::size_t i, std::size_t) { return std::uint32_t(rule_of(i % H, H, Fused).idx); }
};
template <class V, std::size_t H, bool Fused>
struct register_twiddles {
    vf<V> wr, wi;
    explicit register_twiddles(const float* tw) noexcept {
        const float* w_re = tw + fft_layout::stage_offset(H);
        const auto lane = xsimd::make_batch_constant<xsimd::batch<std::uint32_t, V>, twiddle_lane<H, Fused>>();
        wr = xsimd::swizzle(load_f<V>(w_re), lane);
        wi = xsimd::swizzle(load_f<V>(w_re + H), lane);
    }
};

// Lanes where the product is rotated by -i (the rule's minus_i on a lane with a multiply).
template <std::size_t H, bool Fused>
struct lane_rotated_product {
    static constexpr bool get(std::size_t i, std::size_t w) {
        return lane_minus_i<H, Fused>::get(i, w) && !lane_multiply_free<H, Fused>::get(i, w);
    }
};

// (lo, hi) = (a + t, a - t) for the butterflies whose b is (br, bi), in registers laid out as
// register_twiddles describes: t = w b, or b itself where the twiddle is 1 or -i, rotated by -i where the
// rule says so (-i t = (t.im, -t.re)). As the batch FFT computes them: b's real part negated for the
// multiply-free -i (batch_negate), and a rotated product p entering as a.im - p.re and a.im + p.re
// (butterfly2_minus_i), never through a negated p: compilers fold a negated fused multiply-add into the
// opposite one, which rounds the sign of a zero differently.
template <class V, class BatchA, std::size_t H, bool Fused>
KFM_ALWAYS_INLINE void register_butterfly(const vf<V>& ar, const vf<V>& ai, const vf<V>& br, const vf<V>& bi,
                                          const register_twiddles<V, H, Fused>& w, vf<V>& lo_r, vf<V>& lo_i,
                                          vf<V>& hi_r, vf<V>& hi_i) noexcept {
    constexpr std::size_t W = lanes<V>;
    using free = lane_multiply_free<H, Fused>;
    using rotated = lane_minus_i<H, Fused>;
    using rotated_product = lane_rotated_product<H, Fused>;
    vf<V> tr = br, ti = bi;  // the multiply-free lanes' t
    if constexpr (any_lane<rotated, W>()) {
        tr = pick<V>(lane_mask<V, rotated>(), bi, br);
        ti = pick<V>(lane_mask<V, rotated>(), batch_negate<BatchA, V>(br), bi);
    }
    if constexpr (!all_lanes<free, W>()) {
        vf<V> pr, pi;
        times_twiddle<V>(br, bi, w.wr, w.wi, pr, pi);
        vf<V> ur = pr, ui = pi;  // the product lanes: t = p, or the rotated p's real part and -imaginary part
        if constexpr (any_lane<rotated_product, W>()) {
            ur = pick<V>(lane_mask<V, rotated_product>(), pi, pr);
            ui = pick<V>(lane_mask<V, rotated_product>(), pr, pi);
        }
        if constexpr (any_lane<free, W>()) {
            tr = pick<V>(lane_mask<V, free>(), tr, ur);
            ti = pick<V>(lane_mask<V, free>(), ti, ui);
        } else {
            tr = ur;
            ti = ui;
        }
    }
    const vf<V> r0 = ar + tr, r1 = ar - tr;  // the outputs may alias a and b
    if constexpr (any_lane<rotated_product, W>()) {
        const vf<V> i0 = pick<V>(lane_mask<V, rotated_product>(), ai - ti, ai + ti);
        hi_i = pick<V>(lane_mask<V, rotated_product>(), ai + ti, ai - ti);
        lo_i = i0;
    } else {
        const vf<V> i0 = ai + ti;
        hi_i = ai - ti;
        lo_i = i0;
    }
    lo_r = r0;
    hi_r = r1;
}

// Stage H < W inside one register: lane i pairs with lane i ^ H (a in the lower lane, b in the upper).
template <class V, class BatchA, std::size_t H, bool Fused>
KFM_ALWAYS_INLINE void register_stage(vf<V>& re, vf<V>& im, const register_twiddles<V, H, Fused>& w) noexcept {
    const vf<V> pr = partner<H>(re), pi = partner<H>(im);
    const vf<V> ar = blend_upper<H, V>(pr, re), ai = blend_upper<H, V>(pi, im);
    const vf<V> br = blend_upper<H, V>(re, pr), bi = blend_upper<H, V>(im, pi);
    vf<V> lo_r, lo_i, hi_r, hi_i;
    register_butterfly<V, BatchA, H, Fused>(ar, ai, br, bi, w, lo_r, lo_i, hi_r, hi_i);
    re = blend_upper<H, V>(hi_r, lo_r);
    im = blend_upper<H, V>(hi_i, lo_i);
}

// Stages 2^S .. 2^(End - 1) of the first pass over a pair of registers (elements 2 W k .. 2 W k + 2 W - 1 in
// bit-reversed order), for a leaf whose first pass has radix 2^FirstBits: stages 2^S < W in each register,
// stage W between the two. Holds each stage's twiddles, read once per call.
template <class V, class BatchA, unsigned FirstBits, unsigned S, unsigned End>
struct first_stages {
    static constexpr std::size_t H = std::size_t(1) << S;
    static constexpr bool fused = stage_fused(S, FirstBits);
    register_twiddles<V, H, fused> w;
    first_stages<V, BatchA, FirstBits, S + 1, End> rest;
    explicit first_stages(const float* tw) noexcept : w(tw), rest(tw) {}
    KFM_ALWAYS_INLINE void run(vf<V> (&re)[2], vf<V> (&im)[2]) const noexcept {
        if constexpr (H < lanes<V>) {
            for (std::size_t v = 0; v < 2; ++v) register_stage<V, BatchA, H, fused>(re[v], im[v], w);
        } else {  // stage W: register 0 holds the a, register 1 the b
            register_butterfly<V, BatchA, H, fused>(re[0], im[0], re[1], im[1], w, re[0], im[0], re[1], im[1]);
        }
        rest.run(re, im);
    }
};
template <class V, class BatchA, unsigned FirstBits, unsigned End>
struct first_stages<V, BatchA, FirstBits, End, End> {
    explicit first_stages(const float*) noexcept {}
    KFM_ALWAYS_INLINE void run(vf<V> (&)[2], vf<V> (&)[2]) const noexcept {}
};

// Register k of the bit-reversed input (log2_n <= 8): lane l = in[rev(k W + l)].
template <class V>
KFM_ALWAYS_INLINE vf<V> load_reversed(const float* in, std::size_t k, unsigned log2_n) noexcept {
    if constexpr (lanes<V> == 1) return in[std::uint32_t(reversed_byte.v[k]) >> (8 - log2_n)];
    else return load_bit_reversed<V>(in, k, log2_n, std::make_index_sequence<lanes<V>>());
}

// Stages h < 2 W on out (n >= 2 W, W >= 4), from in in bit-reversed order (reversed: in is the natural-order
// input; otherwise out already holds the bit-reversed vector). Stages 1 and 2 are the same for a leaf whose
// first pass has radix 4 or 8 (radix8); the later ones are compiled for both.
template <class V, class BatchA>
void row_first_stages(const float* in_re, const float* in_im, float* out_re, float* out_im, unsigned log2_n,
                      bool reversed, bool radix8, const float* tw) noexcept {
    constexpr std::size_t W = lanes<V>;
    constexpr unsigned last = W == 4 ? 2 : W == 8 ? 3 : 4;  // stage W
    static_assert(W >= 4 && W <= 16, "one-lane rows run row_stage alone");
    static_assert(stage_fused(0, 2) == stage_fused(0, 3) && stage_fused(1, 2) == stage_fused(1, 3), "");
    const first_stages<V, BatchA, 2, 0, 2> common(tw);
    const first_stages<V, BatchA, 2, 2, last + 1> radix4_tail(tw);
    const first_stages<V, BatchA, 3, 2, last + 1> radix8_tail(tw);
    for (std::size_t k = 0; k < (std::size_t(1) << log2_n); k += 2 * W) {
        vf<V> re[2], im[2];
        for (std::size_t v = 0; v < 2; ++v) {
            re[v] = reversed ? load_reversed<V>(in_re, k / W + v, log2_n) : load_f<V>(out_re + k + v * W);
            im[v] = reversed ? load_reversed<V>(in_im, k / W + v, log2_n) : load_f<V>(out_im + k + v * W);
        }
        common.run(re, im);
        if (radix8) radix8_tail.run(re, im);
        else radix4_tail.run(re, im);
        for (std::size_t v = 0; v < 2; ++v) {
            store_f<V>(out_re + k + v * W, re[v]);
            store_f<V>(out_im + k + v * W, im[v]);
        }
    }
}

// Stage h >= 2 W on out (every stage for W = 1), W columns j .. j + W - 1 at a time: every lane of a block
// takes the same rule but the multiply-free twiddle, which only lane 0 of the blocks with idx 0 has.
template <class V, class BatchA>
void row_stage(float* re, float* im, std::size_t n, std::size_t h, bool fused, const float* tw) noexcept {
    constexpr std::size_t W = lanes<V>;
    struct lane0 {
        static constexpr bool get(std::size_t i, std::size_t) { return i == 0; }
    };
    const float* w_re = tw + fft_layout::stage_offset(h);
    const float* w_im = w_re + h;
    for (std::size_t j = 0; j < h; j += W) {
        const column_rule rule = rule_of(j, h, fused);
        const vf<V> wr = load_f<V>(w_re + rule.idx), wi = load_f<V>(w_im + rule.idx);
        for (std::size_t base = j; base < n; base += 2 * h) {
            const vf<V> ar = load_f<V>(re + base), ai = load_f<V>(im + base);
            const vf<V> br = load_f<V>(re + base + h), bi = load_f<V>(im + base + h);
            vf<V> pr, pi;
            times_twiddle<V>(br, bi, wr, wi, pr, pi);
            // as register_butterfly: t = p, or -i p entering as (a.re + p.im, a.im - p.re)
            vf<V> lo_r = ar + (rule.minus_i ? pi : pr), hi_r = ar - (rule.minus_i ? pi : pr);
            vf<V> lo_i = rule.minus_i ? ai - pr : ai + pi, hi_i = rule.minus_i ? ai + pr : ai - pi;
            if (rule.idx == 0) {  // lane 0: the multiply-free twiddle 1 or -i
                const vf<V> tr = rule.minus_i ? bi : br, ti = rule.minus_i ? batch_negate<BatchA, V>(br) : bi;
                lo_r = pick<V>(lane_mask<V, lane0>(), ar + tr, lo_r);
                hi_r = pick<V>(lane_mask<V, lane0>(), ar - tr, hi_r);
                lo_i = pick<V>(lane_mask<V, lane0>(), ai + ti, lo_i);
                hi_i = pick<V>(lane_mask<V, lane0>(), ai - ti, hi_i);
            }
            store_f<V>(re + base, lo_r);
            store_f<V>(im + base, lo_i);
            store_f<V>(re + base + h, hi_r);
            store_f<V>(im + base + h, hi_i);
        }
    }
}

// fft_batch_interleaved<BatchA>'s transform of one vector (same signature and aliasing rules as fft),
// vectorised over V.
template <class V, class BatchA>
void fft_batch_row(const float* in_re, const float* in_im, float* out_re, float* out_im, unsigned log2_n,
                   const float* twiddles, bool inverse) noexcept {
    constexpr std::size_t W = lanes<V>;
    if constexpr (W > 1) {
        if ((std::size_t(1) << log2_n) < 2 * W) {
            fft_batch_row<scalar_arch, BatchA>(in_re, in_im, out_re, out_im, log2_n, twiddles, inverse);
            return;
        }
    }
    if (inverse) swap_re_im(in_re, in_im, out_re, out_im);
    const std::uint32_t starts = batch_pass_starts<BatchA>(log2_n);
    unsigned s = 0;
    if constexpr (W > 1) {  // the stages h < 2 W in registers
        const bool reversed = log2_n <= 8 && in_re != out_re && in_im != out_im;
        if (!reversed) bit_reverse_copy<V>(in_re, in_im, out_re, out_im, log2_n);
        // The leaf's first pass has radix 8 or 4 (n >= 2 W >= 8).
        const bool radix8 = batch_radix_bits(batch_log2_leaf<BatchA>(log2_n)) == 3;
        row_first_stages<V, BatchA>(in_re, in_im, out_re, out_im, log2_n, reversed, radix8, twiddles);
        while ((std::size_t(1) << s) < 2 * W) ++s;
    } else {  // one lane: every stage a loop over its columns
        bit_reverse_copy<V>(in_re, in_im, out_re, out_im, log2_n);
    }
    for (; s < log2_n; ++s)
        row_stage<V, BatchA>(out_re, out_im, std::size_t(1) << log2_n, std::size_t(1) << s, ((starts >> s) & 1u) == 0, twiddles);
}

}  // namespace
}  // namespace kfm::detail::kern
