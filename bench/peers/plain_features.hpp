// The benchmark peer of the fused feature stage: a plain xsimd loop applying the nonlinearity to an
// argument array that was already scaled (and phase-shifted) in a separate pass, without weights.
// The kind is dispatched once, outside the loop, so each loop is the straightforward one a user would write.
// kfm_bench compares features/<isa>/... against it (features/xsimd/..., plain_features_avx2.cpp); the
// runtime never calls it.
#pragma once
#include <math.h>

#include "kernels/kernel_table.hpp"
#include "kernels/simd.hpp"

namespace kfm::detail::kern {
namespace {

// out0[i] = f(a[i]) (and out1[i] = sin a[i] for cos_sin): SIMD op V on full batches, scalar op S on the tail.
template <class A, class V, class S>
inline void plain_loop(const float* a, std::size_t n, float* out0, float* out1, V simd_op,
                       S scalar_op) noexcept {
    using B = xsimd::batch<float, A>;
    constexpr std::size_t W = B::size;
    std::size_t i = 0;
    for (; i + W <= n; i += W) simd_op(B::load_unaligned(a + i), out0 + i, out1 + i);
    for (; i < n; ++i) scalar_op(a[i], out0 + i, out1 + i);
}

template <class A>
void plain_features(format::nonlinearity kind, const float* a, std::size_t n, float* out0,
                    float* out1) noexcept {
    using B = xsimd::batch<float, A>;
    using N = format::nonlinearity;
    const B zero(0.0f), one(1.0f);
    switch (kind) {
        case N::cos_sin:
            plain_loop<A>(a, n, out0, out1,
                          [](const B& x, float* o0, float* o1) {
                              const auto sc = xsimd::sincos(x);
                              sc.second.store_unaligned(o0);
                              sc.first.store_unaligned(o1);
                          },
                          [](float x, float* o0, float* o1) {
                              *o0 = ::cosf(x);
                              *o1 = ::sinf(x);
                          });
            break;
        case N::cos_phase:
            plain_loop<A>(a, n, out0, out1,
                          [](const B& x, float* o0, float*) { xsimd::cos(x).store_unaligned(o0); },
                          [](float x, float* o0, float*) { *o0 = ::cosf(x); });
            break;
        case N::relu:
            plain_loop<A>(a, n, out0, out1,
                          [zero](const B& x, float* o0, float*) { xsimd::max(x, zero).store_unaligned(o0); },
                          [](float x, float* o0, float*) { *o0 = x > 0.0f ? x : 0.0f; });
            break;
        case N::step:
            plain_loop<A>(a, n, out0, out1,
                          [zero, one](const B& x, float* o0, float*) {
                              xsimd::select(x > zero, one, zero).store_unaligned(o0);
                          },
                          [](float x, float* o0, float*) { *o0 = x > 0.0f ? 1.0f : 0.0f; });
            break;
        case N::relu2:
            plain_loop<A>(a, n, out0, out1,
                          [zero](const B& x, float* o0, float*) {
                              const B r = xsimd::max(x, zero);
                              (r * r).store_unaligned(o0);
                          },
                          [](float x, float* o0, float*) { *o0 = x > 0.0f ? x * x : 0.0f; });
            break;
        case N::identity:
            plain_loop<A>(a, n, out0, out1, [](const B& x, float* o0, float*) { x.store_unaligned(o0); },
                          [](float x, float* o0, float*) { *o0 = x; });
            break;
        case N::product: break;
    }
}

}  // namespace
}  // namespace kfm::detail::kern
