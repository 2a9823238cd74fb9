// The benchmark peer of the fused feature stage: a plain xsimd loop applying the nonlinearity to an
// argument array that was already scaled (and phase-shifted) in a separate pass, without weights.
// kfm_bench compares features/<isa>/... against it (features/xsimd/...); the runtime never calls it.
#pragma once
#include "kernels/features.hpp"

namespace kfm::detail::kern {
namespace {

template <class A>
void plain_features(format::nonlinearity kind, const float* a, std::size_t n, float* out0, float* out1) noexcept {
    using B = xsimd::batch<float, A>;
    constexpr std::size_t W = B::size;
    using N = format::nonlinearity;
    std::size_t i = 0;
    for (; i + W <= n; i += W) {
        const B x = B::load_unaligned(a + i);
        switch (kind) {
            case N::cos_sin: {
                const auto sc = xsimd::sincos(x);
                sc.second.store_unaligned(out0 + i);
                sc.first.store_unaligned(out1 + i);
                break;
            }
            case N::cos_phase: xsimd::cos(x).store_unaligned(out0 + i); break;
            case N::relu: xsimd::max(x, B(0.0f)).store_unaligned(out0 + i); break;
            case N::step: xsimd::select(x > B(0.0f), B(1.0f), B(0.0f)).store_unaligned(out0 + i); break;
            case N::relu2: {
                const B r = xsimd::max(x, B(0.0f));
                (r * r).store_unaligned(out0 + i);
                break;
            }
            default: x.store_unaligned(out0 + i); break;
        }
    }
    for (; i < n; ++i) {
        if (kind == N::cos_sin) {
            out0[i] = ::cosf(a[i]);
            out1[i] = ::sinf(a[i]);
        } else if (kind == N::cos_phase) {
            out0[i] = ::cosf(a[i]);
        } else {
            const float r = a[i] > 0.0f ? a[i] : 0.0f;
            out0[i] = kind == N::relu ? r : kind == N::step ? (a[i] > 0.0f ? 1.0f : 0.0f) : kind == N::relu2 ? r * r : a[i];
        }
    }
}

}  // namespace
}  // namespace kfm::detail::kern
