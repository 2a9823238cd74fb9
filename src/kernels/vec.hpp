// A minimal vector vocabulary over which every kernel is written once: vf<A> is xsimd::batch<float, A>
// for a SIMD architecture and plain float for scalar_arch, with the handful of operations the kernels
// use. The scalar forms are written out (not xsimd's scalar overloads) so the scalar table never calls
// code compiled with another ISA's flags.
#pragma once
#include <cmath>
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
// a * b + c, fused on the SIMD ISAs that have it. xsimd 8.1 has no AVX-512 fma kernel: its generic
// a * b + c is fused only when the compiler contracts it (sanitizer builds showed it does not always),
// so AVX-512 calls the intrinsic.
template <class A>
inline vf<A> mul_add(const vf<A>& a, const vf<A>& b, const vf<A>& c) noexcept {
    if constexpr (lanes<A> == 1) {
        return a * b + c;
    } else {
#if XSIMD_WITH_AVX512F
        if constexpr (std::is_base_of<xsimd::avx512f, A>::value) return vf<A>(_mm512_fmadd_ps(a, b, c));
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
        return c - a * b;
    } else {
#if XSIMD_WITH_AVX512F
        if constexpr (std::is_base_of<xsimd::avx512f, A>::value) return vf<A>(_mm512_fnmadd_ps(a, b, c));
#endif
        return xsimd::fnma(a, b, c);
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
