// A radial kernel against n points from dot products (Nystroem's kernel_landmarks projection): with
// d2_j = max(x_sq + l_sq[j] - 2 dot[j], 0) = |x - l_j|^2 (dot[j] = x . l_j, x_sq = |x|^2, l_sq[j] = |l_j|^2,
// so the squared distances come from one GEMV), out[j] = k(d2_j) for the kind in landmark_kernel
// (kernel_table.hpp). The clamp at 0 keeps a rounding of the difference below 0 from giving a kernel value
// above 1. dot == out is allowed. Written once over the architecture A (vec.hpp's exp_f, sqrt_f and log1p_f:
// xsimd's on SIMD ISAs, the C library's on scalar and for the tail).
#pragma once
#include <cstddef>

#include "kernels/kernel_table.hpp"
#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

// Beyond this u = a r the Matern values p(u) e^-u are below float's smallest subnormal (e^-104 < 2^-149 /
// 104^2): u is clamped there so that p(u) never overflows (a huge u times e^-u = 0 would be inf x 0).
constexpr float matern_u_max = 128.0f;

// k of the clamped squared distance d2 (>= 0), in the vocabulary of vec.hpp (scalar_arch: one float).
template <landmark_kernel_kind K, class A>
inline vf<A> kernel_of_distance(const vf<A>& d2, float a, float b) noexcept {
    using V = vf<A>;
    if constexpr (K == landmark_kernel_kind::gaussian) {
        return exp_f<A>(V(a) * d2);
    } else if constexpr (K == landmark_kernel_kind::rational_quadratic) {
        return exp_f<A>(V(b) * log1p_f<A>(V(a) * d2));  // (1 + a d2)^b with b = -alpha
    } else {
        const V u = min_f<A>(V(a) * sqrt_f<A>(d2), matern_u_max);
        if constexpr (K == landmark_kernel_kind::matern_half) return exp_f<A>(V(0.0f) - u);
        else if constexpr (K == landmark_kernel_kind::matern_three_halves) return (V(1.0f) + u) * exp_f<A>(V(0.0f) - u);
        else return (V(1.0f) + u + u * u * V(1.0f / 3.0f)) * exp_f<A>(V(0.0f) - u);  // matern_five_halves
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
            store_f<A>(out + j, kernel_of_distance<K, A>(max0<A>(d2), a, b));
        }
    }
    for (; j < n; ++j) {
        const float d2 = x_sq + l_sq[j] - 2.0f * dot[j];
        out[j] = kernel_of_distance<K, scalar_arch>(max0<scalar_arch>(d2), a, b);
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
