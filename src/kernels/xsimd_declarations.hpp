// The xsimd names the kernel templates spell, declared (never defined) for a target where xsimd 8.1 knows
// no SIMD unit (Cortex-M, say): xsimd then defines no batch types and no batch functions, yet the kernel
// templates of src/kernels/ name them in branches only SIMD architectures instantiate. The scalar table,
// the only one such a target builds, never instantiates those branches, so declarations are all it needs;
// a use would fail to link. Included by simd.hpp when XSIMD_NO_SUPPORTED_ARCHITECTURE is defined, so
// builds with a SIMD target (x86, NEON) do not see this file.
#pragma once

namespace xsimd {

template <class T, class A>
class batch;

// The architecture tags the kernels test with std::is_base_of / std::is_same.
struct sse2;
struct sse4_1;
struct sse4_2;
struct avx;
struct avx2;
struct avx512f;
template <class Base>
struct fma3;
struct neon;
struct neon64;

template <class Batch, class Generator>
constexpr auto make_batch_constant() noexcept;
template <class Batch, class Generator>
constexpr auto make_batch_bool_constant() noexcept;
template <class To, class From>
To bitwise_cast(const From& x) noexcept;
template <class V, class Mask>
V swizzle(const V& v, const Mask& mask) noexcept;
template <class Condition, class V>
V select(const Condition& condition, const V& if_true, const V& if_false) noexcept;
template <class V>
V fnma(const V& a, const V& b, const V& c) noexcept;
template <class V>
V fms(const V& a, const V& b, const V& c) noexcept;
template <class V>
auto hadd(const V& v) noexcept;

}  // namespace xsimd
