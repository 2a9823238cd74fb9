// The Gaussian prefactor of maclaurin-opt's maps for `rows` rows: out_r[j] *= exp(-|x_r|^2 / 2) for j < out_dim,
// x_r the d floats at x + r x_stride (PREP's x'), out_r at out + r out_stride.
// - |x_r|^2 is summed in the accumulator with eight partial sums (element i into partial i mod 8, then
//   ((p0 + p1) + (p2 + p3)) + ((p4 + p5) + (p6 + p7))). In double every square of a float is exact, so the sum
//   has the same bits however the compiler vectorises the eight partials (each ISA's flags compile this loop).
// - The factors of up to `double_lanes<A>` rows are one vector exp (AVX2, AVX-512, AArch64: xsimd's double exp),
//   a row alone going through the same vector as a padded group, so a row's bits do not depend on its batch.
//   The scalar reference and the ISAs without double vectors (ARMv7, Cortex-M) call std::exp.
// - A normal float factor scales in float (the outputs within a float rounding of the exact product); a
//   smaller one, for rows far from the shift, in the accumulator (float(factor) would lose its bits or flush).
// One call per pass instead of one std::exp per row: the exp and the sum were 17 % of a (16, 32) batch on AVX2.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kernels/simd.hpp"
#include "runtime/accumulator.hpp"

namespace kfm::detail::kern {
namespace {

// Rows whose exps share a vector: the double lanes of A where xsimd has double vectors, else 1.
template <class A>
constexpr std::size_t double_lanes_of() noexcept {
    if constexpr (std::is_same<A, scalar_arch>::value) {
        return 1;
    } else {
#if XSIMD_WITH_AVX2 || XSIMD_WITH_NEON64
        if constexpr (std::is_base_of<xsimd::avx2, A>::value || std::is_base_of<xsimd::avx512f, A>::value ||
                      std::is_base_of<xsimd::neon64, A>::value)
            return xsimd::batch<double, A>::size;
#endif
        return 1;
    }
}
template <class A>
constexpr std::size_t double_lanes = double_lanes_of<A>();

// exp(y) for the factors' arguments y <= 0, in double vectors: y clamped at -708 (below it a factor times any
// float output rounds to a zero of the same sign in float, as the exact factor's product does), k = round(y / ln 2)
// by the 1.5 2^52 shift, r = y - k ln 2 in two parts (ln 2's high part has 32 bits, so k ln2_hi is exact),
// e^r by its Taylor polynomial of degree 11 (|r| <= ln 2 / 2: relative error below 1e-14, far below the float
// rounding the factor gets next), times 2^k made in the exponent bits. xsimd's exp has a division and special
// cases this range never needs (the division alone was a sixth of the kernel's samples).
template <class A>
inline xsimd::batch<double, A> exp_nonpositive(const xsimd::batch<double, A>& y_in) noexcept {
    using V = xsimd::batch<double, A>;
    using register_type = typename V::register_type;
    using bits_type [[gnu::vector_size(sizeof(register_type))]] = std::int64_t;
    constexpr double shift = 6755399441055744.0;  // 1.5 2^52: its ulp is 1, so adding it rounds to an integer
    const V y = xsimd::max(y_in, V(-708.0));
    const V t = xsimd::fma(y, V(1.4426950408889634), V(shift));
    const V k = t - V(shift);
    V r = xsimd::fnma(k, V(6.93147180369123816490e-01), y);
    r = xsimd::fnma(k, V(1.90821492927058770002e-10), r);
    constexpr double c[] = {1.0 / 39916800, 1.0 / 3628800, 1.0 / 362880, 1.0 / 40320, 1.0 / 5040, 1.0 / 720,
                            1.0 / 120,      1.0 / 24,      1.0 / 6,      0.5,         1.0,        1.0};
    V p(c[0]);
    for (std::size_t i = 1; i < sizeof c / sizeof c[0]; ++i) p = xsimd::fma(p, r, V(c[i]));
    // t + 1023 = 1.5 2^52 + k + 1023 exactly, k + 1023 in [1, 1023]: its low 12 bits, shifted to the exponent
    // field, are 2^k (the shift drops the 1.5 2^52).
    const register_type biased = V(t + V(1023.0));
    bits_type bits;
    std::memcpy(&bits, &biased, sizeof bits);
    bits <<= 52;
    register_type power;
    std::memcpy(&power, &bits, sizeof power);
    return p * V(power);
}

inline accumulator squared_norm(const float* x, std::size_t n) noexcept {
    constexpr std::size_t K = 8;
    accumulator partial[K] = {};
    std::size_t i = 0;
    for (; i + K <= n; i += K)
        for (std::size_t k = 0; k < K; ++k) partial[k] += accumulator(x[i + k]) * accumulator(x[i + k]);
    for (std::size_t k = 0; i < n; ++i, ++k) partial[k] += accumulator(x[i]) * accumulator(x[i]);
    return ((partial[0] + partial[1]) + (partial[2] + partial[3])) + ((partial[4] + partial[5]) + (partial[6] + partial[7]));
}

inline void scale_row(float* out, std::size_t n, accumulator factor) noexcept {
    if (factor >= accumulator(std::numeric_limits<float>::min())) {
        const float f = static_cast<float>(factor);
        for (std::size_t j = 0; j < n; ++j) out[j] *= f;
    } else {
        for (std::size_t j = 0; j < n; ++j) out[j] = static_cast<float>(factor * accumulator(out[j]));
    }
}

template <class A>
void gaussian_prefactor(const float* x, std::size_t x_stride, std::size_t d, std::size_t rows, float* out,
                        std::size_t out_stride, std::size_t out_dim) noexcept {
    constexpr std::size_t L = double_lanes<A>;
    if constexpr (L == 1) {
        for (std::size_t r = 0; r < rows; ++r)
            scale_row(out + r * out_stride, out_dim, std::exp(accumulator(-0.5) * squared_norm(x + r * x_stride, d)));
    } else {
        static_assert(L == 1 || std::is_same<accumulator, double>::value, "double vectors only where the accumulator is double");
        using V = xsimd::batch<double, A>;
        // In three passes over up to `chunk` rows, so that the rows' sums, exps and scalings each overlap
        // their latencies (one row's exp waits on its sum's additions, its scaling on the exp).
        constexpr std::size_t chunk = 64;
        alignas(64) double factor[chunk];
        for (std::size_t r0 = 0; r0 < rows; r0 += chunk) {
            const std::size_t n = rows - r0 < chunk ? rows - r0 : chunk;
            const std::size_t padded = (n + L - 1) / L * L;
            for (std::size_t k = 0; k < n; ++k) factor[k] = -0.5 * squared_norm(x + (r0 + k) * x_stride, d);
            for (std::size_t k = n; k < padded; ++k) factor[k] = 0.0;  // padding lanes: exp(0)
            for (std::size_t k = 0; k < padded; k += L) exp_nonpositive<A>(V::load_aligned(factor + k)).store_aligned(factor + k);
            for (std::size_t k = 0; k < n; ++k) scale_row(out + (r0 + k) * out_stride, out_dim, factor[k]);
        }
    }
}

}  // namespace
}  // namespace kfm::detail::kern
