// The one-lane (scalar_arch) FFT, the scalar table's and so the Cortex-M4F / M7's: radix-4 passes on plain
// float variables, which GCC keeps in registers at -Os as at -O2 (the generic radix groups of fft.hpp hold
// their elements in arrays, which -Os leaves in memory: 2.9-4.1x CMSIS-DSP's instructions there).
//   first pass   the bit-reversal copy fused with the first two stages (radix 4), or three (radix 8) when
//                log2 n is odd; their twiddles are 1, -i and (+-1 - i) / sqrt 2: no table loads. In place,
//                the bit reversal swaps pairs instead and the radix-4 passes start at h = 1.
//   later passes radix 4 over stages h and 2h: each group costs three complex multiplications (by
//                w1 = w_h[j], w2 = w_2h[j] and w1 w2) instead of radix-2 stages' four, with every pointer
//                advanced by write-back loads and stores (radix4_pass).
#pragma once
#include <cstddef>
#include <cstdint>

#include "format/fft_layout.hpp"
#include "kernels/fft_bit_reversal.hpp"
#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

using scalar_v = scalar_arch;

// a * b + c, fused exactly where vec.hpp's mul_add fuses, but always inlined (at -Os GCC calls
// mul_add<scalar_arch> as a function: a call per multiply-add).
KFM_ALWAYS_INLINE float fused_multiply_add(float a, float b, float c) noexcept {
    if constexpr (fused_mul_add) return __builtin_fmaf(a, b, c);
    else return a * b + c;
}

// (re, im) * (wr, wi), rounded as the table's other kernels round.
KFM_ALWAYS_INLINE void complex_multiply(float& re, float& im, float wr, float wi) noexcept {
    const float r = fused_multiply_add(-wi, im, wr * re);
    im = fused_multiply_add(wi, re, wr * im);
    re = r;
}

// The 4-point DFT of the first two stages (twiddles 1 and -i) on elements in bit-reversed order.
KFM_ALWAYS_INLINE void first_radix4(float* r, float* i) noexcept {
    const float a0r = r[0] + r[1], a0i = i[0] + i[1], a1r = r[0] - r[1], a1i = i[0] - i[1];
    const float a2r = r[2] + r[3], a2i = i[2] + i[3], a3r = r[2] - r[3], a3i = i[2] - i[3];
    r[0] = a0r + a2r; i[0] = a0i + a2i;
    r[2] = a0r - a2r; i[2] = a0i - a2i;
    r[1] = a1r + a3i; i[1] = a1i - a3r;  // a1 + (-i) a3
    r[3] = a1r - a3i; i[3] = a1i + a3r;
}

// The first pass, out of place: output group g (elements R g .. R g + R - 1, bit-reversed order) read from
// in[rev(g) + rev_R(m) n / R], m < R, and put through the first log2 R stages.
template <unsigned R>
__attribute__((noinline)) void first_pass(const float* in_re, const float* in_im, float* out_re, float* out_im,
                                          unsigned log2_n) noexcept {
    constexpr unsigned log2_r = R == 4 ? 2 : 3;
    const unsigned group_bits = log2_n - log2_r;
    const std::size_t groups = std::size_t(1) << group_bits;
    std::size_t offset[R];
    KFM_UNROLL(8)
    for (unsigned m = 0; m < R; ++m) {
        const unsigned rev_m = R == 4 ? ((m & 1) << 1 | m >> 1) : ((m & 1) << 2 | (m & 2) | m >> 2);
        offset[m] = rev_m * groups;
    }
    const float half_sqrt2 = 0.70710678118654752f;
    for (std::size_t g = 0; g < groups; ++g) {
        const std::size_t base = group_bits == 0 ? 0 : reverse_bits<scalar_v>(std::uint32_t(g), group_bits);
        const float* src_re = in_re + base;
        const float* src_im = in_im + base;
        float r[R], i[R];
        KFM_UNROLL(8)
        for (unsigned m = 0; m < R; ++m) {
            r[m] = src_re[offset[m]];
            i[m] = src_im[offset[m]];
        }
        first_radix4(r, i);
        if (R == 8) {
            first_radix4(r + 4, i + 4);
            // stage h = 4: element 4 + k times w_k = exp(-i pi k / 4): 1, (1 - i) / sqrt 2, -i, -(1 + i) / sqrt 2
            float t5r = (r[5] + i[5]) * half_sqrt2, t5i = (i[5] - r[5]) * half_sqrt2;
            float t7r = (i[7] - r[7]) * half_sqrt2, t7i = -(r[7] + i[7]) * half_sqrt2;
            const float t6r = i[6], t6i = -r[6];
            const float b4r = r[4], b4i = i[4];
            r[4] = r[0] - b4r; i[4] = i[0] - b4i; r[0] = r[0] + b4r; i[0] = i[0] + b4i;
            r[5] = r[1] - t5r; i[5] = i[1] - t5i; r[1] = r[1] + t5r; i[1] = i[1] + t5i;
            r[6] = r[2] - t6r; i[6] = i[2] - t6i; r[2] = r[2] + t6r; i[2] = i[2] + t6i;
            r[7] = r[3] - t7r; i[7] = i[3] - t7i; r[3] = r[3] + t7r; i[3] = i[3] + t7i;
        }
        KFM_UNROLL(8)
        for (unsigned m = 0; m < R; ++m) {
            out_re[R * g + m] = r[m];
            out_im[R * g + m] = i[m];
        }
    }
}

// Stages h and 2h in place (h >= 4): X0 = x0 + A + (B + C), X2 = x0 + A - (B + C), X1 = x0 - A - i (B - C),
// X3 = x0 - A + i (B - C), with A = w1 x1, B = w2 x2, C = w3 x3, w1 = w_h[j], w2 = w_2h[j], w3 = w1 w2
// (x_k = element j + k h of a group). Groups outer, columns inner: the twelve pointers (four elements and
// two twiddles, each re and im) step by one float, which the M4's load and store multiple instructions
// do for free (write-back), where VFP loads take no register offset. (Columns outer, reusing a column's
// twiddles across its groups, cost more: the last passes have one group per column.) Not inlined: inside
// the transform GCC kept the caller's values in the core registers and the pointers on the stack.
__attribute__((noinline)) void radix4_pass(float* re, float* im, std::size_t n, std::size_t h, const float* tw) noexcept {
    const float* w1_table = tw + fft_layout::stage_offset(h);
    const float* w2_table = tw + fft_layout::stage_offset(2 * h);
    float *r0 = re, *i0 = im;
    for (const float* const end = re + n; r0 != end; r0 += 3 * h, i0 += 3 * h) {  // the columns leave r0 at + h
        const float *w1_re = w1_table, *w1_im = w1_table + h, *w2_re = w2_table, *w2_im = w2_table + 2 * h;
        float *r1 = r0 + h, *r2 = r1 + h, *r3 = r2 + h;
        float *i1 = i0 + h, *i2 = i1 + h, *i3 = i2 + h;
        for (const float* const column_end = r1; r0 != column_end;) {
            const float w1r = *w1_re++, w1i = *w1_im++, w2r = *w2_re++, w2i = *w2_im++;
            float w3r = w1r, w3i = w1i;
            complex_multiply(w3r, w3i, w2r, w2i);
            float x1r = *r1, x1i = *i1, x2r = *r2, x2i = *i2, x3r = *r3, x3i = *i3;
            complex_multiply(x1r, x1i, w1r, w1i);
            complex_multiply(x2r, x2i, w2r, w2i);
            complex_multiply(x3r, x3i, w3r, w3i);
            const float x0r = *r0, x0i = *i0;
            const float s0r = x0r + x1r, s0i = x0i + x1i, d0r = x0r - x1r, d0i = x0i - x1i;
            const float s1r = x2r + x3r, s1i = x2i + x3i, d1r = x2r - x3r, d1i = x2i - x3i;
            *r0++ = s0r + s1r; *i0++ = s0i + s1i;
            *r2++ = s0r - s1r; *i2++ = s0i - s1i;
            *r1++ = d0r + d1i; *i1++ = d0i - d1r;  // d0 - i d1
            *r3++ = d0r - d1i; *i3++ = d0i + d1r;
        }
    }
}

// The forward transform out of place or (partly) in place; fft_r2_c2c swaps re and im for the inverse.
inline void fft_scalar(const float* in_re, const float* in_im, float* out_re, float* out_im, unsigned log2_n,
                       const float* tw) noexcept {
    const std::size_t n = std::size_t(1) << log2_n;
    if (log2_n < 2) {  // n = 1 or 2
        const float x0r = in_re[0], x0i = in_im[0], x1r = n == 2 ? in_re[1] : 0.0f, x1i = n == 2 ? in_im[1] : 0.0f;
        out_re[0] = x0r + x1r;
        out_im[0] = x0i + x1i;
        if (n == 2) {
            out_re[1] = x0r - x1r;
            out_im[1] = x0i - x1i;
        }
        return;
    }
    const bool odd = (log2_n & 1) != 0;
    std::size_t h = odd ? 8 : 4;
    if (in_re == out_re || in_im == out_im) {
        // in place: the bit reversal by swapping pairs, then radix-4 passes from h = 1 (twiddles 1), after
        // one radix-2 stage when log2 n is odd (slower than out of place, and no second first pass in flash)
        for (std::size_t k = 0; in_re != out_re && k < n; ++k) out_re[k] = in_re[k];
        for (std::size_t k = 0; in_im != out_im && k < n; ++k) out_im[k] = in_im[k];
        for (std::uint32_t k = 0; k < n; ++k) {
            const std::uint32_t j = reverse_bits<scalar_v>(k, log2_n);
            if (k < j) {
                float t = out_re[k]; out_re[k] = out_re[j]; out_re[j] = t;
                t = out_im[k]; out_im[k] = out_im[j]; out_im[j] = t;
            }
        }
        h = 1;
        for (std::size_t k = 0; odd && k < n; k += 2) {
            const float ar = out_re[k], ai = out_im[k], br = out_re[k + 1], bi = out_im[k + 1];
            out_re[k] = ar + br; out_im[k] = ai + bi;
            out_re[k + 1] = ar - br; out_im[k + 1] = ai - bi;
            h = 2;
        }
    } else if (odd) {
        first_pass<8>(in_re, in_im, out_re, out_im, log2_n);
    } else {
        first_pass<4>(in_re, in_im, out_re, out_im, log2_n);
    }
    for (; h < n; h *= 4) radix4_pass(out_re, out_im, n, h, tw);
}

}  // namespace
}  // namespace kfm::detail::kern
