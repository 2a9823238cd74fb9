// The FFT's MVE-specific shape (fft.hpp calls it for mve_arch). MVE has 8 vector registers where the
// other SIMD ISAs have 16 or 32: the generic register tile (8 vectors) and radix-4 / radix-8 groups (12 and 24
// live vectors) spill on every step. Here, with the same decimation-in-time algorithm, twiddle table
// (fft_layout.hpp) and results to rounding:
//  - mve_reverse_first_stages: the bit reversal fused with the stages h = 1 and 2 (twiddles 1 and -i, no
//    multiplies), out of place: each 4 x 4 tile is read as four plain row loads and written by four
//    scatter stores per part, its columns landing at their bit-reversed rows; at most 7 vectors live.
//  - mve_radix_passes: the stages h >= 4 as radix-4 passes (two stages per pass over memory) whose groups
//    park their two lower outputs in the output array while the upper two finish (8 vectors live, no
//    spills), and one radix-2 pass for an odd count.
#pragma once
#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "format/fft_layout.hpp"
#include "kernels/mve.hpp"

namespace kfm::detail::kern {
namespace {

// out = bit reversal of in, then stages h = 1, 2 (n >= 32, out of place).
inline void mve_reverse_first_stages(const float* in_re, const float* in_im, float* out_re, float* out_im,
                                     unsigned log2_n) noexcept {
    const std::uint32_t n = std::uint32_t(1) << log2_n, rs = n / 4;  // row stride
    const unsigned mid_bits = log2_n - 4;  // index (a, b, c): a, c the top and bottom 2 bits
    // lane c of a row goes to row rev2(c) of the output: byte offsets {0, 2, 1, 3} * rs * 4, as addresses
    // (the scatter's immediate then picks the column: no base register per column)
    const uint32x4_t offsets = vshlq_n_u32(mve_reversed_row_offsets(rs), 2);
    const std::uint32_t re_base = std::uint32_t(reinterpret_cast<std::uintptr_t>(out_re));
    const std::uint32_t im_base = std::uint32_t(reinterpret_cast<std::uintptr_t>(out_im));
    // x_p = input row rev2(p): x0 = row 0, x1 = row 2, x2 = row 1, x3 = row 3
    const float* r0 = in_re;
    const float* r1 = in_re + 2 * rs;
    const float* r2 = in_re + rs;
    const float* r3 = in_re + 3 * rs;
    const float* i0 = in_im;
    const float* i1 = in_im + 2 * rs;
    const float* i2 = in_im + rs;
    const float* i3 = in_im + 3 * rs;
    for (std::uint32_t b = 0; b < n / 16; ++b) {
        std::uint32_t rb;  // b's mid_bits reversed (GCC 12's arm_acle.h has no __rbit)
        __asm__("rbit %0, %1" : "=r"(rb) : "r"(b));
        rb = (rb >> (32 - mid_bits)) * 16;  // the tile's first output, in bytes
        // stage h = 1 on (x0, x1), (x2, x3), then h = 2: (y0, y2) with twiddle 1, (y1, y3) with -i
        float32x4_t s01 = vld1q_f32(r0), d01 = vld1q_f32(r1);
        float32x4_t s23 = vld1q_f32(r2), d23 = vld1q_f32(r3);
        float32x4_t t = vaddq_f32(s01, d01);
        d01 = vsubq_f32(s01, d01);
        s01 = t;
        t = vaddq_f32(s23, d23);
        d23 = vsubq_f32(s23, d23);
        s23 = t;
        const uint32x4_t o_re = vaddq_n_u32(offsets, re_base + rb);
        vstrwq_scatter_base_f32(o_re, 0, vaddq_f32(s01, s23));
        vstrwq_scatter_base_f32(o_re, 8, vsubq_f32(s01, s23));
        float32x4_t e01 = vld1q_f32(i0), f01 = vld1q_f32(i1);
        float32x4_t e23 = vld1q_f32(i2), f23 = vld1q_f32(i3);
        t = vaddq_f32(e01, f01);
        f01 = vsubq_f32(e01, f01);
        e01 = t;
        t = vaddq_f32(e23, f23);
        f23 = vsubq_f32(e23, f23);
        e23 = t;
        const uint32x4_t o_im = vaddq_n_u32(offsets, im_base + rb);
        vstrwq_scatter_base_f32(o_im, 0, vaddq_f32(e01, e23));
        vstrwq_scatter_base_f32(o_im, 8, vsubq_f32(e01, e23));
        // y1 = (d01, f01), y3 = (d23, f23); (-i) y3 = (f23, -d23)
        vstrwq_scatter_base_f32(o_re, 4, vaddq_f32(d01, f23));
        vstrwq_scatter_base_f32(o_im, 4, vsubq_f32(f01, d23));
        vstrwq_scatter_base_f32(o_re, 12, vsubq_f32(d01, f23));
        vstrwq_scatter_base_f32(o_im, 12, vaddq_f32(f01, d23));
        r0 += 4; r1 += 4; r2 += 4; r3 += 4;
        i0 += 4; i1 += 4; i2 += 4; i3 += 4;
    }
}

// w b for complex w, b: (wr br - wi bi, wr bi + wi br)
inline void mve_twiddle(float32x4_t wr, float32x4_t wi, float32x4_t br, float32x4_t bi, float32x4_t& tr,
                        float32x4_t& ti) noexcept {
    tr = vfmsq_f32(vmulq_f32(wr, br), wi, bi);
    ti = vfmaq_f32(vmulq_f32(wr, bi), wi, br);
}

// Stages h and 2h on x[0 .. n) in place (h >= 4): groups (j, j + h, j + 2h, j + 3h) as the generic radix-4
// group (fft.hpp's radix_stages): stage h with w_j of stage h on both pairs, stage 2h with w_j of stage 2h,
// times -i on the upper pair. H > 0: h == H known at compile time, so the group's 12 addresses are a few
// base registers plus immediate offsets (with h at run time they outnumber the core registers and the
// compiler reloads them from the stack: 85 instructions per group against 62 at n = 128).
template <std::size_t H>
inline void mve_radix4_pass(float* re, float* im, std::size_t n, std::size_t h_at_run_time, const float* tw) noexcept {
    const std::size_t h = H > 0 ? H : h_at_run_time;
    const float* w1_re = tw + fft_layout::stage_offset(h);
    const float* w1_im = w1_re + h;
    const float* w2_re = tw + fft_layout::stage_offset(2 * h);
    const float* w2_im = w2_re + 2 * h;
    for (std::size_t base = 0; base < n; base += 4 * h) {
        float* a_re = re + base;
        float* a_im = im + base;
        for (std::size_t j = 0; j < h; j += 4) {
            float* pr = a_re + j;
            float* pi = a_im + j;
            float32x4_t wr = vld1q_f32(w1_re + j), wi = vld1q_f32(w1_im + j), tr, ti, ur, ui;
            mve_twiddle(wr, wi, vld1q_f32(pr + h), vld1q_f32(pi + h), tr, ti);
            mve_twiddle(wr, wi, vld1q_f32(pr + 3 * h), vld1q_f32(pi + 3 * h), ur, ui);
            const float32x4_t ar = vld1q_f32(pr), ai = vld1q_f32(pi);
            // b1 = a - t parked at b's place; a1 = a + t kept
            vst1q_f32(pr + h, vsubq_f32(ar, tr));
            vst1q_f32(pi + h, vsubq_f32(ai, ti));
            const float32x4_t a1r = vaddq_f32(ar, tr), a1i = vaddq_f32(ai, ti);
            const float32x4_t cr = vld1q_f32(pr + 2 * h), ci = vld1q_f32(pi + 2 * h);
            // d1 = c - u parked at d's place; c1 = c + u
            vst1q_f32(pr + 3 * h, vsubq_f32(cr, ur));
            vst1q_f32(pi + 3 * h, vsubq_f32(ci, ui));
            wr = vld1q_f32(w2_re + j);
            wi = vld1q_f32(w2_im + j);
            mve_twiddle(wr, wi, vaddq_f32(cr, ur), vaddq_f32(ci, ui), tr, ti);
            vst1q_f32(pr, vaddq_f32(a1r, tr));
            vst1q_f32(pi, vaddq_f32(a1i, ti));
            vst1q_f32(pr + 2 * h, vsubq_f32(a1r, tr));
            vst1q_f32(pi + 2 * h, vsubq_f32(a1i, ti));
            // (b1, d1) with -i w: b1 +- (-i) q, q = w d1, (-i) q = (q_im, -q_re)
            mve_twiddle(wr, wi, vld1q_f32(pr + 3 * h), vld1q_f32(pi + 3 * h), tr, ti);
            const float32x4_t br = vld1q_f32(pr + h), bi = vld1q_f32(pi + h);
            vst1q_f32(pr + h, vaddq_f32(br, ti));
            vst1q_f32(pi + h, vsubq_f32(bi, tr));
            vst1q_f32(pr + 3 * h, vsubq_f32(br, ti));
            vst1q_f32(pi + 3 * h, vaddq_f32(bi, tr));
        }
    }
}

// The last stage h = n / 2 alone: (x_j, x_{j+h}) <- (x_j + w_j x_{j+h}, x_j - w_j x_{j+h}).
inline void mve_radix2_last_pass(float* re, float* im, std::size_t h, const float* tw) noexcept {
    const float* w_re = tw + fft_layout::stage_offset(h);
    const float* w_im = w_re + h;
    for (std::size_t j = 0; j < h; j += 4) {
        float32x4_t tr, ti;
        mve_twiddle(vld1q_f32(w_re + j), vld1q_f32(w_im + j), vld1q_f32(re + h + j), vld1q_f32(im + h + j), tr, ti);
        const float32x4_t ar = vld1q_f32(re + j), ai = vld1q_f32(im + j);
        vst1q_f32(re + j, vaddq_f32(ar, tr));
        vst1q_f32(im + j, vaddq_f32(ai, ti));
        vst1q_f32(re + h + j, vsubq_f32(ar, tr));
        vst1q_f32(im + h + j, vsubq_f32(ai, ti));
    }
}

// The stages h, 2h, .. n / 2 (h >= 4) on data already through the stages below h.
inline void mve_radix_passes(float* re, float* im, std::size_t n, std::size_t h, const float* tw) noexcept {
    for (; 4 * h <= n; h *= 4) {
        if (h == 4) mve_radix4_pass<4>(re, im, n, h, tw);
        else if (h == 16) mve_radix4_pass<16>(re, im, n, h, tw);
        else if (h == 64) mve_radix4_pass<64>(re, im, n, h, tw);
        else if (h == 256) mve_radix4_pass<256>(re, im, n, h, tw);
        else mve_radix4_pass<0>(re, im, n, h, tw);
    }
    if (2 * h <= n) mve_radix2_last_pass(re, im, h, tw);
}

}  // namespace
}  // namespace kfm::detail::kern
