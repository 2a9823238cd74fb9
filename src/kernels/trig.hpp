// Weighted sine and cosine for the fused feature stage, written once over the architecture A (every SIMD
// ISA and the scalar table run this same code): w sin(a) and w cos(a) without branches or tables.
//
// Method: a = k h + r with k = round(a / h) (the 1.5 * 2^23 "magic" addition, whose low mantissa bits
// then hold k), r = a - k h by Cody-Waite (parts below), minimax polynomials for sin r and cos r, and the
// quadrant folded into the weight's sign bit.
//  - sine and cosine together (cos_sin): h = pi/2, |r| <= pi/4; sin r odd degree 7, cos r even degree 8;
//    where k is odd the two swap (a bitwise swap, no branch). With FMA pi/2 = h1 + h2 + h3 (h1 = fl(pi/2));
//    a - k h1 is exact in one FMA (the result is a multiple of 2^-24 below 1), so r keeps its relative
//    accuracy even near the zeros of sine and cosine (r tiny). Without FMA four parts, the first three of
//    8 significant bits (k times each exact for |k| < 2^16, i.e. |a| < 1e5).
//  - cosine alone (cos_phase): h = pi, |r| <= pi/2, cos r even degree 10 (fitted with a Remez exchange in
//    50-digit arithmetic), (-1)^k the only correction: nothing to swap, one polynomial. pi = p1 + p2 with
//    FMA; 8- and 9-bit parts without (exact products for |k| < 2^15).
// ISAs with a fused multiply-add: AVX2+FMA, AVX-512, AArch64, scalar where the compiler targets FMA;
// without: ARMv7 NEON, the scalar x86-64 baseline.
// Accuracy, against double-precision sin/cos of the same float a:
//  - |a| <= 1e5, every ISA: |error| <= 2.5e-7 (tests/kernels/features_test.cpp, also at the hard points:
//    near multiples of pi/2 and the rounding midpoints of a / h).
//  - cos_sin in ulp of the result (kfm_trig_accuracy, bench/peers/trig_accuracy.cpp: every 97th float of
//    each range plus the floats nearest k pi/2): with FMA at most 1.5 ulp for every |a| <= 1e5 (SLEEF's
//    sincosf u35: 2.4 ulp); without FMA 2.4 ulp for |a| <= 128, and beyond an absolute 1.1e-7 (the
//    reduction's rounding, relative near the zeros).
//  - cos_phase: absolute, 1.5e-7 with FMA and 1.7e-7 without over 4e5 random arguments per decade up to
//    1e5 (not relative near the zeros of cos a: the polynomial is evaluated at |r| near pi/2 there).
// Beyond 1e5 the float spacing of a itself (ulp(1e5) = 0.0078) dominates any of this. Arguments are
// clamped to |a| <= 2^22 (spacing 0.5, where cos a carries no information), so every finite argument
// gives a finite result bounded by |w| (1 + 2^-21) (tested up to the largest float), never NaN or
// infinity.
#pragma once
#include <math.h>

#include <cstdint>
#include <iterator>
#include <utility>

#include "kernels/vec.hpp"

// Microcontrollers (M-profile: Cortex-M4F, M7, M55; one float per instruction, no vector unit to spread a
// cost over) take the cheaper of two shapes at two places, both chosen here:
//  - KFM_TRIG_INLINE forces the small functions below inline: at -Os GCC called them out of line, which
//    doubled the feature stage (M4F, 256 cos/sin: 32,540 instructions against 11,305 inlined, for 352 B of
//    flash); elsewhere plain inline, the size budget of the SSF-only AArch64 build deciding
//    (scripts/firmware/code-size.sh: +3.5 KB forced);
//  - sin_cos_weighted keeps the half-turn reduction: sine and cosine within 2.5e-7 absolute, what a feature
//    needs, but not relative near the zeros of cosine; the quarter turn's bit operations cost them 12 to
//    22 % of an SSF transform's instructions (docs/benchmarks.md, "Feature stage against a plain xsimd
//    loop").
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#define KFM_TRIG_FOR_MICROCONTROLLERS 1
#else
#define KFM_TRIG_FOR_MICROCONTROLLERS 0
#endif
#if KFM_TRIG_FOR_MICROCONTROLLERS
#define KFM_TRIG_INLINE KFM_ALWAYS_INLINE
#else
#define KFM_TRIG_INLINE inline
#endif

namespace kfm::detail::kern {
namespace {

// The choice above for the code below (sin_cos_weighted).
constexpr bool trig_for_microcontrollers = KFM_TRIG_FOR_MICROCONTROLLERS != 0;

// Whether this translation unit's ISA has a fused multiply-add (each ISA's kernels are compiled
// separately, so the answer is per table).
#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
constexpr bool trig_fused = true;
#else
constexpr bool trig_fused = false;
#endif

// a * b + c, fused where trig_fused (the reduction relies on it), else two roundings: the scalar form
// asks for fmaf explicitly, the SIMD forms are vec.hpp's mul_add.
template <class A>
KFM_TRIG_INLINE vf<A> trig_fma(const vf<A>& a, const vf<A>& b, const vf<A>& c) noexcept {
    if constexpr (lanes<A> == 1 && trig_fused) return ::fmaf(a, b, c);
    else return mul_add<A>(a, b, c);
}
// The same with a constant c (a * b + c), or a constant b (a + x b, the arguments' order of vec.hpp's
// add_mul_scalar): identical results, the constant kept scalar (vec.hpp).
template <class A>
KFM_TRIG_INLINE vf<A> trig_fma_add(const vf<A>& a, const vf<A>& b, float c) noexcept {
    if constexpr (lanes<A> == 1) return trig_fma<A>(a, b, c);
    else return mul_add_scalar<A>(a, b, c);
}
template <class A>
KFM_TRIG_INLINE vf<A> trig_fma_times(const vf<A>& a, const vf<A>& x, float b) noexcept {
    if constexpr (lanes<A> == 1) return trig_fma<A>(x, b, a);
    else return add_mul_scalar<A>(a, x, b);
}

namespace trig_constants {
constexpr float clamp = 4194304.0f;    // 2^22
constexpr float magic = 12582912.0f;   // 1.5 * 2^23: x + magic rounds x to an integer held in the low bits
}  // namespace trig_constants

// The two reductions a = k h + r: the half turn h = pi (cosine alone) and the quarter turn h = pi / 2 (sine
// and cosine together). h is split in parts: `fused` (the first one fl(h), used with FMA) and `plain`
// (without FMA: every part but the last short enough that k times it is an exact float product).
struct half_turn {
    static constexpr float inverse = 0x1.45f306p-2f;
    // pi = p1 + p2, residual 3.4e-15: k times it stays below 5e-9 for every |k| < 2^22
    static constexpr int fused_parts = 2;
    static constexpr float fused[3] = {0x1.921fb6p+1f, -0x1.777a5cp-24f, 0.0f};
    // 8 and 9 significant bits: exact products for |k| < 2^15 (|a| < 1e5); residual 1e-14
    static constexpr int plain_parts = 3;
    static constexpr float plain[4] = {0x1.92p+1f, 0x1.fbp-11f, 0x1.5110b4p-21f, 0.0f};
};
struct quarter_turn {
    static constexpr float inverse = 0x1.45f306p-1f;
    // pi / 2 = h1 + h2 + h3, residual 1.1e-23: r keeps its relative accuracy near the zeros of sine and
    // cosine (r tiny) for every |k| < 2^22
    static constexpr int fused_parts = 3;
    static constexpr float fused[3] = {0x1.921fb6p+0f, -0x1.777a5cp-25f, -0x1.ee59dap-50f};
    // 8 significant bits each: exact products for |k| < 2^16 (|a| < 1e5); residual 5e-17
    static constexpr int plain_parts = 4;
    static constexpr float plain[4] = {0x1.92p+0f, 0x1.fap-12f, 0x1.54p-20f, 0x1.10b462p-30f};
};

// Polynomials (each fitted to the relative error with float coefficients, evaluated in z = r^2):
namespace trig_constants {
// half turn, |r| <= pi/2 + 0.02 (Remez exchange in 50-digit arithmetic):
// sin r = r + r z (s1 + z (s2 + z (s3 + z s4))), max error 5.3e-9
constexpr float s1 = -0x1.555548p-3f, s2 = 0x1.110e36p-7f, s3 = -0x1.9f567cp-13f, s4 = 0x1.5c73ecp-19f;
// cos r = 1 + z (c1 + z (c2 + z (c3 + z (c4 + z c5)))), max error 2.8e-10
constexpr float c1 = -0.5f, c2 = 0x1.555546p-5f, c3 = -0x1.6c133ep-10f, c4 = 0x1.9f66ccp-16f,
                c5 = -0x1.179aa8p-22f;
// quarter turn, |r| <= pi/4 + 0.01 (minimax by linear programming on 3000 points, each coefficient
// rounded to float before the next is refitted): evaluated in float with FMA, both within 0.95 ulp
// sin r = r + r z (t1 + z (t2 + z t3))
constexpr float t1 = -0x1.555556p-3f, t2 = 0x1.110e58p-7f, t3 = -0x1.9b5d4p-13f;
// cos r = 1 + z (-1/2 + z (d2 + z (d3 + z d4)))
constexpr float d2 = 0x1.555556p-5f, d3 = -0x1.6c1158p-10f, d4 = 0x1.9bp-16f;
}  // namespace trig_constants

// a = k h + r for the turn H: r, and y = a / h + magic, whose low mantissa bits hold k.
template <class A>
struct trig_reduced {
    vf<A> r;
    vf<A> y;
};

template <class H, class A>
KFM_TRIG_INLINE trig_reduced<A> trig_reduce(const vf<A>& a_in) noexcept {
    namespace c = trig_constants;
    vf<A> a;
    if constexpr (lanes<A> == 1) a = a_in > c::clamp ? c::clamp : a_in < -c::clamp ? -c::clamp : a_in;
    else a = xsimd::min(xsimd::max(a_in, splat<A>(-c::clamp)), splat<A>(c::clamp));
    const vf<A> y = trig_fma_add<A>(a, splat<A>(H::inverse), c::magic);
    const vf<A> k = y - splat<A>(c::magic);
    vf<A> r;
    if constexpr (trig_fused) {
        r = trig_fma_times<A>(a, k, -H::fused[0]);
        r = trig_fma_times<A>(r, k, -H::fused[1]);
        if constexpr (H::fused_parts == 3) r = trig_fma_times<A>(r, k, -H::fused[2]);
    } else {
        r = a - k * splat<A>(H::plain[0]);
        r = r - k * splat<A>(H::plain[1]);
        r = r - k * splat<A>(H::plain[2]);
        if constexpr (H::plain_parts == 4) r = r - k * splat<A>(H::plain[3]);
    }
    return {r, y};
}

// w with its sign flipped in the lanes where the integer held in y's low mantissa bits is odd.
template <class A>
KFM_TRIG_INLINE vf<A> flip_sign_if_odd(const vf<A>& w, const vf<A>& y) noexcept {
    using U = u32_lanes<A>;
    if constexpr (lanes<A> == 1) return U::to_float(U::of(w) ^ (U::of(y) << 31));
    else return w ^ U::to_float(U::of(y) << 31);
}

// Horner's rule over c = C::coefficients, highest degree first: (((z c[0] + c[1]) z + c[2]) ... ) z + c[n],
// each step one trig_fma_add (the constant kept scalar). One function with compile-time coefficients, so
// the compiled code is that of the chains written out by hand: GCC's inlining of the feature stage (-Os on
// Cortex-M, -O3 elsewhere) changed with an extra call level or with the coefficients as arguments.
template <class A, class C, class = std::make_index_sequence<std::size(C::coefficients) - 2>>
struct trig_horner;
template <class A, class C, std::size_t... I>
struct trig_horner<A, C, std::index_sequence<I...>> {
    static KFM_TRIG_INLINE vf<A> of(const vf<A>& z) noexcept {
        vf<A> p = trig_fma_add<A>(z, splat<A>(C::coefficients[0]), C::coefficients[1]);
        ((p = trig_fma_add<A>(p, z, C::coefficients[I + 2])), ...);
        return p;
    }
};

// The polynomials of trig_constants, highest degree first: sin r = r + r z P(z), cos r = Q(z).
namespace trig_polynomials {
namespace c = trig_constants;
struct sin_half {  // P, half turn
    static constexpr float coefficients[] = {c::s4, c::s3, c::s2, c::s1};
};
struct cos_half {  // Q, half turn
    static constexpr float coefficients[] = {c::c5, c::c4, c::c3, c::c2, c::c1, 1.0f};
};
struct sin_quarter {  // P, quarter turn
    static constexpr float coefficients[] = {c::t3, c::t2, c::t1};
};
struct cos_quarter {  // Q, quarter turn
    static constexpr float coefficients[] = {c::d4, c::d3, c::d2, -0.5f, 1.0f};
};
}  // namespace trig_polynomials

template <class A>
KFM_TRIG_INLINE vf<A> sin_poly(const vf<A>& r, const vf<A>& z) noexcept {
    const vf<A> p = trig_horner<A, trig_polynomials::sin_half>::of(z);
    return trig_fma<A>(r * z, p, r);
}
template <class A>
KFM_TRIG_INLINE vf<A> cos_poly(const vf<A>& z) noexcept {
    return trig_horner<A, trig_polynomials::cos_half>::of(z);
}
template <class A>
KFM_TRIG_INLINE vf<A> sin_poly_quarter(const vf<A>& r, const vf<A>& z) noexcept {
    const vf<A> p = trig_horner<A, trig_polynomials::sin_quarter>::of(z);
    return trig_fma<A>(r * z, p, r);
}
template <class A>
KFM_TRIG_INLINE vf<A> cos_poly_quarter(const vf<A>& z) noexcept {
    return trig_horner<A, trig_polynomials::cos_quarter>::of(z);
}

// s = w sin(a), c = w cos(a). With a = k pi/2 + r: for k mod 4 = 0, 1, 2, 3, sin a = sin r, cos r,
// -sin r, -cos r and cos a = cos r, -sin r, -cos r, sin r. So the two polynomials swap where k is odd
// (a bitwise swap under an all-ones mask), sin a is negated where bit 1 of k is set and cos a where bit 1
// of k + 1 is (both folded into the weight's sign bit).
// On microcontrollers the half turn instead (trig_for_microcontrollers).

template <class A>
KFM_TRIG_INLINE void sin_cos_weighted(const vf<A>& a, const vf<A>& w, vf<A>& s, vf<A>& c) noexcept {
    if constexpr (trig_for_microcontrollers) {
        const trig_reduced<A> t = trig_reduce<half_turn, A>(a);
        const vf<A> z = t.r * t.r;
        const vf<A> signed_w = flip_sign_if_odd<A>(w, t.y);
        s = signed_w * sin_poly<A>(t.r, z);
        c = signed_w * cos_poly<A>(z);
    } else {
        using U = u32_lanes<A>;
        const trig_reduced<A> t = trig_reduce<quarter_turn, A>(a);
        const vf<A> z = t.r * t.r;
        const vu<A> sp = U::of(sin_poly_quarter<A>(t.r, z)), cp = U::of(cos_poly_quarter<A>(z));
        const vu<A> k = U::of(t.y), sign = U::splat(0x80000000u);
        const vu<A> swap = (sp ^ cp) & (U::splat(0) - (k & U::splat(1)));
        const vu<A> wb = U::of(w);
        s = U::to_float(wb ^ ((k << 30) & sign)) * U::to_float(sp ^ swap);
        c = U::to_float(wb ^ (((k + U::splat(1)) << 30) & sign)) * U::to_float(cp ^ swap);
    }
}

// w cos(a): the half-turn reduction, where (-1)^k is the only quadrant correction (no swap), so the cosine
// polynomial alone serves; its error is absolute, within 2.5e-7 (not relative near the zeros of cos a).
template <class A>
KFM_TRIG_INLINE vf<A> cos_weighted(const vf<A>& a, const vf<A>& w) noexcept {
    const trig_reduced<A> t = trig_reduce<half_turn, A>(a);
    return flip_sign_if_odd<A>(w, t.y) * cos_poly<A>(t.r * t.r);
}

}  // namespace
}  // namespace kfm::detail::kern
