// A minimal vector vocabulary over which every kernel is written once: vf<A> is xsimd::batch<float, A>
// for a SIMD architecture and plain float for scalar_arch, with the handful of operations the kernels
// use. The scalar forms are written out (not xsimd's scalar overloads) so the scalar table never calls
// code compiled with another ISA's flags.
#pragma once
#include <math.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/simd.hpp"

namespace kfm::detail::kern {
namespace {

template <class A>
struct vtype {
    using type = xsimd::batch<float, A>;
};
template <>
struct vtype<scalar_arch> {
    using type = float;
};
template <class A>
using vf = typename vtype<A>::type;

template <class A>
inline vf<A> load_f(const float* p) noexcept {
    if constexpr (lanes<A> == 1) return *p;
    else return vf<A>::load_unaligned(p);
}
template <class A>
inline void store_f(float* p, const vf<A>& v) noexcept {
    if constexpr (lanes<A> == 1) *p = v;
    else v.store_unaligned(p);
}
template <class A>
inline vf<A> splat(float v) noexcept {
    return vf<A>(v);
}
// The 32-bit integer lanes of a float vector, for bit operations on floats (sign_bits.hpp's sign flips, the
// quadrant bits of trig.hpp's sine and cosine): vu<A> is xsimd::batch<std::uint32_t, A>, std::uint32_t for
// scalar_arch, and on NEON the compiler's uint32x4_t: there xsimd 8.1's integer batch operations and casts
// are out-of-line dispatch calls, one per operation (measured under qemu-aarch64: most of the extra
// instructions of an SSF transform, twice those of the whole cos_sin stage), while the compiler's vector
// operators are single instructions. Every form has the operators & ^ + - * and << / >> by a constant;
// u32_lanes<A> converts (of, to_float: no instruction) and makes constants (splat, and constant<Generator>:
// lane i = Generator::get(i, lanes<A>), SIMD forms only).
template <class A, class = void>
struct u32_lanes {
    using type = xsimd::batch<std::uint32_t, A>;
    static type splat(std::uint32_t v) noexcept { return type(v); }
    static type of(const vf<A>& v) noexcept { return xsimd::bitwise_cast<type>(v); }
    static vf<A> to_float(const type& b) noexcept { return xsimd::bitwise_cast<vf<A>>(b); }
    template <class Generator>
    static type constant() noexcept { return xsimd::make_batch_constant<type, Generator>(); }
};
#if XSIMD_WITH_NEON
template <class A>
struct u32_lanes<A, std::enable_if_t<std::is_base_of<xsimd::neon, A>::value>> {
    using type = uint32x4_t;
    static type splat(std::uint32_t v) noexcept { return vdupq_n_u32(v); }
    static type of(const vf<A>& v) noexcept { return vreinterpretq_u32_f32(v); }
    static vf<A> to_float(const type& b) noexcept { return vf<A>(vreinterpretq_f32_u32(b)); }
    template <class Generator>
    static type constant() noexcept {
        return type{Generator::get(0, 4), Generator::get(1, 4), Generator::get(2, 4), Generator::get(3, 4)};
    }
};
#endif
template <>
struct u32_lanes<scalar_arch> {
    using type = std::uint32_t;
    static type splat(std::uint32_t v) noexcept { return v; }
    static type of(float v) noexcept {
        type b;
        std::memcpy(&b, &v, sizeof b);
        return b;
    }
    static float to_float(type b) noexcept {
        float v;
        std::memcpy(&v, &b, sizeof v);
        return v;
    }
};
template <class A>
using vu = typename u32_lanes<A>::type;

// Whether this translation unit's ISA has a fused multiply-add. The one-lane forms below fuse exactly when
// the SIMD forms of the same table do, so a kernel's one-lane instance (scalar_arch) performs the same
// roundings per element as its vector instance: the single-vector paths that must match a batch path bit
// for bit rely on it. The kernels are compiled with -ffp-contract=off (cmake/kfm_platform.cmake), so no
// other a * b + c is fused behind the code's back.
#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
constexpr bool fused_mul_add = true;
#else
constexpr bool fused_mul_add = false;
#endif

// a * b + c, fused on the ISAs that have it. xsimd 8.1 has no AVX-512 fma kernel, and its plain SSE
// architecture (the 4-lane FFT of the AVX2 table, fft.hpp's half_width_arch) has none either: their
// generic a * b + c would be two roundings (the kernels are built without contraction), so both call the
// intrinsic where the translation unit has FMA.
template <class A>
inline vf<A> mul_add(const vf<A>& a, const vf<A>& b, const vf<A>& c) noexcept {
    if constexpr (lanes<A> == 1) {
        if constexpr (fused_mul_add) return ::fmaf(a, b, c);
        else return a * b + c;
    } else {
#if XSIMD_WITH_AVX512F
        if constexpr (std::is_base_of<xsimd::avx512f, A>::value) return vf<A>(_mm512_fmadd_ps(a, b, c));
#endif
#if defined(__FMA__) && XSIMD_WITH_SSE2
        if constexpr (lanes<A> == 4 && std::is_base_of<xsimd::sse2, A>::value) return vf<A>(_mm_fmadd_ps(a, b, c));
#endif
        return xsimd::fma(a, b, c);
    }
}
// a * b + c and a + b * c with c a scalar constant: mul_add with a splat, except on MVE, whose
// vector-by-scalar forms (vfmas, vfma with a core register) need no vector register for the constant (it has
// 8, and the trigonometric polynomials' constants otherwise went to the stack). Fused the same way.
template <class A>
inline vf<A> mul_add_scalar(const vf<A>& a, const vf<A>& b, float c) noexcept {
#if KFM_MVE
    if constexpr (std::is_same<mve_arch, A>::value) return vfmasq_n_f32(a.data, b.data, c);
#endif
    return mul_add<A>(a, b, splat<A>(c));
}
template <class A>
inline vf<A> add_mul_scalar(const vf<A>& a, const vf<A>& b, float c) noexcept {
#if KFM_MVE
    if constexpr (std::is_same<mve_arch, A>::value) return vfmaq_n_f32(a.data, b.data, c);
#endif
    return mul_add<A>(b, splat<A>(c), a);
}
// c - a * b (fused like mul_add)
template <class A>
inline vf<A> neg_mul_add(const vf<A>& a, const vf<A>& b, const vf<A>& c) noexcept {
    if constexpr (lanes<A> == 1) {
        if constexpr (fused_mul_add) return ::fmaf(-a, b, c);
        else return c - a * b;
    } else {
#if XSIMD_WITH_AVX512F
        if constexpr (std::is_base_of<xsimd::avx512f, A>::value) return vf<A>(_mm512_fnmadd_ps(a, b, c));
#endif
#if defined(__FMA__) && XSIMD_WITH_SSE2
        if constexpr (lanes<A> == 4 && std::is_base_of<xsimd::sse2, A>::value) return vf<A>(_mm_fnmadd_ps(a, b, c));
#endif
        return xsimd::fnma(a, b, c);
    }
}
// a * b - c (fused like mul_add)
template <class A>
inline vf<A> mul_sub(const vf<A>& a, const vf<A>& b, const vf<A>& c) noexcept {
    if constexpr (lanes<A> == 1) {
        if constexpr (fused_mul_add) return ::fmaf(a, b, -c);
        else return a * b - c;
    } else {
#if XSIMD_WITH_AVX512F
        if constexpr (std::is_base_of<xsimd::avx512f, A>::value) return vf<A>(_mm512_fmsub_ps(a, b, c));
#endif
#if defined(__FMA__) && XSIMD_WITH_SSE2
        if constexpr (lanes<A> == 4 && std::is_base_of<xsimd::sse2, A>::value) return vf<A>(_mm_fmsub_ps(a, b, c));
#endif
        return xsimd::fms(a, b, c);
    }
}
template <class A>
inline vf<A> max0(const vf<A>& a) noexcept {
    if constexpr (lanes<A> == 1) return a > 0.0f ? a : 0.0f;
    else return xsimd::max(a, vf<A>(0.0f));
}
template <class A>
inline vf<A> min_f(const vf<A>& a, float bound) noexcept {
    if constexpr (lanes<A> == 1) return a < bound ? a : bound;
    else return xsimd::min(a, vf<A>(bound));
}
// exp, sqrt and log1p: xsimd's on SIMD ISAs, the C library's on scalar.
template <class A>
inline vf<A> exp_f(const vf<A>& a) noexcept {
    if constexpr (lanes<A> == 1) return std::exp(a);
    else return xsimd::exp(a);
}
template <class A>
inline vf<A> sqrt_f(const vf<A>& a) noexcept {
    if constexpr (lanes<A> == 1) return std::sqrt(a);
    else return xsimd::sqrt(a);
}
template <class A>
inline vf<A> log1p_f(const vf<A>& a) noexcept {
    if constexpr (lanes<A> == 1) return std::log1p(a);
    else return xsimd::log1p(a);
}

}  // namespace
}  // namespace kfm::detail::kern
