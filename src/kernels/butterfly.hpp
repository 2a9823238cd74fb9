// Butterfly orthogonal network (docs/methods.md, "The butterfly network"), written once over the
// architecture A. Level h (block size 2h, h = 1 .. d2/2) rotates the pairs (s+i, s+i+h) of the block at s
// by the angle with index s+h-1: y_i = c x_i + s x_{i+h}, y_{i+h} = -s x_i + c x_{i+h}. Pairs whose
// partner index is >= d pass through, so d need not be a power of two and x is never padded.
// Levels with h >= lanes are contiguous vector loops with the block's (c, s) broadcast, fused two at a
// time (radix-4: four rows, both levels in registers, one pass over memory per pair). Levels with
// h < lanes run inside one register (lane swizzle for the partner, per-lane (c, s) picked by one blend
// and one swizzle from two contiguous loads), all of them fused in one pass over x that works on several
// registers at once (independent dependency chains); the ragged tail uses the scalar loop. The
// permutation is a plain load/store loop; each later repeat reads the gathered scratch directly and the
// last one gathers straight back into x (no copy between or after the repeats).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

// One rotation of a pair of registers: (x, y) <- (c x + s y, -s x + c y), each output as c times its own
// input fused with the rounded cross product, the form the in-register levels use for both lanes of a
// pair (butterfly_lane_level), so every path rounds each rotation alike.
template <class V>
inline void rotate(const vf<V>& c, const vf<V>& s, vf<V>& x, vf<V>& y) noexcept {
    const vf<V> rx = mul_add<V>(c, x, s * y);
    y = mul_sub<V>(c, y, s * x);
    x = rx;
}

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
                vf<V> a = load_f<V>(lo + j), b = load_f<V>(hi + j);
                rotate<V>(cv, sv, a, b);
                store_f<V>(lo + j, a);
                store_f<V>(hi + j, b);
            }
        }
        for (; j < active; ++j) {
            float a = lo[j], b = hi[j];
            rotate<scalar_arch>(c, sn, a, b);
            lo[j] = a;
            hi[j] = b;
        }
    }
}

// Levels h and 2h (h >= lanes, a multiple of lanes) fused in one pass: each block of 4h holds four rows
// a, b, c, e of h floats; level h rotates (a, b) and (c, e), level 2h rotates (a, c) and (b, e), all in
// registers, with the same operations and order as two butterfly_level calls (so the results are
// identical). Forward applies level h first; the transpose applies level 2h first. A block that reaches
// past d falls back to the separate levels.
template <class V>
inline void butterfly_level_pair(float* x, std::size_t d, std::size_t h, const float* cs,
                                 bool transpose) noexcept {
    constexpr std::size_t W = lanes<V>;
    if constexpr (W > 1) {
        if (h < W) return butterfly_level_pair<scalar_arch>(x, d, h, cs, transpose);  // d < lanes
    }
    const std::size_t q = 4 * h;
    for (std::size_t s = 0; s + h < d; s += q) {
        if (s + q > d) {
            if (!transpose) {
                butterfly_level<V>(x, d, h, cs, s, s + q, false);
                butterfly_level<V>(x, d, 2 * h, cs, s, s + q, false);
            } else {
                butterfly_level<V>(x, d, 2 * h, cs, s, s + q, true);
                butterfly_level<V>(x, d, h, cs, s, s + q, true);
            }
            continue;
        }
        const float sg = transpose ? -1.0f : 1.0f;
        // angle indices: level h blocks at s and s + 2h, level 2h block at s
        const vf<V> c0(cs[2 * (s + h - 1)]), s0(sg * cs[2 * (s + h - 1) + 1]);
        const vf<V> c1(cs[2 * (s + 3 * h - 1)]), s1(sg * cs[2 * (s + 3 * h - 1) + 1]);
        const vf<V> c2(cs[2 * (s + 2 * h - 1)]), s2(sg * cs[2 * (s + 2 * h - 1) + 1]);
        float* pa = x + s;
        float* pb = pa + h;
        float* pc = pb + h;
        float* pe = pc + h;
        for (std::size_t j = 0; j < h; j += W) {
            vf<V> a = load_f<V>(pa + j), b = load_f<V>(pb + j), c = load_f<V>(pc + j), e = load_f<V>(pe + j);
            if (!transpose) {  // level h on (a, b) and (c, e), then level 2h on (a, c) and (b, e)
                rotate<V>(c0, s0, a, b);
                rotate<V>(c1, s1, c, e);
                rotate<V>(c2, s2, a, c);
                rotate<V>(c2, s2, b, e);
            } else {
                rotate<V>(c2, s2, a, c);
                rotate<V>(c2, s2, b, e);
                rotate<V>(c0, s0, a, b);
                rotate<V>(c1, s1, c, e);
            }
            store_f<V>(pa + j, a);
            store_f<V>(pb + j, b);
            store_f<V>(pc + j, c);
            store_f<V>(pe + j, e);
        }
    }
}

// The levels h = from, 2 from, .. < to (all >= lanes), two at a time, in forward or reverse order.
template <class V>
inline void butterfly_big_levels(float* x, std::size_t d, std::size_t from, std::size_t to, const float* cs,
                                 bool transpose) noexcept {
    if (!transpose) {
        std::size_t h = from;
        for (; 4 * h <= to; h *= 4) butterfly_level_pair<V>(x, d, h, cs, false);
        if (h < to) butterfly_level<V>(x, d, h, cs, 0, d, false);
    } else {
        std::size_t h = to / 2;
        for (; h / 2 >= from; h /= 4) butterfly_level_pair<V>(x, d, h / 2, cs, true);
        if (h >= from && h >= 1) butterfly_level<V>(x, d, h, cs, 0, d, true);
    }
}

// Inside the register holding x[base .. base + W), the levels h < W use exactly the angles with index
// base .. base + W - 2 (the block at s of level h uses s + h - 1), i.e. the floats cs[2 base .. 2 base + 2W - 2):
// two plain loads, the second starting at 2 base + W - 2 so that it never reads past the table. The floats
// one level needs land on distinct lanes (a float f >= W sits at lane f - (W - 2) of the second load, and
// no float of the same level sits there in the first: that would need W / 2 - 1, odd, to be a multiple of
// 2h), so one blend gathers them into a single register and one swizzle each picks the per-lane cos / sin.
// Float offset of lane i's cosine (relative to 2 base) for level H:
template <unsigned H>
constexpr std::size_t cos_offset(std::size_t i) {
    return 2 * ((i & ~std::size_t(2 * H - 1)) + H - 1);
}
template <unsigned H, unsigned Sin, std::size_t W>
struct cs_lane {  // lane of the blended register holding lane i's cos (Sin = 0) or sin (Sin = 1)
    static constexpr std::uint32_t get(std::size_t i, std::size_t) {
        const std::size_t off = cos_offset<H>(i) + Sin;
        return std::uint32_t(off < W ? off : off - (W - 2));
    }
};
template <unsigned H, std::size_t W>
struct cs_from_second {  // lane p of the blended register comes from the second load
    static constexpr bool get(std::size_t p, std::size_t) {
        for (std::size_t i = 0; i < W; ++i)
            for (std::size_t k = 0; k < 2; ++k)
                if (cos_offset<H>(i) + k >= W && cos_offset<H>(i) + k - (W - 2) == p) return true;
        return false;
    }
};

// The lanes where Gen::get(lane, lanes) is true, for select. On AVX-512 the mask register is built
// straight from its constant bits: xsimd converts a batch_bool_constant through a 16-bool constructor,
// which GCC stops inlining once the kernel grows (measured 2x slower at d = 256).
template <class Gen, class A>
inline auto butterfly_lane_mask() noexcept {
#if XSIMD_WITH_AVX512F
    if constexpr (std::is_base_of<xsimd::avx512f, A>::value) {
        constexpr std::uint32_t bits = [] {
            std::uint32_t b = 0;
            for (std::size_t i = 0; i < lanes<A>; ++i)
                if (Gen::get(i, lanes<A>)) b |= 1u << i;
            return b;
        }();
        return xsimd::batch_bool<float, A>(__mmask16(bits));
    } else
#endif
        return xsimd::make_batch_bool_constant<vf<A>, Gen>();
}

// Level H < lanes on the register v; v0 = cs[2 base ..), v1 = cs[2 base + W - 2 ..).
template <unsigned H, bool Transpose, class A>
inline void butterfly_lane_level(vf<A>& v, const vf<A>& v0, const vf<A>& v1) noexcept {
    constexpr std::size_t W = lanes<A>;
    using U = xsimd::batch<std::uint32_t, A>;
    const vf<A> r = xsimd::select(butterfly_lane_mask<cs_from_second<H, W>, A>(), v1, v0);
    const vf<A> c = xsimd::swizzle(r, xsimd::make_batch_constant<U, cs_lane<H, 0, W>>());
    const vf<A> s = xsimd::swizzle(r, xsimd::make_batch_constant<U, cs_lane<H, 1, W>>());
    // lower lane: c x_i + s x_{i+h}; upper lane: c x_{i+h} - s x_i (signs flip for the transpose)
    const auto upper = butterfly_lane_mask<upper_lane<H>, A>();
    const vf<A> ss = Transpose ? xsimd::select(upper, s, -s) : xsimd::select(upper, -s, s);
    v = mul_add<A>(c, v, ss * partner<H>(v));
}

// All levels h < lanes<A> on the registers v[0 .. K) (K independent chains, so their latencies overlap)
// starting at x[base], base + k W for v[k].
template <bool Transpose, std::size_t K, class A>
inline void butterfly_lane_block(const float* src, float* x, std::size_t base, const float* cs) noexcept {
    constexpr std::size_t W = lanes<A>;
    vf<A> v[K], v0[K], v1[K];
    for (std::size_t k = 0; k < K; ++k) {
        const std::size_t b = base + k * W;
        v[k] = load_f<A>(src + b);
        v0[k] = load_f<A>(cs + 2 * b);
        v1[k] = load_f<A>(cs + 2 * b + W - 2);
    }
    // with a full register, d2 >= W, so every level h < W exists
    if constexpr (!Transpose) {
        for (std::size_t k = 0; k < K; ++k) butterfly_lane_level<1, false, A>(v[k], v0[k], v1[k]);
        for (std::size_t k = 0; k < K; ++k) butterfly_lane_level<2, false, A>(v[k], v0[k], v1[k]);
        if constexpr (W > 4)
            for (std::size_t k = 0; k < K; ++k) butterfly_lane_level<4, false, A>(v[k], v0[k], v1[k]);
        if constexpr (W > 8)
            for (std::size_t k = 0; k < K; ++k) butterfly_lane_level<8, false, A>(v[k], v0[k], v1[k]);
    } else {
        if constexpr (W > 8)
            for (std::size_t k = 0; k < K; ++k) butterfly_lane_level<8, true, A>(v[k], v0[k], v1[k]);
        if constexpr (W > 4)
            for (std::size_t k = 0; k < K; ++k) butterfly_lane_level<4, true, A>(v[k], v0[k], v1[k]);
        for (std::size_t k = 0; k < K; ++k) butterfly_lane_level<2, true, A>(v[k], v0[k], v1[k]);
        for (std::size_t k = 0; k < K; ++k) butterfly_lane_level<1, true, A>(v[k], v0[k], v1[k]);
    }
    for (std::size_t k = 0; k < K; ++k) store_f<A>(x + base + k * W, v[k]);
}

// All levels h < lanes<A> (forward order, or reverse order for the transpose) on every full register
// of src, written to x (src may be x); returns where the full registers end. Requires d >= lanes.
template <bool Transpose, class A>
inline std::size_t butterfly_lane_levels(const float* src, float* x, std::size_t d, const float* cs) noexcept {
    constexpr std::size_t W = lanes<A>;
    std::size_t base = 0;
    constexpr std::size_t K = W >= 16 ? 4 : 2;  // AVX2 has only 16 registers for K (v, v0, v1) + constants
    for (; base + K * W <= d; base += K * W) butterfly_lane_block<Transpose, K, A>(src, x, base, cs);
    for (; base + W <= d; base += W) butterfly_lane_block<Transpose, 1, A>(src, x, base, cs);
    return base;
}

// One application of all levels (or their transpose, in reverse order) to x. The forward input is read
// from src (x itself, or the previous repeat's gathered scratch, saving a copy pass).
template <class A>
inline void butterfly_levels(const float* src, float* x, std::size_t d, unsigned log2_d2, const float* cs,
                             bool transpose) noexcept {
    constexpr std::size_t W = lanes<A>;
    const std::size_t d2 = std::size_t(1) << log2_d2;
    // levels small enough to live in one register are handled there when there is a full register
    std::size_t lane_h = 1;  // first level not handled by the register pass
    if constexpr (W >= 4) {
        if (d >= W) lane_h = W < d2 ? W : d2;
    }
    if (!transpose) {
        if (lane_h == 1 && src != x) std::memcpy(x, src, sizeof(float) * d);
        if constexpr (W >= 4) {
            if (lane_h > 1) {
                const std::size_t tail = butterfly_lane_levels<false, A>(src, x, d, cs);
                if (src != x && tail < d) std::memcpy(x + tail, src + tail, sizeof(float) * (d - tail));
                for (std::size_t h = 1; h < lane_h; h *= 2) butterfly_level<scalar_arch>(x, d, h, cs, tail, d, false);
            }
        }
        butterfly_big_levels<A>(x, d, lane_h, d2, cs, false);
    } else {
        butterfly_big_levels<A>(x, d, lane_h, d2, cs, true);
        if constexpr (W >= 4) {
            if (lane_h > 1) {
                // the ragged tail first gets its own small levels in reverse order
                const std::size_t tail = d - d % W;
                for (std::size_t h = lane_h / 2; h >= 1; h /= 2) butterfly_level<scalar_arch>(x, d, h, cs, tail, d, true);
                butterfly_lane_levels<true, A>(x, x, d, cs);
            }
        }
    }
}

// y[i] = x[perm[i]]: plain loads and stores. (AVX2 / AVX-512 hardware gathers measured slower on the
// benchmark host, an AMD EPYC: 381 ns vs 292 ns for d = 1024.)
template <class A>
inline void permute_gather(const float* x, unsigned d, const std::uint32_t* perm, float* y) noexcept {
    KFM_UNROLL(4)
    for (unsigned i = 0; i < d; ++i) y[i] = x[perm[i]];
}

template <class A>
void butterfly_apply(float* x, unsigned d, unsigned log2_d2, const float* cs, const std::uint32_t* perm,
                     unsigned repeats, bool transpose, float* scratch) noexcept {
    if (!transpose) {
        // Each repeat after the first reads its input straight from the gathered scratch. The last
        // repeat runs its levels in the scratch and gathers back into x, so no final copy is needed.
        const float* src = x;
        for (unsigned r = 0; r < repeats; ++r) {
            const bool last = r + 1 == repeats;
            float* levels_out = last ? scratch : x;
            butterfly_levels<A>(src, levels_out, d, log2_d2, cs, false);
            permute_gather<A>(levels_out, d, perm, last ? x : scratch);
            src = scratch;
        }
    } else {
        for (unsigned r = 0; r < repeats; ++r) {
            for (unsigned i = 0; i < d; ++i) scratch[perm[i]] = x[i];
            std::memcpy(x, scratch, sizeof(float) * d);
            butterfly_levels<A>(x, x, d, log2_d2, cs, true);
        }
    }
}

}  // namespace
}  // namespace kfm::detail::kern
