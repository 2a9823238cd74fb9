// Fused feature stage, written once over the architecture A: a_i = s_i t_i, then the nonlinearity, then
// the weight, stored straight into the output (one pass, no temporary). `product` segments are the
// runtime's (groups section), not a kernel.
// Accuracy (tests/kernels/test_features.cpp), for arguments up to |a| <= 1e4:
//  - cos_sin: cos/sin of the float argument a = fl(s t) are within 2e-6 * max(1, |w|) of their double
//    values (xsimd's float range reduction; the scalar reference calls cosf/sinf);
//  - cos_phase: the argument s t + b is one fused multiply-add where the ISA has FMA (else two roundings),
//    so the result is within |w| (2e-6 + 2^-23 |s t + b|) of w cos(s t + b) evaluated in double.
// The rounding of a float argument (2^-24 |a|, about 6e-4 at 1e4) is the inherent limit of float inputs.
#pragma once
#include <math.h>

#include "kernels/kernel_table.hpp"
#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

template <class A>
inline void sin_cos(const vf<A>& a, vf<A>& s, vf<A>& c) noexcept {
    if constexpr (lanes<A> == 1) {
        s = ::sinf(a);
        c = ::cosf(a);
    } else {
        const auto sc = xsimd::sincos(a);
        s = sc.first;
        c = sc.second;
    }
}

template <class A>
inline vf<A> cosine(const vf<A>& a) noexcept {
    if constexpr (lanes<A> == 1) return ::cosf(a);
    else return xsimd::cos(a);
}

// f(a) for the real-valued kinds.
template <format::nonlinearity K, class A>
inline vf<A> real_feature(const vf<A>& a) noexcept {
    if constexpr (K == format::nonlinearity::relu) return max0<A>(a);
    else if constexpr (K == format::nonlinearity::step) return positive<A>(a);
    else if constexpr (K == format::nonlinearity::relu2) {
        const vf<A> r = max0<A>(a);
        return r * r;
    } else return a;  // identity
}

// Elements [i, i + lanes<V>) of the segment with kind K; whether scales / weights are per argument is a
// template parameter so the loop body carries no branch.
template <format::nonlinearity K, bool PerScale, bool PerWeight, class V>
inline void feature_block(const feature_args& f, std::size_t i) noexcept {
    vf<V> s, w;
    if constexpr (PerScale) s = load_f<V>(f.scale + i);
    else s = splat<V>(f.scale_scalar);
    if constexpr (PerWeight) w = load_f<V>(f.weight + i) * splat<V>(f.weight_scalar);
    else w = splat<V>(f.weight_scalar);
    const vf<V> t = load_f<V>(f.t + i);
    if constexpr (K == format::nonlinearity::cos_phase) {
        store_f<V>(f.out0 + i, w * cosine<V>(mul_add<V>(s, t, load_f<V>(f.phase + i))));
        return;
    }
    const vf<V> a = s * t;
    if constexpr (K == format::nonlinearity::cos_sin) {
        vf<V> sn, cs;
        sin_cos<V>(a, sn, cs);
        store_f<V>(f.out0 + i, w * cs);
        store_f<V>(f.out1 + i, w * sn);
    } else {
        store_f<V>(f.out0 + i, w * real_feature<K, V>(a));
        if (f.out1) store_f<V>(f.out1 + i, w * real_feature<K, V>(-a));
    }
}

template <format::nonlinearity K, bool PerScale, bool PerWeight, class A>
inline void feature_loop(const feature_args& f) noexcept {
    constexpr std::size_t W = lanes<A>;
    std::size_t i = 0;
    for (; i + W <= f.n; i += W) feature_block<K, PerScale, PerWeight, A>(f, i);
    if constexpr (W > 1)
        for (; i < f.n; ++i) feature_block<K, PerScale, PerWeight, scalar_arch>(f, i);
}

template <format::nonlinearity K, class A>
inline void feature_loop(const feature_args& f) noexcept {
    if (f.scale) {
        if (f.weight) feature_loop<K, true, true, A>(f);
        else feature_loop<K, true, false, A>(f);
    } else {
        if (f.weight) feature_loop<K, false, true, A>(f);
        else feature_loop<K, false, false, A>(f);
    }
}

template <class A>
void features(const feature_args& f) noexcept {
    using N = format::nonlinearity;
    switch (f.kind) {
        case N::cos_sin: feature_loop<N::cos_sin, A>(f); break;
        case N::cos_phase: feature_loop<N::cos_phase, A>(f); break;
        case N::relu: feature_loop<N::relu, A>(f); break;
        case N::step: feature_loop<N::step, A>(f); break;
        case N::relu2: feature_loop<N::relu2, A>(f); break;
        case N::identity: feature_loop<N::identity, A>(f); break;
        case N::product: break;  // evaluated by the runtime from the groups section
    }
}

}  // namespace
}  // namespace kfm::detail::kern
