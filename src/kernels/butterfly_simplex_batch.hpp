// A quadrature rule's projection t = V^T (M x) (the butterfly network of butterfly.hpp: same levels,
// angles, pass-through and permutation, forward only; then the simplex step of
// runtime/projection_butterfly_simplex.cpp) applied to R vectors at once, interleaved: element i of
// vector v at x[i R + v]. Every element of the network is then a row of R floats, so every level, the
// small ones included, is a vertical SIMD rotation of whole rows with the block's (cos, sin) broadcast
// (no lane swizzles), and the permutation moves whole rows (its index loaded once per R vectors) inside
// the next pass that reads them. Levels run two at a time (radix 4: four rows, both levels in registers,
// one pass over memory per pair of levels) in butterfly.hpp's order, so each vector's result equals the
// single-vector path's up to float rounding. The simplex's running sum is a vertical add across the R
// vectors.
#pragma once
#include <cstdint>
#include <cstring>

#include "kernels/butterfly.hpp"
#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

// The rows a and b (R floats each) rotated by (c, s).
template <class A, std::size_t R>
inline void rotate_rows(const vf<A>& c, const vf<A>& s, float* a, float* b) noexcept {
    constexpr std::size_t W = lanes<A>;
    for (std::size_t q = 0; q < R; q += W) {
        vf<A> va = load_f<A>(a + q), vb = load_f<A>(b + q);
        rotate<A>(c, s, va, vb);
        store_f<A>(a + q, va);
        store_f<A>(b + q, vb);
    }
}

// Level h on the blocks whose start lies in [begin, end) of the interleaved x (pairs reaching past d
// pass through).
template <class A, std::size_t R>
inline void butterfly_rows_level(float* x, std::size_t d, std::size_t h, const float* cs, std::size_t begin,
                                 std::size_t end) noexcept {
    for (std::size_t s = begin; s < end && s + h < d; s += 2 * h) {
        const vf<A> c(cs[2 * (s + h - 1)]), sn(cs[2 * (s + h - 1) + 1]);
        const std::size_t active = h < d - s - h ? h : d - s - h;
        for (std::size_t j = s; j < s + active; ++j) rotate_rows<A, R>(c, sn, x + j * R, x + (j + h) * R);
    }
}

// Row i of `to` = row i of `from` (Gather false) or row perm[i] of `from` (Gather true), for i in [begin, end).
template <bool Gather, class A, std::size_t R>
inline void copy_rows(const float* from, const std::uint32_t* perm, float* to, std::size_t begin, std::size_t end) noexcept {
    constexpr std::size_t W = lanes<A>;
    for (std::size_t i = begin; i < end; ++i) {
        const float* row = from + (Gather ? std::size_t(perm[i]) : i) * R;
        for (std::size_t l = 0; l < R; l += W) store_f<A>(to + i * R + l, load_f<A>(row + l));
    }
}

// Levels h and 2h fused: each block of 4h elements holds the rows a, b, c, e at offsets j, j + h,
// j + 2h, j + 3h (j < h); level h rotates (a, b) and (c, e), then level 2h rotates (a, c) and (b, e).
// The rows come from `in` (in == x: in place) or, with Gather, from its rows perm[..] (the previous
// repeat's permutation, fused into this pass). A block reaching past d runs the two levels separately.
template <bool Gather, class A, std::size_t R>
inline void butterfly_rows_level_pair(const float* in, const std::uint32_t* perm, float* x, std::size_t d,
                                      std::size_t h, const float* cs) noexcept {
    constexpr std::size_t W = lanes<A>;
    const std::size_t q = 4 * h;
    for (std::size_t s = 0; s < d; s += q) {
        if (s + q > d) {
            if constexpr (Gather) copy_rows<true, A, R>(in, perm, x, s, d);
            butterfly_rows_level<A, R>(x, d, h, cs, s, s + q);
            butterfly_rows_level<A, R>(x, d, 2 * h, cs, s, s + q);
            continue;
        }
        const vf<A> c0(cs[2 * (s + h - 1)]), s0(cs[2 * (s + h - 1) + 1]);
        const vf<A> c1(cs[2 * (s + 3 * h - 1)]), s1(cs[2 * (s + 3 * h - 1) + 1]);
        const vf<A> c2(cs[2 * (s + 2 * h - 1)]), s2(cs[2 * (s + 2 * h - 1) + 1]);
        for (std::size_t j = s; j < s + h; ++j) {
            const float* ia = in + (Gather ? std::size_t(perm[j]) : j) * R;
            const float* ib = in + (Gather ? std::size_t(perm[j + h]) : j + h) * R;
            const float* ic = in + (Gather ? std::size_t(perm[j + 2 * h]) : j + 2 * h) * R;
            const float* ie = in + (Gather ? std::size_t(perm[j + 3 * h]) : j + 3 * h) * R;
            float* pa = x + j * R;
            float* pb = pa + h * R;
            float* pc = pb + h * R;
            float* pe = pc + h * R;
            for (std::size_t l = 0; l < R; l += W) {
                vf<A> a = load_f<A>(ia + l), b = load_f<A>(ib + l), c = load_f<A>(ic + l), e = load_f<A>(ie + l);
                rotate<A>(c0, s0, a, b);
                rotate<A>(c1, s1, c, e);
                rotate<A>(c2, s2, a, c);
                rotate<A>(c2, s2, b, e);
                store_f<A>(pa + l, a);
                store_f<A>(pb + l, b);
                store_f<A>(pc + l, c);
                store_f<A>(pe + l, e);
            }
        }
    }
}

// The simplex step of a quadrature rule on the rows y (d of R): t_j = diag_j y_j - sum_{i<j} r_i y_i for
// j < d and t_d = -sum_i r_i y_i (docs/methods.md, "The simplex"), row by row into t ((d+1) rows of R), each y_j read
// from the row perm[j] of src (Gather: the network's last gather, fused) or the row j. The running sum
// advances once per four rows (the prefix sums within the four are off the dependency chain). Every lane
// goes through the same operations in the same order, so the single-vector step (R = 1, one lane:
// kernels/butterfly_simplex_row.hpp) gives each vector exactly the values of its lane here.
template <class A, std::size_t R, bool Gather = true>
inline void simplex_rows(const float* src, const std::uint32_t* perm, std::size_t d, const float* r,
                         const float* diag, float* t) noexcept {
    constexpr std::size_t W = lanes<A>;
    auto row = [&](std::size_t j) { return src + (Gather ? std::size_t(perm[j]) : j) * R; };
    for (std::size_t l = 0; l < R; l += W) {
        vf<A> total(0.0f);
        std::size_t j = 0;
        for (; j + 4 <= d; j += 4) {
            const vf<A> y0 = load_f<A>(row(j) + l);
            const vf<A> y1 = load_f<A>(row(j + 1) + l);
            const vf<A> y2 = load_f<A>(row(j + 2) + l);
            const vf<A> y3 = load_f<A>(row(j + 3) + l);
            const vf<A> p1 = vf<A>(r[j]) * y0;
            const vf<A> p2 = mul_add<A>(vf<A>(r[j + 1]), y1, p1);
            const vf<A> p3 = mul_add<A>(vf<A>(r[j + 2]), y2, p2);
            const vf<A> p4 = mul_add<A>(vf<A>(r[j + 3]), y3, p3);
            store_f<A>(t + j * R + l, mul_sub<A>(vf<A>(diag[j]), y0, total));
            store_f<A>(t + (j + 1) * R + l, mul_sub<A>(vf<A>(diag[j + 1]), y1, total + p1));
            store_f<A>(t + (j + 2) * R + l, mul_sub<A>(vf<A>(diag[j + 2]), y2, total + p2));
            store_f<A>(t + (j + 3) * R + l, mul_sub<A>(vf<A>(diag[j + 3]), y3, total + p3));
            total = total + p4;
        }
        for (const std::size_t end = j + d % 4; j < end; ++j) {  // (a bound GCC sees is below 4 rows)
            const vf<A> y = load_f<A>(row(j) + l);
            store_f<A>(t + j * R + l, mul_sub<A>(vf<A>(diag[j]), y, total));
            total = mul_add<A>(vf<A>(r[j]), y, total);
        }
        store_f<A>(t + d * R + l, vf<A>(0.0f) - total);
    }
}

// t = V^T (M x) for R interleaved vectors of d floats (d2 = 2^log2_d2 >= d): the network M (`repeats`
// times all levels, then the gather y_i = x_perm[i]) and the simplex step with the coefficients r and
// diag of simplex_rows. x and t ((d+1) R floats) do not overlap; scratch holds d R floats.
template <class A, std::size_t R>
void butterfly_simplex_batch(const float* x, float* t, unsigned d, unsigned log2_d2, const float* cs,
                             const std::uint32_t* perm, unsigned repeats, const float* r, const float* diag,
                             float* scratch) noexcept {
    static_assert(R % lanes<A> == 0, "a row is whole registers");
    const std::size_t d2 = std::size_t(1) << log2_d2;
    // Each repeat's levels run in one buffer, alternating between scratch and t; the permutation between
    // two repeats is fused into the next repeat's first pass (rows read through perm from the other
    // buffer), and the last one into the simplex step. The start is chosen so that the last repeat runs in
    // scratch.
    float* cur = (repeats - 1) % 2 == 0 ? scratch : t;
    float* other = cur == t ? scratch : t;
    std::memcpy(cur, x, sizeof(float) * d * R);
    for (unsigned rep = 0; rep < repeats; ++rep) {
        std::size_t h = 1;
        if (rep > 0) {  // the rows of `other` (the previous repeat) through perm into cur
            if (d2 >= 4) {
                butterfly_rows_level_pair<true, A, R>(other, perm, cur, d, 1, cs);
                h = 4;
            } else {
                copy_rows<true, A, R>(other, perm, cur, 0, d);
            }
        }
        for (; 4 * h <= d2; h *= 4) butterfly_rows_level_pair<false, A, R>(cur, nullptr, cur, d, h, cs);
        if (h < d2) butterfly_rows_level<A, R>(cur, d, h, cs, 0, d);
        float* swap = cur;
        cur = other;
        other = swap;
    }
    cur = other;  // the last repeat's buffer
    simplex_rows<A, R>(cur, perm, d, r, diag, t);
}

}  // namespace
}  // namespace kfm::detail::kern
