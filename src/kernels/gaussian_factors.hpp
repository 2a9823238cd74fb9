// The Gaussian prefactor of maclaurin-opt's maps for `rows` rows: factors[r] = exp(-|x_r|^2 / 2), x_r the d floats
// at x + r x_stride (PREP's x'). The runtime computes them before the projection and scales each row's outputs
// after its feature stage (transform.cpp).
// - |x_r|^2 is summed in the accumulator with eight partial sums (kernels/squared_norm.hpp). In double every square of a
//   float is exact, so the sum has the same bits however the compiler vectorises the eight partials.
// - On AVX2 and AVX-512 the exps of up to `double_lanes<A>` rows are one vector (exp_minus_half), a row alone
//   going through the same lane operations, so a row's bits do not depend on its batch; the factors are within
//   3e-11 of the exact ones. The scalar reference, NEON (AArch64, ARMv7) and Cortex-M call std::exp.
// Against one std::exp per row after the features, on AVX2 (docs/results-maclaurin.md): a batch row takes
// 0.87-0.93x the time at d = 16 and 64, a single row is level.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/accumulator.hpp"
#include "kernels/simd.hpp"
#include "kernels/squared_norm.hpp"

namespace kfm::detail::kern {
namespace {

// Rows whose exps share a vector: the double lanes of AVX2 and AVX-512, else 1. On AArch64 a single row's
// transform executed more instructions with the two-lane exp than with the C library's (qemu-aarch64, LETTER's
// maclaurin-opt at D = 32: 1,307 against 1,255, +4 %), and a single row is what a Cortex-A device runs.
template <class A>
constexpr std::size_t double_lanes_of() noexcept {
    if constexpr (is_avx2_or_avx512<A>())
        return xsimd::batch<double, A>::size;
    else
        return 1;
}
template <class A>
constexpr std::size_t double_lanes = double_lanes_of<A>();

// exp(-s / 2) for squared norms s >= 0, in double vectors, with a short dependency chain (a single row waits on
// it): s clamped at 1416 (below e^-708 a factor times any float output rounds to a zero of the same sign in float,
// as the exact factor's product does); k = round(-s / ln 2) (the 1.5 2^52 shift: its ulp is 1, so adding it
// rounds to an integer), computed from s beside y = -s / 2 (exact); r = y - k ln2 / 2 in one fused step (the
// double ln 2's error times |k| <= 2043 is below 1e-13 of r's scale), |r| <= ln 2 / 4; e^r by its Taylor
// polynomial of degree 7 in Estrin's form (relative error below 3e-11, far below the float rounding the factor
// gets next; three multiply-adds deep); times 2^(k/2) = 2^floor(k/2) (sqrt 2 if k is odd), made from t's bits.
// xsimd's exp is a longer chain, with a division and special cases this range never needs.
template <class A>
inline xsimd::batch<double, A> exp_minus_half(const xsimd::batch<double, A>& s_in) noexcept {
    using V = xsimd::batch<double, A>;
    using register_type = typename V::register_type;
    using bits_type [[gnu::vector_size(sizeof(register_type))]] = std::uint64_t;
    constexpr double shift = 6755399441055744.0;  // 1.5 2^52
    const V s = xsimd::min(s_in, V(1416.0));
    const V y = V(-0.5) * s;
    const V t = xsimd::fma(s, V(-1.4426950408889634), V(shift));  // shift + k, k = round(-s / ln 2) = round(2 y / ln 2)
    const V k = t - V(shift);
    const V r = xsimd::fnma(k, V(0.34657359027997264), y);  // y - k ln2 / 2
    const V r2 = r * r, r4 = r2 * r2;
    const V b0 = xsimd::fma(xsimd::fma(V(1.0 / 6), r, V(0.5)), r2, r + V(1.0));                    // degrees 0-3
    const V b1 = xsimd::fma(xsimd::fma(V(1.0 / 5040), r, V(1.0 / 720)), r2, xsimd::fma(V(1.0 / 120), r, V(1.0 / 24)));
    const V p = xsimd::fma(b1, r4, b0);
    // t + 2046 = 1.5 2^52 + u, u = k + 2046 in [3, 2046]: u / 2 (rounded down) = floor(k / 2) + 1023 is 2^floor(k/2)'s
    // biased exponent, shifted in from bits 1 .. 11 (the shift drops the 1.5 2^52); an odd u adds sqrt 2's mantissa.
    const register_type biased = V(t + V(2046.0));
    bits_type bits;
    std::memcpy(&bits, &biased, sizeof bits);
    constexpr std::uint64_t sqrt2_mantissa = 0x6a09e667f3bcdull;  // the bits of sqrt 2 = 1.6a09e667f3bcd p0
    bits = ((bits >> 1) << 52) + ((bits_type{} - (bits & 1)) & sqrt2_mantissa);
    register_type power;
    std::memcpy(&power, &bits, sizeof power);
    return p * V(power);
}

template <class A>
void gaussian_factors(const float* x, std::size_t x_stride, std::size_t d, std::size_t rows,
                      accumulator* factors) noexcept {
    constexpr std::size_t L = double_lanes<A>;
    if constexpr (L == 1) {
        for (std::size_t r = 0; r < rows; ++r) factors[r] = std::exp(accumulator(-0.5) * squared_norm(x + r * x_stride, d));
    } else {
        static_assert(L == 1 || std::is_same<accumulator, double>::value, "double vectors only where the accumulator is double");
        using V = xsimd::batch<double, A>;
        if (rows == 1) {  // a single row (the device's case): its |x|^2 in every lane, no memory round trip
            factors[0] = exp_minus_half<A>(V(squared_norm(x, d))).get(0);
            return;
        }
        // Every row's |x_r|^2 first, then their exps: a vector loaded right after its lanes' scalar stores
        // would wait for them (a failed store forwarding), which cost a batch of (16, 32) 8 % of its time.
        for (std::size_t r = 0; r < rows; ++r) factors[r] = squared_norm(x + r * x_stride, d);
        std::size_t r = 0;
        for (; r + L <= rows; r += L) exp_minus_half<A>(V::load_unaligned(factors + r)).store_unaligned(factors + r);
        if (r == rows) return;
        alignas(64) double tail[L] = {};  // padding lanes: exp(0)
        for (std::size_t k = r; k < rows; ++k) tail[k - r] = factors[k];
        exp_minus_half<A>(V::load_aligned(tail)).store_aligned(tail);
        for (std::size_t k = r; k < rows; ++k) factors[k] = tail[k - r];
    }
}

}  // namespace
}  // namespace kfm::detail::kern
