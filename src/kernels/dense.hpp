// Dense projection for the baseline methods, written once over the architecture A: y = A x (gemv) and
// Y = X A^T for a batch (gemm). A is row-major rows x cols. Four rows (gemv) or four input vectors
// (gemm) share each load so the loops are limited by streaming A, not by load ports.
#pragma once
#include <cstddef>

#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

template <class A>
inline float lane_sum(const vf<A>& v) noexcept {
    if constexpr (lanes<A> == 1) return v;
    else return xsimd::hadd(v);
}

// Dot products of K rows r[0..K) with K vectors v[0..K) pairwise (rows and vectors may repeat), so that
// gemv (four rows, one vector) and gemm (one row, four vectors) share the same loop.
template <class A, std::size_t K>
inline void dots(const float* const* r, const float* const* v, std::size_t cols, float* out) noexcept {
    constexpr std::size_t W = lanes<A>;
    vf<A> acc[K];
    for (std::size_t k = 0; k < K; ++k) acc[k] = splat<A>(0.0f);
    std::size_t c = 0;
    for (; c + W <= cols; c += W)
        for (std::size_t k = 0; k < K; ++k) acc[k] = mul_add<A>(load_f<A>(r[k] + c), load_f<A>(v[k] + c), acc[k]);
    for (std::size_t k = 0; k < K; ++k) {
        float s = lane_sum<A>(acc[k]);
        for (std::size_t cc = c; cc < cols; ++cc) s += r[k][cc] * v[k][cc];
        out[k] = s;
    }
}

template <class A>
void gemv(const float* a, std::size_t rows, std::size_t cols, const float* x, float* y) noexcept {
    std::size_t i = 0;
    for (; i + 4 <= rows; i += 4) {
        const float* r[4] = {a + i * cols, a + (i + 1) * cols, a + (i + 2) * cols, a + (i + 3) * cols};
        const float* v[4] = {x, x, x, x};
        dots<A, 4>(r, v, cols, y + i);
    }
    for (; i < rows; ++i) {
        const float* r[1] = {a + i * cols};
        const float* v[1] = {x};
        dots<A, 1>(r, v, cols, y + i);
    }
}

template <class A>
void gemm(const float* a, std::size_t rows, std::size_t cols, const float* x, std::size_t ldx,
          std::size_t n, float* y, std::size_t ldy) noexcept {
    std::size_t b = 0;
    for (; b + 4 <= n; b += 4) {
        const float* v[4] = {x + b * ldx, x + (b + 1) * ldx, x + (b + 2) * ldx, x + (b + 3) * ldx};
        for (std::size_t i = 0; i < rows; ++i) {
            const float* r[4] = {a + i * cols, a + i * cols, a + i * cols, a + i * cols};
            float out[4];
            dots<A, 4>(r, v, cols, out);
            for (std::size_t k = 0; k < 4; ++k) y[(b + k) * ldy + i] = out[k];
        }
    }
    for (; b < n; ++b) gemv<A>(a, rows, cols, x + b * ldx, y + b * ldy);
}

}  // namespace
}  // namespace kfm::detail::kern
