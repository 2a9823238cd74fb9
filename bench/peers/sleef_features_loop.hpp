// The loop behind sleef_features.hpp, written once over a vector type V: V names the register type, its
// lanes, load/store/multiply/broadcast and SLEEF's two sincos entry points for the ISA. The tail (n not a
// multiple of the lanes) goes through one padded vector.
#pragma once
#include <cstddef>

#include "peers/sleef_features.hpp"

namespace kfm_bench {

template <class V, class SinCos>
inline void sleef_cos_sin_block(const sleef_feature_args& f, std::size_t i, SinCos sincos) noexcept {
    const typename V::vec w = V::mul(V::load(f.weight + i), V::splat(f.weight_scalar));
    const auto sc = sincos(V::mul(V::load(f.scale + i), V::load(f.t + i)));
    V::store(f.out0 + i, V::mul(w, sc.y));  // SLEEF's pair: x = sin, y = cos
    V::store(f.out1 + i, V::mul(w, sc.x));
}

template <class V, class SinCos>
inline void sleef_cos_sin_loop(const sleef_feature_args& f, SinCos sincos) noexcept {
    constexpr std::size_t L = V::lanes;
    std::size_t i = 0;
    for (; i + L <= f.n; i += L) sleef_cos_sin_block<V>(f, i, sincos);
    if (i == f.n) return;
    float s[L] = {}, t[L] = {}, w[L] = {}, o0[L], o1[L];
    for (std::size_t j = 0; i + j < f.n; ++j) {
        s[j] = f.scale[i + j];
        t[j] = f.t[i + j];
        w[j] = f.weight[i + j];
    }
    sleef_cos_sin_block<V>({s, t, w, f.weight_scalar, L, o0, o1}, 0, sincos);
    for (std::size_t j = 0; i + j < f.n; ++j) {
        f.out0[i + j] = o0[j];
        f.out1[i + j] = o1[j];
    }
}

template <class V>
inline void sleef_cos_sin(sleef_ulp u, const sleef_feature_args& f) noexcept {
    if (u == sleef_ulp::u10) sleef_cos_sin_loop<V>(f, [](typename V::vec a) { return V::sincos_u10(a); });
    else sleef_cos_sin_loop<V>(f, [](typename V::vec a) { return V::sincos_u35(a); });
}

}  // namespace kfm_bench
