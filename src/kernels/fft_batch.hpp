// Interleaved batch FFT, written once over the architecture A: L = lanes<A> split-complex vectors of
// length n transformed together, element k of vector v at re[k * L + v] (same for im). One register holds
// element k of all L vectors, so every stage is vertical: no shuffles, twiddles are broadcast scalars
// from the fft twiddle table (fft_layout.hpp), and the bit reversal moves whole registers.
// Decimation in time, depth first for the cache: one L-vector array pair is n * L * 8 bytes (64 KiB at
// n = 1024 on AVX2, twice L1), so running every stage over the whole array streams it through L2 on every
// pass. Instead a transform larger than a leaf (16 KiB of re + im) first completes its 4 (or 2)
// sub-transforms, contiguous after the bit reversal and each recursively, then joins them with one
// radix-4 (or radix-2) pass. A leaf runs all its stages while it stays in L1: a first pass (radix 2, 4 or
// 8; twiddles 1, -i, w_8) reading its inputs in bit-reversed order, so out of place the reversal costs no
// extra pass, then radix-4 passes (one radix 8 for an odd stage count). With L = 1 (scalar) this is the
// plain FFT. The inverse is the forward transform with re and im swapped (conj(F(conj x))), as in fft.hpp.
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernels/fft.hpp"

namespace kfm::detail::kern {
namespace {

// Radix-R pass fusing stages h .. (R / 2) h in place on the elements [0, len) of re / im. Columns outer:
// each column's twiddles are broadcast once and stay in registers for all its groups (the data are in
// L1 inside a leaf; a join pass has a single group per column anyway).
template <std::size_t R, class A>
inline void batch_radix_pass(float* re, float* im, std::size_t len, std::size_t h, const float* tw) noexcept {
    constexpr std::size_t L = lanes<A>;
    const std::size_t stride = h * L;
    {
        const radix_twiddles<R, A, true> w(tw, h, 0);
        for (std::size_t base = 0; base < len; base += R * h)
            radix_group<R, false, true, A>(re + base * L, im + base * L, stride, re + base * L, im + base * L, stride, w);
    }
    for (std::size_t j = 1; j < h; ++j) {
        const radix_twiddles<R, A, true> w(tw, h, j);
        for (std::size_t base = j; base < len; base += R * h)
            radix_group<R, false, false, A>(re + base * L, im + base * L, stride, re + base * L, im + base * L, stride, w);
    }
}

// Radix bits of the next leaf pass when `stages` stages are left: radix 4, with one radix 8 (16 data
// registers) for an odd count, radix 2 only for a single stage. (Radix 8 throughout measured 1.1x slower
// on AVX2 at n = 1024: it spills; AVX-512's 7-stage leaves split the same way either way.)
constexpr unsigned batch_radix_bits(unsigned stages) noexcept {
    if (stages <= 2) return stages;
    return stages % 2 == 1 ? 3 : 2;
}

// Leaf size (log2) for n = 2^log2_n: 2048 / L elements, 16 KiB of re and im (half of L1, the rest for the
// input and twiddles; a 32 KiB leaf measured 1.4x slower at n = 512 and 2048 on AVX2), or the whole transform.
template <class A>
constexpr unsigned batch_log2_leaf(unsigned log2_n) noexcept {
    constexpr unsigned log2_leaf_max = lanes<A> == 16 ? 7 : lanes<A> == 8 ? 8 : lanes<A> == 4 ? 9 : 11;
    return log2_n <= log2_leaf_max ? log2_n : log2_leaf_max;
}

// Stages of the pass joining the sub-transforms of a 2^log2_len block above the leaf: radix 4, with one
// radix-2 join at the top for an odd number of stages above the leaf (batch_subtransform).
constexpr unsigned batch_join_bits(unsigned log2_len, unsigned log2_leaf) noexcept {
    return (log2_len - log2_leaf) % 2 != 0 ? 1 : 2;
}

// The stages that begin a pass of fft_batch_interleaved<A> for n = 2^log2_n: bit s set for stage h = 2^s.
// The leaf's passes (batch_radix_bits from stage 0), then the joins. Together with the column of each
// butterfly they fix the floating-point operations of every lane (fft_batch_row.hpp).
template <class A>
constexpr std::uint32_t batch_pass_starts(unsigned log2_n) noexcept {
    const unsigned log2_leaf = batch_log2_leaf<A>(log2_n);
    std::uint32_t starts = 0;
    for (unsigned done = 0; done < log2_leaf; done += batch_radix_bits(log2_leaf - done)) starts |= 1u << done;
    for (unsigned len = log2_n; len > log2_leaf;) {
        const unsigned bits = batch_join_bits(len, log2_leaf);
        len -= bits;
        starts |= 1u << len;
    }
    return starts;
}

template <class A>
struct batch_fft_plan {
    const float* in_re;  // bit-reversed source of the first passes (out itself when in place)
    const float* in_im;
    float* out_re;
    float* out_im;
    unsigned log2_n;
    unsigned log2_leaf;  // leaf size: all its stages run while it stays in L1
    bool reversed;       // in_* is the natural-order input (out of place)
    const float* tw;
};

// Leaf: output elements [b, b + 2^log2_len) through all stages h < 2^log2_len.
template <class A>
inline void batch_leaf(const batch_fft_plan<A>& p, std::size_t b, unsigned log2_len) noexcept {
    constexpr std::size_t L = lanes<A>;
    const std::size_t len = std::size_t(1) << log2_len;
    const unsigned first_bits = batch_radix_bits(log2_len);
    const std::size_t r0 = std::size_t(1) << first_bits;
    // First pass, stages h < r0: output group g (elements r0 g + m) reads its inputs from
    // rev_n(r0 g + m) = rev_r0(m) n / r0 + rev_{n / r0}(g) when reversed, else in place. With
    // g = g_hi len / r0 + g_lo, rev_{n / r0}(g) = rev(g_lo) n / len + rev(g_hi): the groups are taken in the
    // order t = rev(g_lo), so each of the r0 input streams advances by the constant stride n / len (the
    // hardware prefetcher follows it; output order within the L1-resident leaf is free). In output order
    // the reads jumped around the whole input: 1.7x slower leaves at n = 1024 on AVX2.
    const unsigned group_bits = p.log2_n - first_bits, leaf_group_bits = log2_len - first_bits;
    const std::size_t in_stride = p.reversed ? (std::size_t(1) << group_bits) * L : L;
    float* out_re = p.out_re + b * L;
    float* out_im = p.out_im + b * L;
    auto first_pass = [&](auto radix) {
        constexpr std::size_t R = decltype(radix)::value;
        const radix_twiddles<R, A, true> w(p.tw, 1, 0);
        const std::size_t groups = len / R;
        if (p.reversed) {
            const std::size_t g_hi = b / len, src_step = std::size_t(1) << (group_bits - leaf_group_bits);
            const std::size_t src0 = group_bits > leaf_group_bits ? reverse_bits<A>(std::uint32_t(g_hi), group_bits - leaf_group_bits) : 0;
            for (std::size_t t = 0; t < groups; ++t) {
                const std::size_t g_lo = leaf_group_bits ? reverse_bits<A>(std::uint32_t(t), leaf_group_bits) : 0;
                const std::size_t src = src0 + t * src_step;
                radix_group<R, true, true, A>(p.in_re + src * L, p.in_im + src * L, in_stride, out_re + R * g_lo * L,
                                              out_im + R * g_lo * L, L, w);
            }
        } else {
            for (std::size_t g = 0; g < groups; ++g)
                radix_group<R, false, true, A>(out_re + R * g * L, out_im + R * g * L, L, out_re + R * g * L,
                                               out_im + R * g * L, L, w);
        }
    };
    if (r0 == 2) first_pass(std::integral_constant<std::size_t, 2>());
    else if (r0 == 4) first_pass(std::integral_constant<std::size_t, 4>());
    else first_pass(std::integral_constant<std::size_t, 8>());
    unsigned done = first_bits;
    while (done < log2_len) {
        const unsigned bits = batch_radix_bits(log2_len - done);
        const std::size_t h = std::size_t(1) << done;
        if (bits == 3) batch_radix_pass<8, A>(out_re, out_im, len, h, p.tw);
        else if (bits == 2) batch_radix_pass<4, A>(out_re, out_im, len, h, p.tw);
        else batch_radix_pass<2, A>(out_re, out_im, len, h, p.tw);
        done += bits;
    }
}

// Elements [b, b + 2^log2_len) through all stages h < 2^log2_len, depth first: the 4 (or 2)
// sub-transforms one after the other, then one pass joining them (its stages h >= sub). Joins are
// radix 4, with one radix-2 join at the top for an odd number of stages above the leaf: a radix-8
// join runs 16 streams at a power-of-two stride (2x slower at n = 2048 on AVX2, n = 1024 on AVX-512:
// the L1 sets thrash), and a smaller leaf instead of the radix-2 join measured 1.15x slower at 2048.
template <class A>
inline void batch_subtransform(const batch_fft_plan<A>& p, std::size_t b, unsigned log2_len) noexcept {
    if (log2_len <= p.log2_leaf) {
        batch_leaf<A>(p, b, log2_len);
        return;
    }
    constexpr std::size_t L = lanes<A>;
    const unsigned bits = batch_join_bits(log2_len, p.log2_leaf);
    const unsigned log2_sub = log2_len - bits;
    const std::size_t sub = std::size_t(1) << log2_sub, len = std::size_t(1) << log2_len;
    for (std::size_t s = b; s < b + len; s += sub) batch_subtransform<A>(p, s, log2_sub);
    float* re = p.out_re + b * L;
    float* im = p.out_im + b * L;
    if (bits == 2) batch_radix_pass<4, A>(re, im, len, sub, p.tw);
    else batch_radix_pass<2, A>(re, im, len, sub, p.tw);
}

// Bit-reversal permutation of whole registers in place on out (after copying whichever of re / im is
// not aliased from the input).
template <class A>
inline void batch_reverse_in_place(const float* in_re, const float* in_im, float* out_re, float* out_im,
                                   unsigned log2_n) noexcept {
    constexpr std::size_t L = lanes<A>;
    const std::size_t n = std::size_t(1) << log2_n;
    for (std::size_t k = 0; in_re != out_re && k < n; ++k) store_f<A>(out_re + k * L, load_f<A>(in_re + k * L));
    for (std::size_t k = 0; in_im != out_im && k < n; ++k) store_f<A>(out_im + k * L, load_f<A>(in_im + k * L));
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t r = reverse_bits<A>(std::uint32_t(k), log2_n);
        if (k < r) {
            const vf<A> ar = load_f<A>(out_re + k * L), ai = load_f<A>(out_im + k * L);
            store_f<A>(out_re + k * L, load_f<A>(out_re + r * L));
            store_f<A>(out_im + k * L, load_f<A>(out_im + r * L));
            store_f<A>(out_re + r * L, ar);
            store_f<A>(out_im + r * L, ai);
        }
    }
}

template <class A>
void fft_batch_interleaved(const float* in_re, const float* in_im, float* out_re, float* out_im, unsigned log2_n,
                           const float* twiddles, bool inverse) noexcept {
    if (inverse) swap_re_im(in_re, in_im, out_re, out_im);
    const bool in_place = in_re == out_re || in_im == out_im;
    if (in_place) batch_reverse_in_place<A>(in_re, in_im, out_re, out_im, log2_n);
    const unsigned log2_leaf = batch_log2_leaf<A>(log2_n);
    const batch_fft_plan<A> plan{in_place ? out_re : in_re, in_place ? out_im : in_im, out_re, out_im, log2_n,
                                 log2_leaf, !in_place, twiddles};
    batch_subtransform<A>(plan, 0, log2_n);
}

}  // namespace
}  // namespace kfm::detail::kern
