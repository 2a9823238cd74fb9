// Butterfly orthogonal network (docs/methods.md, quadrature section), written once over the
// architecture A. Level h (block size 2h, h = 1 .. d2/2) rotates the pairs (s+i, s+i+h) of the block at s
// by the angle with index s+h-1: y_i = c x_i + s x_{i+h}, y_{i+h} = -s x_i + c x_{i+h}. Pairs whose
// partner index is >= d pass through, so d need not be a power of two and x is never padded.
// Levels with h >= lanes are contiguous vector loops with the block's (c, s) broadcast; levels with
// h < lanes run inside one register (lane swizzle for the partner, gathered per-lane (c, s)), all of them
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

// Per-lane gather offsets (in floats) of the cosine for level H inside a register at x[0].
template <unsigned H>
struct cos_offset {
    static constexpr std::int32_t get(std::size_t i, std::size_t) {
        return std::int32_t(2 * ((i & ~std::size_t(2 * H - 1)) + H - 1));
    }
};

// Level H < lanes inside the register v holding x[base .. base + W).
template <unsigned H, class A>
inline void butterfly_lane_level(vf<A>& v, std::size_t base, const float* cs, bool transpose) noexcept {
    using I = xsimd::batch<std::int32_t, A>;
    const I idx = I(xsimd::make_batch_constant<I, cos_offset<H>>()) + I(std::int32_t(2 * base));
    const vf<A> c = vf<A>::gather(cs, idx);
    vf<A> s = vf<A>::gather(cs + 1, idx);
    // lower lane: c x_i + s x_{i+h}; upper lane: c x_{i+h} - s x_i
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
        if (!transpose) {
            if (levels >= 1) butterfly_lane_level<1, A>(v, base, cs, false);
            if (levels >= 2) butterfly_lane_level<2, A>(v, base, cs, false);
            if constexpr (W > 4) if (levels >= 3) butterfly_lane_level<4, A>(v, base, cs, false);
            if constexpr (W > 8) if (levels >= 4) butterfly_lane_level<8, A>(v, base, cs, false);
        } else {
            if constexpr (W > 8) if (levels >= 4) butterfly_lane_level<8, A>(v, base, cs, true);
            if constexpr (W > 4) if (levels >= 3) butterfly_lane_level<4, A>(v, base, cs, true);
            if (levels >= 2) butterfly_lane_level<2, A>(v, base, cs, true);
            if (levels >= 1) butterfly_lane_level<1, A>(v, base, cs, true);
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

// y[i] = x[perm[i]] (perm entries < d < 2^31, so they are valid signed gather indices).
template <class A>
inline void permute_gather(const float* x, unsigned d, const std::uint32_t* perm, float* y) noexcept {
    constexpr std::size_t W = lanes<A>;
    unsigned i = 0;
    if constexpr (W > 1) {
        using I = xsimd::batch<std::int32_t, A>;
        for (; i + W <= d; i += unsigned(W))
            vf<A>::gather(x, I::load_unaligned(reinterpret_cast<const std::int32_t*>(perm + i))).store_unaligned(y + i);
    }
    for (; i < d; ++i) y[i] = x[perm[i]];
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
