// A radial kernel against n points from dot products (Nystroem's kernel_landmarks projection): with
// d2_j = max(x_sq + l_sq[j] - 2 dot[j], 0) = |x - l_j|^2 (dot[j] = x . l_j, x_sq = |x|^2, l_sq[j] = |l_j|^2,
// so the squared distances come from one GEMV), out[j] = k(d2_j) for the kind in landmark_kernel
// (kernel_table.hpp). The clamp at 0 keeps a rounding of the difference below 0 from giving a kernel value
// above 1. dot == out is allowed. Written once over the architecture A (xsimd's exp, sqrt and log1p on SIMD
// ISAs, the C library's on scalar).
#pragma once
#include <cmath>
#include <cstddef>
#include <type_traits>

#include "kernels/kernel_table.hpp"
#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

// Beyond this u = a r the Matern values p(u) e^-u are below float's smallest subnormal (e^-104 < 2^-149 /
// 104^2): u is clamped there so that p(u) never overflows (a huge u times e^-u = 0 would be inf x 0).
constexpr float matern_u_max = 128.0f;

// exp, sqrt, log1p and min of a vector (xsimd) or of a plain float (the C library), for the scalar tails.
template <class T> inline T exp_of(const T& v) noexcept {
    if constexpr (std::is_same_v<T, float>) return std::exp(v); else return xsimd::exp(v);
}
template <class T> inline T sqrt_of(const T& v) noexcept {
    if constexpr (std::is_same_v<T, float>) return std::sqrt(v); else return xsimd::sqrt(v);
}
template <class T> inline T log1p_of(const T& v) noexcept {
    if constexpr (std::is_same_v<T, float>) return std::log1p(v); else return xsimd::log1p(v);
}
template <class T> inline T min_of(const T& v, float bound) noexcept {
    if constexpr (std::is_same_v<T, float>) return v < bound ? v : bound; else return xsimd::min(v, T(bound));
}

// k of the clamped squared distance d2 (>= 0), for a vector or a plain float.
template <landmark_kernel_kind K, class T>
inline T kernel_of_distance(const T& d2, float a, float b) noexcept {
    if constexpr (K == landmark_kernel_kind::gaussian) {
        return exp_of(T(a) * d2);
    } else if constexpr (K == landmark_kernel_kind::rational_quadratic) {
        return exp_of(T(b) * log1p_of(T(a) * d2));  // (1 + a d2)^b with b = -alpha
    } else {
        const T u = min_of(T(a) * sqrt_of(d2), matern_u_max);
        if constexpr (K == landmark_kernel_kind::matern_half) return exp_of(T(0.0f) - u);
        else if constexpr (K == landmark_kernel_kind::matern_three_halves) return (T(1.0f) + u) * exp_of(T(0.0f) - u);
        else return (T(1.0f) + u + u * u * T(1.0f / 3.0f)) * exp_of(T(0.0f) - u);  // matern_five_halves
    }
}

template <landmark_kernel_kind K, class A>
void kernel_of_dots_of_kind(const float* dot, const float* l_sq, float x_sq, float a, float b, std::size_t n,
                            float* out) noexcept {
    constexpr std::size_t W = lanes<A>;
    std::size_t j = 0;
    if constexpr (W > 1) {
        const vf<A> xs = splat<A>(x_sq), two = splat<A>(2.0f);
        for (; j + W <= n; j += W) {
            const vf<A> d2 = neg_mul_add<A>(two, load_f<A>(dot + j), xs + load_f<A>(l_sq + j));
            store_f<A>(out + j, kernel_of_distance<K>(max0<A>(d2), a, b));
        }
    }
    for (; j < n; ++j) {
        const float d2 = x_sq + l_sq[j] - 2.0f * dot[j];
        out[j] = kernel_of_distance<K>(d2 > 0.0f ? d2 : 0.0f, a, b);
    }
}

template <class A>
void kernel_of_dots(const float* dot, const float* l_sq, float x_sq, const landmark_kernel& k, std::size_t n,
                    float* out) noexcept {
    using K = landmark_kernel_kind;
    switch (k.kind) {
        case K::gaussian: return kernel_of_dots_of_kind<K::gaussian, A>(dot, l_sq, x_sq, k.a, k.b, n, out);
        case K::matern_half: return kernel_of_dots_of_kind<K::matern_half, A>(dot, l_sq, x_sq, k.a, k.b, n, out);
        case K::matern_three_halves:
            return kernel_of_dots_of_kind<K::matern_three_halves, A>(dot, l_sq, x_sq, k.a, k.b, n, out);
        case K::matern_five_halves:
            return kernel_of_dots_of_kind<K::matern_five_halves, A>(dot, l_sq, x_sq, k.a, k.b, n, out);
        case K::rational_quadratic:
            return kernel_of_dots_of_kind<K::rational_quadratic, A>(dot, l_sq, x_sq, k.a, k.b, n, out);
    }
}

}  // namespace
}  // namespace kfm::detail::kern
