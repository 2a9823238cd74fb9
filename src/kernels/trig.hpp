// Weighted sine and cosine for the fused feature stage, written once over the architecture A (every SIMD
// ISA and the scalar table run this same code): w sin(a) and w cos(a) without branches or tables.
//
// Method: a = k pi + r with k = round(a / pi) (the 1.5 * 2^23 "magic" addition, whose low mantissa bits
// then hold k), r = a - k pi by Cody-Waite (two or three parts, below); sin and cos of r on [-pi/2, pi/2]
// are minimax polynomials (odd degree 9, even degree 10, fitted on [0, pi/2 + 0.02] with a Remez exchange
// in 50-digit arithmetic, coefficients rounded to float), and (-1)^k is folded into the weight by a
// sign-bit xor. Reducing modulo pi (not pi/2) needs no swapping of sine and cosine between quadrants.
//  - ISAs with a fused multiply-add (AVX2+FMA, AVX-512, AArch64, scalar where the compiler targets FMA):
//    pi = p1 + p2 with p1 = fl(pi); a - k p1 is exact in one FMA for every k, and a third part would
//    change r by less than 5e-9 for every |a| <= 2^22, so the reduced argument is within about one float
//    rounding of the exact one.
//  - Without FMA (ARMv7 NEON, scalar x86-64 baseline): p1 and p2 carry 8 significant bits, so k p1 and
//    k p2 are exact products for |k| < 2^15, i.e. |a| < 1e5.
// Accuracy (tests/kernels/features_test.cpp, against double-precision sin/cos of the same float a):
//  - |a| <= 1e5, every ISA: |error| <= 2.5e-7 (about two float ulps at 1), also at the hard points
//    (near multiples of pi/2 and the rounding midpoints of a / pi). Measured maximum over 4e5 random
//    arguments per decade: 1.5e-7 with FMA, 1.7e-7 without.
//  - beyond 1e5 (measured, not tested): with FMA still 1.5e-7 up to 1e6 and 2.8e-7 up to 4e6; without
//    FMA the error grows towards ulp(a)/2 (0.03 at 1e6). Neither matters next to the float spacing of a
//    itself (ulp(1e5) = 0.0078). Arguments are clamped to |a| <= 2^22 (spacing 0.5, where cos a carries
//    no information), so every finite argument gives a finite result bounded by |w| (1 + 2^-21)
//    (tested up to the largest float), never NaN or infinity.
#pragma once
#include <math.h>

#include <cstdint>
#include <cstring>

#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

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
inline vf<A> trig_fma(const vf<A>& a, const vf<A>& b, const vf<A>& c) noexcept {
    if constexpr (lanes<A> == 1 && trig_fused) return ::fmaf(a, b, c);
    else return mul_add<A>(a, b, c);
}
// The same with a constant c (a * b + c), or a constant b (a + x b, the arguments' order of vec.hpp's
// add_mul_scalar): identical results, the constant kept scalar (vec.hpp).
template <class A>
inline vf<A> trig_fma_add(const vf<A>& a, const vf<A>& b, float c) noexcept {
    if constexpr (lanes<A> == 1) return trig_fma<A>(a, b, c);
    else return mul_add_scalar<A>(a, b, c);
}
template <class A>
inline vf<A> trig_fma_times(const vf<A>& a, const vf<A>& x, float b) noexcept {
    if constexpr (lanes<A> == 1) return trig_fma<A>(x, b, a);
    else return add_mul_scalar<A>(a, x, b);
}

namespace trig_constants {
constexpr float clamp = 4194304.0f;    // 2^22
constexpr float magic = 12582912.0f;   // 1.5 * 2^23: x + magic rounds x to an integer held in the low bits
constexpr float inv_pi = 0x1.45f306p-2f;
// pi = p1 + p2 (residual 3.4e-15, so k times it stays below 5e-9 for every |k| < 2^22) with FMA;
// pi = q1 + q2 + q3 (residual 1e-14) with 8-bit q1, q2 without.
constexpr float p1 = 0x1.921fb6p+1f, p2 = -0x1.777a5cp-24f;
constexpr float q1 = 0x1.92p+1f, q2 = 0x1.fbp-11f, q3 = 0x1.5110b4p-21f;
// sin r = r + r z (s1 + z (s2 + z (s3 + z s4))), z = r^2: max error 5.3e-9 on |r| <= pi/2 + 0.02
constexpr float s1 = -0x1.555548p-3f, s2 = 0x1.110e36p-7f, s3 = -0x1.9f567cp-13f, s4 = 0x1.5c73ecp-19f;
// cos r = 1 + z (c1 + z (c2 + z (c3 + z (c4 + z c5)))): max error 2.8e-10 on the same interval
constexpr float c1 = -0.5f, c2 = 0x1.555546p-5f, c3 = -0x1.6c133ep-10f, c4 = 0x1.9f66ccp-16f,
                c5 = -0x1.179aa8p-22f;
}  // namespace trig_constants

// a = k pi + r: r, and w with its sign flipped where k is odd.
template <class A>
struct trig_reduced {
    vf<A> r;
    vf<A> w;
};

// w with its sign flipped in the lanes where the integer held in y's low mantissa bits is odd.
template <class A>
inline vf<A> flip_sign_if_odd(const vf<A>& w, const vf<A>& y) noexcept {
    if constexpr (lanes<A> == 1) {
        std::uint32_t yb, wb;
        std::memcpy(&yb, &y, sizeof yb);
        std::memcpy(&wb, &w, sizeof wb);
        wb ^= yb << 31;
        float out;
        std::memcpy(&out, &wb, sizeof out);
        return out;
    } else {
        using I = xsimd::batch<std::int32_t, A>;
        const I odd = xsimd::bitwise_cast<I>(y) << 31;
        return w ^ xsimd::bitwise_cast<vf<A>>(odd);
    }
}

template <class A>
inline trig_reduced<A> trig_reduce(const vf<A>& a_in, const vf<A>& w) noexcept {
    namespace c = trig_constants;
    vf<A> a;
    if constexpr (lanes<A> == 1) a = a_in > c::clamp ? c::clamp : a_in < -c::clamp ? -c::clamp : a_in;
    else a = xsimd::min(xsimd::max(a_in, splat<A>(-c::clamp)), splat<A>(c::clamp));
    const vf<A> y = trig_fma_add<A>(a, splat<A>(c::inv_pi), c::magic);
    const vf<A> k = y - splat<A>(c::magic);
    vf<A> r;
    if constexpr (trig_fused) {
        r = trig_fma_times<A>(a, k, -c::p1);
        r = trig_fma_times<A>(r, k, -c::p2);
    } else {
        r = a - k * splat<A>(c::q1);
        r = r - k * splat<A>(c::q2);
        r = r - k * splat<A>(c::q3);
    }
    return {r, flip_sign_if_odd<A>(w, y)};
}

template <class A>
inline vf<A> sin_poly(const vf<A>& r, const vf<A>& z) noexcept {
    namespace c = trig_constants;
    vf<A> p = trig_fma_add<A>(z, splat<A>(c::s4), c::s3);
    p = trig_fma_add<A>(p, z, c::s2);
    p = trig_fma_add<A>(p, z, c::s1);
    return trig_fma<A>(r * z, p, r);
}

template <class A>
inline vf<A> cos_poly(const vf<A>& z) noexcept {
    namespace c = trig_constants;
    vf<A> p = trig_fma_add<A>(z, splat<A>(c::c5), c::c4);
    p = trig_fma_add<A>(p, z, c::c3);
    p = trig_fma_add<A>(p, z, c::c2);
    p = trig_fma_add<A>(p, z, c::c1);
    return trig_fma_add<A>(p, z, 1.0f);
}

// s = w sin(a), c = w cos(a).
template <class A>
inline void sin_cos_weighted(const vf<A>& a, const vf<A>& w, vf<A>& s, vf<A>& c) noexcept {
    const trig_reduced<A> t = trig_reduce<A>(a, w);
    const vf<A> z = t.r * t.r;
    s = t.w * sin_poly<A>(t.r, z);
    c = t.w * cos_poly<A>(z);
}

// w cos(a).
template <class A>
inline vf<A> cos_weighted(const vf<A>& a, const vf<A>& w) noexcept {
    const trig_reduced<A> t = trig_reduce<A>(a, w);
    return t.w * cos_poly<A>(t.r * t.r);
}

}  // namespace
}  // namespace kfm::detail::kern
