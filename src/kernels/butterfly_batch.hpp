// The butterfly network of butterfly.hpp (same levels, angles, pass-through and permutation; forward
// only) applied to R vectors at once, interleaved: element i of vector v at x[i R + v]. Every element of
// the network is then a row of R floats, so every level, the small ones included, is a vertical SIMD
// rotation of whole rows with the block's (cos, sin) broadcast (no lane swizzles), and the permutation
// copies rows (its index loaded once per R vectors). Levels run two at a time (radix 4: four rows, both
// levels in registers, one pass over memory per pair of levels), in butterfly.hpp's order, so each
// vector's result equals the single-vector kernel's up to float rounding.
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

// Levels h and 2h fused: each block of 4h elements holds the rows a, b, c, e at offsets j, j + h,
// j + 2h, j + 3h (j < h); level h rotates (a, b) and (c, e), then level 2h rotates (a, c) and (b, e).
// A block reaching past d runs the two levels separately.
template <class A, std::size_t R>
inline void butterfly_rows_level_pair(float* x, std::size_t d, std::size_t h, const float* cs) noexcept {
    constexpr std::size_t W = lanes<A>;
    const std::size_t q = 4 * h;
    for (std::size_t s = 0; s + h < d; s += q) {
        if (s + q > d) {
            butterfly_rows_level<A, R>(x, d, h, cs, s, s + q);
            butterfly_rows_level<A, R>(x, d, 2 * h, cs, s, s + q);
            continue;
        }
        const vf<A> c0(cs[2 * (s + h - 1)]), s0(cs[2 * (s + h - 1) + 1]);
        const vf<A> c1(cs[2 * (s + 3 * h - 1)]), s1(cs[2 * (s + 3 * h - 1) + 1]);
        const vf<A> c2(cs[2 * (s + 2 * h - 1)]), s2(cs[2 * (s + 2 * h - 1) + 1]);
        for (std::size_t j = s; j < s + h; ++j) {
            float* pa = x + j * R;
            float* pb = pa + h * R;
            float* pc = pb + h * R;
            float* pe = pc + h * R;
            for (std::size_t l = 0; l < R; l += W) {
                vf<A> a = load_f<A>(pa + l), b = load_f<A>(pb + l), c = load_f<A>(pc + l), e = load_f<A>(pe + l);
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

// y = M x for R interleaved vectors of d floats (d2 = 2^log2_d2 >= d): `repeats` times all levels, then
// the gather y_i = x_perm[i]. x and y do not overlap; scratch holds d R floats.
template <class A, std::size_t R>
void butterfly_batch_apply(const float* x, float* y, unsigned d, unsigned log2_d2, const float* cs,
                           const std::uint32_t* perm, unsigned repeats, float* scratch) noexcept {
    static_assert(R % lanes<A> == 0, "a row is whole registers");
    constexpr std::size_t W = lanes<A>;
    const std::size_t d2 = std::size_t(1) << log2_d2;
    // The levels run in place; each gather moves the rows to the other buffer. Starting in scratch when
    // repeats is odd makes the last gather land in y.
    float* cur = repeats % 2 == 1 ? scratch : y;
    float* other = repeats % 2 == 1 ? y : scratch;
    std::memcpy(cur, x, sizeof(float) * d * R);
    for (unsigned r = 0; r < repeats; ++r) {
        std::size_t h = 1;
        for (; 4 * h <= d2; h *= 4) butterfly_rows_level_pair<A, R>(cur, d, h, cs);
        if (h < d2) butterfly_rows_level<A, R>(cur, d, h, cs, 0, d);
        for (std::size_t i = 0; i < d; ++i) {
            const float* from = cur + std::size_t(perm[i]) * R;
            float* to = other + i * R;
            for (std::size_t l = 0; l < R; l += W) store_f<A>(to + l, load_f<A>(from + l));
        }
        float* t = cur;
        cur = other;
        other = t;
    }
}

}  // namespace
}  // namespace kfm::detail::kern
