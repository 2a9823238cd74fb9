// The MVE (Helium, Armv8.1-M with MVE-F: Cortex-M55, M85) backend of the kernels' vector vocabulary.
// xsimd 8.1 has no MVE target: on an M-profile build it defines no batch types at all (simd.hpp then
// includes xsimd_declarations.hpp, which only declares the xsimd names the kernel templates spell). This
// header gives those names a meaning for one more architecture tag, mve_arch, written over arm_mve.h:
// xsimd::batch<float | uint32, mve_arch>, its lane masks, and exactly the operations the kernel
// templates of src/kernels/ use (arithmetic, fused multiply-add, compare and select, bit operations,
// compile-time swizzles and constants, a horizontal sum, exp / sqrt / log1p). So the templates instantiate
// for MVE unchanged. The few MVE-specific shapes are the functions at the end (a 4 x 4 transpose through an
// interleaving store, transposed stores by scatter, the expansion by a predicated gather), called from the
// kernels' ISA branches, and the FFT's passes for 8 vector registers (fft_mve.hpp).
// Included by simd.hpp only when the compiler targets MVE-F and xsimd knows no SIMD unit (the two go
// together: M-profile has no NEON), so nothing here can clash with xsimd's own definitions.
#pragma once
#include <arm_mve.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#define KFM_MVE 1

namespace kfm::detail::kern {
namespace {
// The architecture tag of the MVE kernel table (platforms/arm_mve/): 4 float lanes.
struct mve_arch {};
}  // namespace
}  // namespace kfm::detail::kern

namespace xsimd {

template <class T, class A>
class batch_bool;

using kfm_mve = kfm::detail::kern::mve_arch;

// A lane mask: the MVE predicate, 4 bits per 32-bit lane.
template <>
class batch_bool<float, kfm_mve> {
public:
    mve_pred16_t data;
    batch_bool() noexcept = default;
    batch_bool(mve_pred16_t p) noexcept : data(p) {}
};

template <>
class batch<float, kfm_mve> {
public:
    using value_type = float;
    using arch_type = kfm_mve;
    static constexpr std::size_t size = 4;
    float32x4_t data;

    batch() noexcept = default;
    batch(float32x4_t v) noexcept : data(v) {}
    batch(float v) noexcept : data(vdupq_n_f32(v)) {}
    batch(float a, float b, float c, float d) noexcept : data(vsetq_lane_f32(d, vsetq_lane_f32(c, vsetq_lane_f32(b, vdupq_n_f32(a), 1), 2), 3)) {}
    static batch load_unaligned(const float* p) noexcept { return vld1q_f32(p); }
    static batch load_aligned(const float* p) noexcept { return vld1q_f32(p); }
    void store_unaligned(float* p) const noexcept { vst1q_f32(p, data); }
    void store_aligned(float* p) const noexcept { vst1q_f32(p, data); }

    friend batch operator+(const batch& a, const batch& b) noexcept { return vaddq_f32(a.data, b.data); }
    friend batch operator-(const batch& a, const batch& b) noexcept { return vsubq_f32(a.data, b.data); }
    friend batch operator*(const batch& a, const batch& b) noexcept { return vmulq_f32(a.data, b.data); }
    friend batch operator-(const batch& a) noexcept { return vnegq_f32(a.data); }
    friend batch operator^(const batch& a, const batch& b) noexcept { return veorq_f32(a.data, b.data); }
    batch& operator+=(const batch& b) noexcept { return *this = *this + b; }
    batch& operator-=(const batch& b) noexcept { return *this = *this - b; }
    batch& operator*=(const batch& b) noexcept { return *this = *this * b; }
    friend batch_bool<float, kfm_mve> operator>(const batch& a, const batch& b) noexcept { return vcmpgtq_f32(a.data, b.data); }
    friend batch_bool<float, kfm_mve> operator<(const batch& a, const batch& b) noexcept { return vcmpltq_f32(a.data, b.data); }
};

// The integer lanes the kernels use for bit patterns (vec.hpp's vu: sign bits, lane constants, the
// quadrant of the half-turn sine and cosine).
template <>
class batch<std::uint32_t, kfm_mve> {
public:
    using value_type = std::uint32_t;
    using arch_type = kfm_mve;
    static constexpr std::size_t size = 4;
    uint32x4_t data;

    batch() noexcept = default;
    batch(uint32x4_t v) noexcept : data(v) {}
    batch(std::uint32_t v) noexcept : data(vdupq_n_u32(v)) {}
    friend batch operator&(const batch& a, const batch& b) noexcept { return vandq_u32(a.data, b.data); }
    friend batch operator^(const batch& a, const batch& b) noexcept { return veorq_u32(a.data, b.data); }
    friend batch operator*(const batch& a, const batch& b) noexcept { return vmulq_u32(a.data, b.data); }
    friend batch operator>>(const batch& a, int n) noexcept { return vshlq_r_u32(a.data, -n); }
    friend batch operator<<(const batch& a, int n) noexcept { return vshlq_r_u32(a.data, n); }
};

namespace kfm_mve_detail {
template <class T>
struct is_mve_batch : std::false_type {};
template <class T>
struct is_mve_batch<batch<T, kfm_mve>> : std::true_type {};

// Same-size reinterpretation of MVE vectors (no instruction).
template <class To, class From>
inline To cast_data(const From& x) noexcept {
    return To(__builtin_bit_cast(decltype(To::data), x.data));
}
}  // namespace kfm_mve_detail

// A compile-time constant batch (xsimd's batch_constant): lane i is Generator::get(i, 4). It converts to
// the batch; swizzle reads its lanes at compile time.
template <class Batch, class Generator>
struct kfm_mve_constant {
    static constexpr std::uint32_t lane(std::size_t i) noexcept { return std::uint32_t(Generator::get(i, 4)); }
    operator Batch() const noexcept {
        using T = typename Batch::value_type;
        return Batch(decltype(Batch::data){T(lane(0)), T(lane(1)), T(lane(2)), T(lane(3))});
    }
};
// A compile-time lane mask (xsimd's batch_bool_constant): lane i is Generator::get(i, 4).
template <class Batch, class Generator>
struct kfm_mve_bool_constant {
    static constexpr mve_pred16_t predicate() noexcept {
        mve_pred16_t p = 0;
        for (std::size_t i = 0; i < 4; ++i)
            if (Generator::get(i, 4)) p = mve_pred16_t(p | (0xfu << (4 * i)));
        return p;
    }
    operator batch_bool<float, kfm_mve>() const noexcept { return predicate(); }
};

// The definitions of xsimd_declarations.hpp's make_batch_constant and make_batch_bool_constant (there is
// no other definition on an M-profile build).
template <class Batch, class Generator>
constexpr auto make_batch_constant() noexcept {
    return kfm_mve_constant<Batch, Generator>{};
}
template <class Batch, class Generator>
constexpr auto make_batch_bool_constant() noexcept {
    return kfm_mve_bool_constant<Batch, Generator>{};
}

template <class To, class From>
To bitwise_cast(const From& x) noexcept {
    static_assert(kfm_mve_detail::is_mve_batch<To>::value && kfm_mve_detail::is_mve_batch<From>::value,
                  "bitwise_cast between MVE batches only");
    return kfm_mve_detail::cast_data<To>(x);
}

using kfm_mve_f = batch<float, kfm_mve>;

inline kfm_mve_f select(const batch_bool<float, kfm_mve>& c, const kfm_mve_f& a, const kfm_mve_f& b) noexcept {
    return vpselq_f32(a.data, b.data, c.data);
}
// GCC 12 miscompiles vpsel with some constant predicates (0xf0f0 selected lanes 1, 2 and 3): the empty asm
// hands it the predicate as an opaque register value, which it moves to P0 as given.
template <class Batch, class Generator>
inline kfm_mve_f select(const kfm_mve_bool_constant<Batch, Generator>&, const kfm_mve_f& a, const kfm_mve_f& b) noexcept {
    mve_pred16_t p = kfm_mve_bool_constant<Batch, Generator>::predicate();
    __asm__("" : "+r"(p));
    return vpselq_f32(a.data, b.data, p);
}

// Lane i of the result = lane Generator::get(i) of v. The patterns the kernels use get one or two
// instructions: a swap of neighbours is vrev64, a swap of the 64-bit halves two double-register moves
// (vmov.f64, the M55's FPU has double precision registers aliasing the vector ones); any other pattern
// is built lane by lane.
template <class Generator>
inline kfm_mve_f swizzle(const kfm_mve_f& v, const kfm_mve_constant<batch<std::uint32_t, kfm_mve>, Generator>&) noexcept {
    using K = kfm_mve_constant<batch<std::uint32_t, kfm_mve>, Generator>;
    constexpr std::uint32_t l0 = K::lane(0), l1 = K::lane(1), l2 = K::lane(2), l3 = K::lane(3);
    if constexpr (l0 == 0 && l1 == 1 && l2 == 2 && l3 == 3) {
        return v;
    } else if constexpr (l0 == 1 && l1 == 0 && l2 == 3 && l3 == 2) {
        return vrev64q_f32(v.data);
    } else if constexpr (l0 == 2 && l1 == 3 && l2 == 0 && l3 == 1) {
        float32x4_t r;
        __asm__("vmov.f64 %e0, %f1\n\tvmov.f64 %f0, %e1" : "=&w"(r) : "w"(v.data));
        return r;
    } else {
        return kfm_mve_f(vgetq_lane_f32(v.data, l0), vgetq_lane_f32(v.data, l1), vgetq_lane_f32(v.data, l2),
                         vgetq_lane_f32(v.data, l3));
    }
}

inline kfm_mve_f fma(const kfm_mve_f& a, const kfm_mve_f& b, const kfm_mve_f& c) noexcept {
    return vfmaq_f32(c.data, a.data, b.data);
}
inline kfm_mve_f fnma(const kfm_mve_f& a, const kfm_mve_f& b, const kfm_mve_f& c) noexcept {
    return vfmsq_f32(c.data, a.data, b.data);
}
// a * b - c with one rounding: -(c - a * b), the negation exact.
inline kfm_mve_f fms(const kfm_mve_f& a, const kfm_mve_f& b, const kfm_mve_f& c) noexcept {
    return vnegq_f32(vfmsq_f32(c.data, a.data, b.data));
}
// max and min: IEEE maxNum / minNum, one instruction each (a comparison and a select cost 5: GCC 12 moves
// the predicate through a core register). The same as the scalar kernels' comparisons for every finite or
// infinite value; a NaN operand gives the other one, as the scalar max0 does (the kernels specify finite
// arguments only: kfm::transform refuses non-finite inputs).
inline kfm_mve_f max(const kfm_mve_f& a, const kfm_mve_f& b) noexcept { return vmaxnmq_f32(a.data, b.data); }
inline kfm_mve_f min(const kfm_mve_f& a, const kfm_mve_f& b) noexcept { return vminnmq_f32(a.data, b.data); }
inline float hadd(const kfm_mve_f& v) noexcept {
    return (vgetq_lane_f32(v.data, 0) + vgetq_lane_f32(v.data, 1)) + (vgetq_lane_f32(v.data, 2) + vgetq_lane_f32(v.data, 3));
}

// MVE has no vector square root, exponential or logarithm: the FPU's square root and the C library's
// expf / log1pf per lane (kernel_of_dots alone uses them, the same functions as the scalar table).
namespace kfm_mve_detail {
template <class F>
inline kfm_mve_f per_lane(const kfm_mve_f& v, F f) noexcept {
    return kfm_mve_f(f(vgetq_lane_f32(v.data, 0)), f(vgetq_lane_f32(v.data, 1)), f(vgetq_lane_f32(v.data, 2)),
                     f(vgetq_lane_f32(v.data, 3)));
}
}  // namespace kfm_mve_detail
inline kfm_mve_f sqrt(const kfm_mve_f& v) noexcept {
    return kfm_mve_detail::per_lane(v, [](float x) { return std::sqrt(x); });
}
inline kfm_mve_f exp(const kfm_mve_f& v) noexcept {
    return kfm_mve_detail::per_lane(v, [](float x) { return std::exp(x); });
}
inline kfm_mve_f log1p(const kfm_mve_f& v) noexcept {
    return kfm_mve_detail::per_lane(v, [](float x) { return std::log1p(x); });
}

}  // namespace xsimd

namespace kfm::detail::kern {
namespace {

// 4 x 4 transpose of rows[0..4): an interleaving store (vst4q: element i of row r to t[4 i + r]) and
// four plain loads, against twelve lane moves and blends for the generic rounds.
inline void mve_transpose(xsimd::kfm_mve_f* rows) noexcept {
    float t[16];
    float32x4x4_t v;
    v.val[0] = rows[0].data;
    v.val[1] = rows[1].data;
    v.val[2] = rows[2].data;
    v.val[3] = rows[3].data;
    vst4q_f32(t, v);
    for (int r = 0; r < 4; ++r) rows[r] = vld1q_f32(t + 4 * r);
}

// Lane c of row k stored at out + rev(c) row_stride + k for rows k < 4 (rev: the 2-bit reversal), i.e. the
// transposed rows at out + rev(c) row_stride: one scatter store per row instead of a transpose and 4 stores.
// {0, 2, 1, 3} * row_stride: the scatter offsets (in floats) of lanes 0 .. 3 to their bit-reversed rows.
inline uint32x4_t mve_reversed_row_offsets(std::size_t row_stride) noexcept {
    static constexpr std::uint32_t reversed_lane[4] = {0, 2, 1, 3};
    return vmulq_n_u32(vld1q_u32(reversed_lane), std::uint32_t(row_stride));
}

inline void mve_scatter_columns(const xsimd::kfm_mve_f* rows, float* out, std::size_t row_stride) noexcept {
    const uint32x4_t offsets = mve_reversed_row_offsets(row_stride);
    vstrwq_scatter_shifted_offset_f32(out, offsets, rows[0].data);
    vstrwq_scatter_shifted_offset_f32(out + 1, offsets, rows[1].data);
    vstrwq_scatter_shifted_offset_f32(out + 2, offsets, rows[2].data);
    vstrwq_scatter_shifted_offset_f32(out + 3, offsets, rows[3].data);
}

// The 4 floats at src (popcount(mask) of them are used) placed at the set lanes of mask, in order, 0
// elsewhere: one gather of the set lanes (zeroing predication) at offsets given by the lanes' ranks.
inline xsimd::kfm_mve_f mve_expand_register(const float* src, std::uint32_t mask) noexcept {
    struct table {
        std::uint32_t rank[16][4];
        mve_pred16_t predicate[16];
    };
    static constexpr table lut = [] {
        table t{};
        for (unsigned m = 0; m < 16; ++m) {
            unsigned r = 0;
            for (unsigned j = 0; j < 4; ++j) {
                const bool set = ((m >> j) & 1u) != 0;
                t.rank[m][j] = set ? r : 0;
                if (set) t.predicate[m] = mve_pred16_t(t.predicate[m] | (0xfu << (4 * j)));
                r += set ? 1 : 0;
            }
        }
        return t;
    }();
    return vldrwq_gather_shifted_offset_z_f32(src, vld1q_u32(lut.rank[mask]), lut.predicate[mask]);
}

}  // namespace
}  // namespace kfm::detail::kern
