// Shared vocabulary of the templated compute kernels: the architecture tag used for the plain scalar
// reference, the lane count of an architecture, and compile-time lane masks. Every kernel header in
// src/kernels/ is written once over `A` (an xsimd architecture or scalar_arch) and instantiated per ISA in
// platforms/<isa>/. Everything lives in an unnamed namespace so each ISA's translation unit keeps its own
// copy, compiled with its own flags (no ODR merging of AVX code into the scalar table).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <xsimd/xsimd.hpp>
#if defined(XSIMD_NO_SUPPORTED_ARCHITECTURE)
#include "kernels/xsimd_declarations.hpp"  // a target xsimd has no SIMD unit for (Cortex-M)
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#include "kernels/mve.hpp"  // Helium with floating point (Cortex-M55, M85): the mve table's vocabulary
#endif
#endif

// `#pragma GCC unroll n` on the next loop. Empty under AddressSanitizer, whose instrumentation keeps GCC
// from honouring it (it warned "ignoring loop annotation" for every instantiation).
#if defined(__SANITIZE_ADDRESS__)
#define KFM_UNROLL(n)
#else
#define KFM_UNROLL_PRAGMA(text) _Pragma(#text)
#define KFM_UNROLL(n) KFM_UNROLL_PRAGMA(GCC unroll n)
#endif

// Forces inlining of the small helpers whose inlining the kernels' speed depends on (register tiles and
// radix stages passed by reference): left to GCC's unit-wide growth limit, adding an unrelated kernel to a
// table made it call them out of line (the AVX-512 table's 8 x 8 transpose, the batch FFT's radix stages:
// 1.9x slower batch FFT at n = 16).
#define KFM_ALWAYS_INLINE inline __attribute__((always_inline))

namespace kfm::detail::kern {
namespace {

// The reference "architecture": one lane, plain C++, no xsimd batch is ever instantiated for it.
struct scalar_arch {};

template <class A>
struct lanes_of {
    static constexpr std::size_t value = xsimd::batch<float, A>::size;
};
template <>
struct lanes_of<scalar_arch> {
    static constexpr std::size_t value = 1;
};
// Number of float lanes of A (1 for the scalar reference).
template <class A>
constexpr std::size_t lanes = lanes_of<A>::value;

// Whether A is x86's AVX2 or AVX-512: the kernel paths that are only there ask this (PREP's vector
// shift_scale, the prefactors' double exps, four quadrature rules' simplex steps as one SSE step).
template <class A>
constexpr bool is_avx2_or_avx512() noexcept {
#if XSIMD_WITH_AVX2
    return std::is_base_of<xsimd::avx2, A>::value || std::is_base_of<xsimd::avx512f, A>::value;
#else
    return false;
#endif
}

// Generators for xsimd compile-time constants: partner lane at distance H, and "upper half of a
// block of 2H lanes".
template <unsigned H>
struct xor_lane {
    static constexpr std::uint32_t get(std::size_t i, std::size_t) { return std::uint32_t(i) ^ H; }
};
template <unsigned H>
struct upper_lane {
    static constexpr bool get(std::size_t i, std::size_t) { return (i & H) != 0; }
};

// Lane i of the batch swapped with lane i ^ H.
template <unsigned H, class A>
inline xsimd::batch<float, A> partner(const xsimd::batch<float, A>& v) noexcept {
    return xsimd::swizzle(v, xsimd::make_batch_constant<xsimd::batch<std::uint32_t, A>, xor_lane<H>>());
}

template <unsigned H, class A>
inline auto upper_mask() noexcept {
    return xsimd::make_batch_bool_constant<xsimd::batch<float, A>, upper_lane<H>>();
}

}  // namespace
}  // namespace kfm::detail::kern
