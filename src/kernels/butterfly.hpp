// Butterfly orthogonal network (docs/methods.md, quadrature section), written once over the
// architecture A. Level h (block size 2h, h = 1 .. d2/2) rotates the pairs (s+i, s+i+h) of the block at s
// by the angle with index s+h-1: y_i = c x_i + s x_{i+h}, y_{i+h} = -s x_i + c x_{i+h}. Pairs whose
// partner index is >= d pass through, so d need not be a power of two and x is never padded.
// Levels with h >= lanes are contiguous vector loops with the block's (c, s) broadcast; levels with
// h < lanes run inside one register (lane swizzle for the partner, per-lane (c, s) swizzled from two
// contiguous loads), all of them
// fused in one pass over each full register of x; the ragged tail uses the scalar loop.
#pragma once
#include <cstdint>
#include <cstring>

#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

// Rotates the active pairs of the blocks of level h whose start lies in [begin, end).
template <class V>
inline void butterfly_level(float* x, std::size_t d, std::size_t h, const float* cs, std::size_t begin,
                            std::size_t end, bool transpose) noexcept {
    constexpr std::size_t W = lanes<V>;
    for (std::size_t s = begin; s < end && s + h < d; s += 2 * h) {
        const float c = cs[2 * (s + h - 1)];
        const float sn = transpose ? -cs[2 * (s + h - 1) + 1] : cs[2 * (s + h - 1) + 1];
        const std::size_t active = h < d - s - h ? h : d - s - h;
        float* lo = x + s;
        float* hi = x + s + h;
        std::size_t j = 0;
        if constexpr (W > 1) {
            const vf<V> cv(c), sv(sn);
            for (; j + W <= active; j += W) {
                const vf<V> a = load_f<V>(lo + j), b = load_f<V>(hi + j);
                store_f<V>(lo + j, mul_add<V>(cv, a, sv * b));
                store_f<V>(hi + j, neg_mul_add<V>(sv, a, cv * b));
            }
        }
        for (; j < active; ++j) {
            const float a = lo[j], b = hi[j];
            lo[j] = c * a + sn * b;
            hi[j] = c * b - sn * a;
        }
    }
}

// Inside the register holding x[base .. base + W), the levels h < W use exactly the angles with index
// base .. base + W - 2 (the block at s of level h uses s + h - 1), i.e. the floats cs[2 base .. 2 base + 2W - 2):
// two plain loads, the second starting at 2 base + W - 2 so that it never reads past the table. Each
// level's per-lane cos / sin are picked from them with lane swizzles.
// Float offset of lane i's cosine (relative to 2 base) for level H:
template <unsigned H>
constexpr std::size_t cos_offset(std::size_t i) {
    return 2 * ((i & ~std::size_t(2 * H - 1)) + H - 1);
}
template <unsigned H, unsigned Sin, std::size_t W>
struct cs_lane {  // index into one of the two loaded registers
    static constexpr std::uint32_t get(std::size_t i, std::size_t) {
        const std::size_t off = cos_offset<H>(i) + Sin;
        return std::uint32_t(off < W ? off : off - (W - 2));
    }
};
template <unsigned H, unsigned Sin, std::size_t W>
struct cs_from_second {  // lane i's value lies in the second register
    static constexpr bool get(std::size_t i, std::size_t) { return cos_offset<H>(i) + Sin >= W; }
};

template <unsigned H, unsigned Sin, class A>
inline vf<A> pick_cs(const vf<A>& v0, const vf<A>& v1) noexcept {
    constexpr std::size_t W = lanes<A>;
    using U = xsimd::batch<std::uint32_t, A>;
    const auto idx = xsimd::make_batch_constant<U, cs_lane<H, Sin, W>>();
    const auto second = xsimd::make_batch_bool_constant<vf<A>, cs_from_second<H, Sin, W>>();
    return xsimd::select(second, xsimd::swizzle(v1, idx), xsimd::swizzle(v0, idx));
}

// Level H < lanes on the register v; v0 = cs[2 base ..), v1 = cs[2 base + W - 2 ..).
template <unsigned H, class A>
inline void butterfly_lane_level(vf<A>& v, const vf<A>& v0, const vf<A>& v1, bool transpose) noexcept {
    const vf<A> c = pick_cs<H, 0, A>(v0, v1);
    vf<A> s = pick_cs<H, 1, A>(v0, v1);
    // lower lane: c x_i + s x_{i+h}; upper lane: c x_{i+h} - s x_i (signs flip for the transpose)
    s = xsimd::select(upper_mask<H, A>(), -s, s);
    if (transpose) s = -s;
    v = xsimd::fma(c, v, s * partner<H>(v));
}

// All levels h < lanes<A> (forward order, or reverse order for the transpose) on every full register
// of x; returns where the full registers end.
template <class A>
inline std::size_t butterfly_lane_levels(float* x, std::size_t d, unsigned log2_d2, const float* cs,
                                         bool transpose) noexcept {
    constexpr std::size_t W = lanes<A>;
    const unsigned levels = log2_d2;  // levels h = 1, 2, 4, 8 exist while 2h <= d2
    std::size_t base = 0;
    for (; base + W <= d; base += W) {
        vf<A> v = load_f<A>(x + base);
        const vf<A> v0 = load_f<A>(cs + 2 * base), v1 = load_f<A>(cs + 2 * base + W - 2);
        if (!transpose) {
            if (levels >= 1) butterfly_lane_level<1, A>(v, v0, v1, false);
            if (levels >= 2) butterfly_lane_level<2, A>(v, v0, v1, false);
            if constexpr (W > 4) if (levels >= 3) butterfly_lane_level<4, A>(v, v0, v1, false);
            if constexpr (W > 8) if (levels >= 4) butterfly_lane_level<8, A>(v, v0, v1, false);
        } else {
            if constexpr (W > 8) if (levels >= 4) butterfly_lane_level<8, A>(v, v0, v1, true);
            if constexpr (W > 4) if (levels >= 3) butterfly_lane_level<4, A>(v, v0, v1, true);
            if (levels >= 2) butterfly_lane_level<2, A>(v, v0, v1, true);
            if (levels >= 1) butterfly_lane_level<1, A>(v, v0, v1, true);
        }
        store_f<A>(x + base, v);
    }
    return base;
}

// One application of all levels (or their transpose, in reverse order).
template <class A>
inline void butterfly_levels(float* x, std::size_t d, unsigned log2_d2, const float* cs,
                             bool transpose) noexcept {
    constexpr std::size_t W = lanes<A>;
    const std::size_t d2 = std::size_t(1) << log2_d2;
    // levels small enough to live in one register are handled there when there is a full register
    std::size_t lane_h = 1;  // first level not handled by the register pass
    if constexpr (W >= 4) {
        if (d >= W) lane_h = W < d2 ? W : d2;
    }
    if (!transpose) {
        if constexpr (W >= 4) {
            if (lane_h > 1) {
                const std::size_t tail = butterfly_lane_levels<A>(x, d, log2_d2, cs, false);
                for (std::size_t h = 1; h < lane_h; h *= 2) butterfly_level<scalar_arch>(x, d, h, cs, tail, d, false);
            }
        }
        for (std::size_t h = lane_h; h < d2; h *= 2) butterfly_level<A>(x, d, h, cs, 0, d, false);
    } else {
        for (std::size_t h = d2 / 2; h >= lane_h && h >= 1; h /= 2) butterfly_level<A>(x, d, h, cs, 0, d, true);
        if constexpr (W >= 4) {
            if (lane_h > 1) {
                // the ragged tail first gets its own small levels in reverse order
                const std::size_t tail = d - d % W;
                for (std::size_t h = lane_h / 2; h >= 1; h /= 2) butterfly_level<scalar_arch>(x, d, h, cs, tail, d, true);
                butterfly_lane_levels<A>(x, d, log2_d2, cs, true);
            }
        }
    }
}

// y[i] = x[perm[i]]. A plain loop: hardware gathers (AVX2 / AVX-512) measured no faster here.
template <class A>
inline void permute_gather(const float* x, unsigned d, const std::uint32_t* perm, float* y) noexcept {
    for (unsigned i = 0; i < d; ++i) y[i] = x[perm[i]];
}

template <class A>
void butterfly_apply(float* x, unsigned d, unsigned log2_d2, const float* cs, const std::uint32_t* perm,
                     unsigned repeats, bool transpose, float* scratch) noexcept {
    if (!transpose) {
        for (unsigned r = 0; r < repeats; ++r) {
            butterfly_levels<A>(x, d, log2_d2, cs, false);
            permute_gather<A>(x, d, perm, scratch);
            std::memcpy(x, scratch, sizeof(float) * d);
        }
    } else {
        for (unsigned r = 0; r < repeats; ++r) {
            for (unsigned i = 0; i < d; ++i) scratch[perm[i]] = x[i];
            std::memcpy(x, scratch, sizeof(float) * d);
            butterfly_levels<A>(x, d, log2_d2, cs, true);
        }
    }
}

}  // namespace
}  // namespace kfm::detail::kern
