// Interleaved batch FFT, written once over the architecture A: L = lanes<A> split-complex vectors of
// length n transformed together, element k of vector v at re[k * L + v] (same for im). One register holds
// element k of all L vectors, so every stage is vertical: no shuffles, twiddles are broadcast scalars
// from the fft twiddle table (fft_layout.hpp), and the bit reversal moves whole registers.
// Decimation in time: the first pass (radix-2 when log2 n is odd, else radix-4; its only twiddle is 1)
// reads its inputs in bit-reversed order, so out of place the reversal costs nothing; then true radix-4
// passes (3 complex multiplies per group of 4). With L = 1 (scalar) this is the plain FFT.
// The inverse is the forward transform with re and im swapped (conj(F(conj x))), as in fft.hpp.
#pragma once
#include <algorithm>
#include <cstdint>

#include "kernels/fft.hpp"

namespace kfm::detail::kern {
namespace {

// Complex register pair (element k of L vectors).
template <class A>
struct cvec {
    vf<A> re, im;
};

template <class A>
inline cvec<A> load_c(const float* re, const float* im, std::size_t k) noexcept {
    return {load_f<A>(re + k * lanes<A>), load_f<A>(im + k * lanes<A>)};
}
template <class A>
inline void store_c(float* re, float* im, std::size_t k, const cvec<A>& x) noexcept {
    store_f<A>(re + k * lanes<A>, x.re);
    store_f<A>(im + k * lanes<A>, x.im);
}

// x * (wr + i wi) with a broadcast twiddle.
template <class A>
inline cvec<A> mul_twiddle(const cvec<A>& x, float wr, float wi) noexcept {
    const vf<A> r(wr), i(wi);
    return {neg_mul_add<A>(i, x.im, r * x.re), mul_add<A>(i, x.re, r * x.im)};
}

// Radix-4 DIT butterfly on x0..x3 = a0, u^2 a1, u a2, u^3 a3 (twiddles already applied): the two stages
// h and 2h of a group {j, j + h, j + 2h, j + 3h}; the second stage's twiddle for the odd pair is u (-i).
template <class A>
inline void radix4_butterfly(cvec<A>* x) noexcept {
    const vf<A> t0r = x[0].re + x[1].re, t0i = x[0].im + x[1].im;
    const vf<A> t1r = x[0].re - x[1].re, t1i = x[0].im - x[1].im;
    const vf<A> t2r = x[2].re + x[3].re, t2i = x[2].im + x[3].im;
    const vf<A> t3r = x[2].re - x[3].re, t3i = x[2].im - x[3].im;
    x[0] = {t0r + t2r, t0i + t2i};
    x[2] = {t0r - t2r, t0i - t2i};
    x[1] = {t1r + t3i, t1i - t3r};  // t1 + (-i) t3
    x[3] = {t1r - t3i, t1i + t3r};
}

// First pass (stage h = 1, or stages 1 and 2): groups of R consecutive output elements, read from the
// input in bit-reversed order when `reverse` (out of place), or in place from out when not.
// Only the output elements [begin, end) (multiples of R).
template <std::size_t R, class A>
inline void batch_first_pass(const float* in_re, const float* in_im, float* out_re, float* out_im,
                             unsigned log2_n, bool reverse, std::size_t begin, std::size_t end) noexcept {
    const std::size_t n = std::size_t(1) << log2_n;
    const unsigned group_bits = log2_n - (R == 4 ? 2 : 1);
    const std::size_t quarter = n / R;  // rev_n(R g + m) = rev_R(m) n / R + rev_{n/R}(g)
    for (std::size_t g = begin / R; g < end / R; ++g) {
        cvec<A> x[R];
        if (reverse) {
            const std::size_t rg = group_bits ? reverse_bits<A>(std::uint32_t(g), group_bits) : 0;
            #pragma GCC unroll 4
            for (std::size_t m = 0; m < R; ++m) {
                const std::size_t rm = R == 4 ? ((m & 1) << 1 | (m >> 1)) : m;
                x[m] = load_c<A>(in_re, in_im, rm * quarter + rg);
            }
        } else {
            #pragma GCC unroll 4
            for (std::size_t m = 0; m < R; ++m) x[m] = load_c<A>(out_re, out_im, R * g + m);
        }
        if constexpr (R == 4) {
            radix4_butterfly<A>(x);
        } else {
            const cvec<A> a = x[0];
            x[0] = {a.re + x[1].re, a.im + x[1].im};
            x[1] = {a.re - x[1].re, a.im - x[1].im};
        }
        #pragma GCC unroll 4
        for (std::size_t m = 0; m < R; ++m) store_c<A>(out_re, out_im, R * g + m, x[m]);
    }
}

// Radix-4 pass fusing stages h and 2h in place. Group column j uses u = w_j of stage 2h, u^2 = w_j of
// stage h and u^3 = w_{3j} of stage 2h (= -w_{3j-2h} past the table's end), all exact table entries.
template <class A>
inline void batch_radix4_pass(float* re, float* im, std::size_t n, std::size_t h, const float* tw) noexcept {
    const float* w1_re = tw + fft_layout::stage_offset(h);
    const float* w1_im = w1_re + h;
    const float* w2_re = tw + fft_layout::stage_offset(2 * h);
    const float* w2_im = w2_re + 2 * h;
    for (std::size_t base = 0; base < n; base += 4 * h) {
        for (std::size_t j = 0; j < h; ++j) {
            cvec<A> x[4];
            #pragma GCC unroll 4
            for (std::size_t m = 0; m < 4; ++m) x[m] = load_c<A>(re, im, base + j + m * h);
            if (j != 0) {  // w_0 = 1
                const std::size_t k3 = 3 * j;
                const float u3r = k3 < 2 * h ? w2_re[k3] : -w2_re[k3 - 2 * h];
                const float u3i = k3 < 2 * h ? w2_im[k3] : -w2_im[k3 - 2 * h];
                x[1] = mul_twiddle<A>(x[1], w1_re[j], w1_im[j]);
                x[2] = mul_twiddle<A>(x[2], w2_re[j], w2_im[j]);
                x[3] = mul_twiddle<A>(x[3], u3r, u3i);
            }
            radix4_butterfly<A>(x);
            #pragma GCC unroll 4
            for (std::size_t m = 0; m < 4; ++m) store_c<A>(re, im, base + j + m * h, x[m]);
        }
    }
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
            const cvec<A> a = load_c<A>(out_re, out_im, k), b = load_c<A>(out_re, out_im, r);
            store_c<A>(out_re, out_im, k, b);
            store_c<A>(out_re, out_im, r, a);
        }
    }
}

template <class A>
void fft_batch_interleaved(const float* in_re, const float* in_im, float* out_re, float* out_im, unsigned log2_n,
                           const float* twiddles, bool inverse) noexcept {
    if (inverse) swap_re_im(in_re, in_im, out_re, out_im);
    const std::size_t n = std::size_t(1) << log2_n;
    const bool in_place = in_re == out_re || in_im == out_im;
    if (in_place) batch_reverse_in_place<A>(in_re, in_im, out_re, out_im, log2_n);
    // Blocks of `block` elements (16 KB of re and im, L1-resident) go through the first pass and every
    // radix-4 pass that stays inside one block before the next block starts; the passes with larger
    // groups then run over the whole array (1.2x faster at n = 1024 on AVX2 than pass by pass).
    constexpr std::size_t L = lanes<A>;
    const std::size_t block = std::min(n, std::size_t(2048) / L);
    const std::size_t h0 = log2_n % 2 != 0 ? 2 : 4;  // after the first pass
    for (std::size_t b = 0; b < n; b += block) {
        if (h0 == 2) batch_first_pass<2, A>(in_re, in_im, out_re, out_im, log2_n, !in_place, b, b + block);
        else batch_first_pass<4, A>(in_re, in_im, out_re, out_im, log2_n, !in_place, b, b + block);
        for (std::size_t h = h0; 4 * h <= block; h *= 4)
            batch_radix4_pass<A>(out_re + b * L, out_im + b * L, block, h, twiddles);
    }
    std::size_t h = h0;
    while (4 * h <= block) h *= 4;
    for (; h < n; h *= 4) batch_radix4_pass<A>(out_re, out_im, n, h, twiddles);
}

}  // namespace
}  // namespace kfm::detail::kern
