// A quadrature rule's projection for one vector, t = V^T (M x): the single-vector form of
// butterfly_simplex_batch (kernels/butterfly_simplex_batch.hpp), with the same operations on its one row
// (the network's rotations round alike in every path, and the simplex step is one lane of the batch's),
// so a row's projections do not depend on its batch. The network's repeats run in the two halves of
// scratch: the first reads x directly (no copy in), each later one reads the previous repeat's gather,
// and the last repeat's gather is fused into the simplex step (read through perm), so no pass stores it.
// On AVX2 and AVX-512, a network of up to eight registers (d = W, 2 W, 4 W, 8 W for W float lanes; also
// 16 W on AVX-512) stays in registers for all its repeats: the in-register levels, the levels between
// registers, and the permutation as lane permutes (vpermps, vpermt2ps) instead of a pass through memory;
// the rotations are the same operations, so the bits are too. Such networks are chains of dependent
// shuffles and multiplies, so several rules run at once (the kernel takes all of a map's full rules in one
// call).
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernels/butterfly.hpp"
#include "kernels/butterfly_simplex_batch.hpp"

namespace kfm::detail::kern {
namespace {

// Whether A has the run-time lane permutes gather_registers uses.
template <class A>
constexpr bool has_register_gather() noexcept {
#if XSIMD_WITH_AVX512F
    if constexpr (std::is_base_of<xsimd::avx512f, A>::value) return true;
#endif
#if XSIMD_WITH_AVX2
    if constexpr (std::is_base_of<xsimd::avx2, A>::value && lanes<A> == 8) return true;
#endif
    return false;
}

// out[i] = v[perm[i]] for the K W floats held in v[0 .. K) (perm: K W indices < K W, K a power of two).
// Each output register permutes every source register (vpermps on AVX2; vpermt2ps, two registers at a
// time, on AVX-512) and picks among them with a tree of blends on the index's register bits.
template <std::size_t K, class A>
inline void gather_registers(const vf<A> (&v)[K], const std::uint32_t* perm, vf<A> (&out)[K]) noexcept {
    static_assert(K >= 1 && (K & (K - 1)) == 0, "a power of two of registers");
    constexpr std::size_t W = lanes<A>;
#if XSIMD_WITH_AVX512F
    if constexpr (std::is_base_of<xsimd::avx512f, A>::value) {
        for (std::size_t k = 0; k < K; ++k) {
            const __m512i idx = _mm512_loadu_si512(perm + k * W);
            if constexpr (K == 1) {
                out[k] = vf<A>(_mm512_permutexvar_ps(idx, v[0]));
            } else {
                __m512 pick[K / 2];
                for (std::size_t m = 0; m < K / 2; ++m)  // index bit 4 picks the register of the pair
                    pick[m] = _mm512_permutex2var_ps(v[2 * m], idx, v[2 * m + 1]);
                for (std::size_t n = K / 2, bit = 2 * W; n > 1; n /= 2, bit *= 2) {
                    const __mmask16 upper = _mm512_test_epi32_mask(idx, _mm512_set1_epi32(int(bit)));
                    for (std::size_t m = 0; m < n / 2; ++m) pick[m] = _mm512_mask_blend_ps(upper, pick[2 * m], pick[2 * m + 1]);
                }
                out[k] = vf<A>(pick[0]);
            }
        }
        return;
    }
#endif
#if XSIMD_WITH_AVX2
    if constexpr (std::is_base_of<xsimd::avx2, A>::value && W == 8) {
        for (std::size_t k = 0; k < K; ++k) {
            const __m256i idx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(perm + k * W));
            __m256 pick[K];
            for (std::size_t m = 0; m < K; ++m) pick[m] = _mm256_permutevar8x32_ps(v[m], idx);  // the low 3 bits
            // blendv reads the sign bit: register bit b (3, 4, ..) shifted to bit 31
            for (std::size_t n = K, shift = 28; n > 1; n /= 2, --shift) {
                const __m256 upper = _mm256_castsi256_ps(_mm256_sll_epi32(idx, _mm_cvtsi32_si128(int(shift))));
                for (std::size_t m = 0; m < n / 2; ++m) pick[m] = _mm256_blendv_ps(pick[2 * m], pick[2 * m + 1], upper);
            }
            out[k] = vf<A>(pick[0]);
        }
        return;
    }
#endif
    static_assert(has_register_gather<A>(), "gather_registers needs AVX2 or AVX-512");
}

// A blocked gather permutation (format::method_flag_quadrature_blocked_permutation): each aligned group of
// eight outputs reads one aligned group of eight inputs, so an output register of eight floats is one lane
// permute (vpermps, which reads only the index's low three bits) of one source register. Where the ISA has
// it (AVX2, and AVX-512's 256-bit half of it), the gathers below replace permute_gather's scalar loop and
// gather_registers' permutes and blends (K^2 vpermps and K (K - 1) blends per rule and repeat on AVX2).
template <class A>
constexpr bool has_blocked_gather() noexcept {
    return is_avx2_or_avx512<A>();
}

#if XSIMD_WITH_AVX2
// y[i] = x[perm[i]] for a blocked perm (d a multiple of 8), eight outputs at a time.
inline void permute_gather_blocked(const float* x, unsigned d, const std::uint32_t* perm, float* y) noexcept {
    for (unsigned i = 0; i < d; i += 8) {
        const __m256i idx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(perm + i));
        _mm256_storeu_ps(y + i, _mm256_permutevar8x32_ps(_mm256_loadu_ps(x + (perm[i] & ~7u)), idx));
    }
}

// gather_registers for a blocked perm on AVX2's eight lanes: the registers through a stack buffer (a source
// register chosen at run time cannot be named in registers), then one permute per output register.
template <std::size_t K, class A>
inline void gather_registers_blocked(const vf<A> (&v)[K], const std::uint32_t* perm, vf<A> (&out)[K]) noexcept {
    static_assert(lanes<A> == 8, "eight-lane registers");
    alignas(32) float held[K * 8];
    for (std::size_t k = 0; k < K; ++k) v[k].store_aligned(held + k * 8);
    for (std::size_t k = 0; k < K; ++k) {
        const __m256i idx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(perm + k * 8));
        out[k] = vf<A>(_mm256_permutevar8x32_ps(_mm256_load_ps(held + (perm[k * 8] & ~7u)), idx));
    }
}
#endif

// out = v gathered through perm, blocked or not (gather_registers). On AVX2 from four registers up: for one
// or two, gather_registers' one or two permutes per output (and a blend) cost no more than the way through
// memory.
template <std::size_t K, class A>
constexpr bool gathers_blocked_registers() noexcept {
    return lanes<A> == 8 && K >= 4 && has_register_gather<A>();
}

template <std::size_t K, class A>
inline void gather_rule_registers(const vf<A> (&v)[K], const std::uint32_t* perm, bool blocked,
                                  vf<A> (&out)[K]) noexcept {
#if XSIMD_WITH_AVX2
    if constexpr (gathers_blocked_registers<K, A>())
        if (blocked) return gather_registers_blocked<K, A>(v, perm, out);
#endif
    (void)blocked;
    gather_registers<K, A>(v, perm, out);
}

// y = x through perm: eight floats a permute for a blocked perm where the ISA has it, else permute_gather.
template <class A>
inline void gather_rule_memory(const float* x, unsigned d, const std::uint32_t* perm, bool blocked, float* y) noexcept {
#if XSIMD_WITH_AVX2
    if constexpr (has_blocked_gather<A>())
        if (blocked) return permute_gather_blocked(x, d, perm, y);
#endif
    (void)blocked;
    permute_gather<A>(x, d, perm, y);
}

// The in-register level H of butterfly_lane_block on the K registers of each of P rules (rule p's angles
// at cs + p cs_stride).
template <unsigned H, std::size_t P, std::size_t K, class A>
inline void lane_level_registers(vf<A> (&v)[P][K], const float* cs, std::size_t cs_stride) noexcept {
    constexpr std::size_t W = lanes<A>;
    for (std::size_t p = 0; p < P; ++p)
        for (std::size_t k = 0; k < K; ++k) {
            const float* angles = cs + p * cs_stride + 2 * k * W;
            butterfly_lane_level<H, false, A>(v[p][k], load_f<A>(angles), load_f<A>(angles + W - 2));
        }
}

#if XSIMD_WITH_AVX2
// Whether P rules' simplex steps run as the lanes of one 4-lane SSE step (AVX2 and AVX-512, four rules at a
// time, d = 8 .. 32 on AVX2 and 16 .. 64 on AVX-512): one vector operation per row instead of one scalar
// operation per row and rule. Single rows took 0.90-0.93x the time on AVX2 and 0.79-0.86x on AVX-512; with
// two rules in the four lanes (d = 64 on AVX2, 128 on AVX-512) they took 1.06-1.08x, so two rules keep the
// scalar steps.
template <std::size_t P, class A>
constexpr bool simplex_across_rules() noexcept {
    return P == 4 && is_avx2_or_avx512<A>();
}

// Four 8-lane registers a[p] (lane j: row j of rule p) become [row i | row i + 4] in a[i], a row holding the
// four rules in order; the same shuffles take those back to one rule per register.
inline void transpose_four_rules(__m256 (&a)[4]) noexcept {
    const __m256 t0 = _mm256_unpacklo_ps(a[0], a[1]), t1 = _mm256_unpackhi_ps(a[0], a[1]);
    const __m256 t2 = _mm256_unpacklo_ps(a[2], a[3]), t3 = _mm256_unpackhi_ps(a[2], a[3]);
    const auto pd = [](__m256 x) { return _mm256_castps_pd(x); };
    a[0] = _mm256_castpd_ps(_mm256_unpacklo_pd(pd(t0), pd(t2)));
    a[1] = _mm256_castpd_ps(_mm256_unpackhi_pd(pd(t0), pd(t2)));
    a[2] = _mm256_castpd_ps(_mm256_unpacklo_pd(pd(t1), pd(t3)));
    a[3] = _mm256_castpd_ps(_mm256_unpackhi_pd(pd(t1), pd(t3)));
}

// The simplex steps of four rules whose last repeat is in v: its permutation gathered in registers like the
// repeats' before it, the rows transposed eight at a time so that row j holds the four rules, then
// simplex_rows' SSE step on those rows of four floats. Each lane does the operations of the one-lane step in
// the same order, so every rule gets the same bits. Rule p's t goes to t + p (d+1).
template <std::size_t K, class A>
inline void simplex_four_rules(vf<A> (&v)[4][K], const std::uint32_t* perm, bool blocked, const float* r,
                               const float* diag, float* t) noexcept {
    constexpr std::size_t W = lanes<A>, d = K * W;
    alignas(64) float rules[4][d];          // each rule's gathered last repeat
    alignas(32) float y[4 * d];             // row j of the four rules at y + 4 j
    alignas(32) float rows_t[4 * (d + 1)];  // their simplex outputs, likewise
    for (std::size_t p = 0; p < 4; ++p) {
        vf<A> gathered[K];
        gather_rule_registers<K, A>(v[p], perm + p * d, blocked, gathered);
        for (std::size_t k = 0; k < K; ++k) gathered[k].store_aligned(rules[p] + k * W);
    }
    for (std::size_t c = 0; c < d; c += 8) {
        __m256 a[4] = {_mm256_load_ps(rules[0] + c), _mm256_load_ps(rules[1] + c), _mm256_load_ps(rules[2] + c),
                       _mm256_load_ps(rules[3] + c)};
        transpose_four_rules(a);
        for (std::size_t i = 0; i < 4; ++i) {
            _mm_store_ps(y + 4 * (c + i), _mm256_castps256_ps128(a[i]));
            _mm_store_ps(y + 4 * (c + i + 4), _mm256_extractf128_ps(a[i], 1));
        }
    }
    simplex_rows<xsimd::sse4_2, 4, false>(y, nullptr, d, r, diag, rows_t);
    for (std::size_t c = 0; c < d; c += 8) {
        __m256 a[4];
        for (std::size_t i = 0; i < 4; ++i)
            a[i] = _mm256_loadu2_m128(rows_t + 4 * (c + i + 4), rows_t + 4 * (c + i));
        transpose_four_rules(a);
        for (std::size_t p = 0; p < 4; ++p) _mm256_storeu_ps(t + p * (d + 1) + c, a[p]);
    }
    for (std::size_t p = 0; p < 4; ++p) t[p * (d + 1) + d] = rows_t[4 * d + p];
}
#endif

// P rules of d = K W (so d = d2) at once, their networks independent chains whose latencies overlap: x in
// K registers per rule through every repeat's levels (the in-register levels of butterfly_lane_block, then
// the levels h >= W between registers, as butterfly_level rotates them) and gathers; the last repeat's
// registers go to scratch (alternating halves of 2 d floats) and the simplex step reads them through
// perm, or, for four rules on AVX2 and AVX-512, they are gathered in registers too and the four simplex
// steps run as one (simplex_four_rules). Rule p reads the angles cs + p cs_stride and the permutation perm + p d, and writes t + p (d+1).
template <std::size_t P, std::size_t K, class A>
void butterfly_simplex_registers(const float* x, float* t, unsigned d, const float* cs, std::size_t cs_stride,
                                 const std::uint32_t* perm, bool blocked, unsigned repeats, const float* r,
                                 const float* diag, float* scratch) noexcept {
    constexpr std::size_t W = lanes<A>;
    vf<A> v[P][K];
    for (std::size_t p = 0; p < P; ++p)
        for (std::size_t k = 0; k < K; ++k) v[p][k] = load_f<A>(x + k * W);
    for (unsigned rep = 0; rep < repeats; ++rep) {
        lane_level_registers<1, P, K, A>(v, cs, cs_stride);
        lane_level_registers<2, P, K, A>(v, cs, cs_stride);
        if constexpr (W > 4) lane_level_registers<4, P, K, A>(v, cs, cs_stride);
        if constexpr (W > 8) lane_level_registers<8, P, K, A>(v, cs, cs_stride);
        for (std::size_t h = 1; h < K; h *= 2)  // level h W: registers (b + j, b + h + j), angle (b + h) W - 1
            for (std::size_t b = 0; b < K; b += 2 * h)
                for (std::size_t p = 0; p < P; ++p) {
                    const float* angle = cs + p * cs_stride + 2 * ((b + h) * W - 1);
                    const vf<A> c(angle[0]), sn(angle[1]);
                    for (std::size_t j = 0; j < h; ++j) rotate<A>(c, sn, v[p][b + j], v[p][b + h + j]);
                }
        if (rep + 1 == repeats) break;  // the last gather: below
        for (std::size_t p = 0; p < P; ++p) {
            vf<A> gathered[K];
            gather_rule_registers<K, A>(v[p], perm + p * d, blocked, gathered);
            for (std::size_t k = 0; k < K; ++k) v[p][k] = gathered[k];
        }
    }
#if XSIMD_WITH_AVX2
    if constexpr (simplex_across_rules<P, A>()) return simplex_four_rules<K, A>(v, perm, blocked, r, diag, t);
#endif
    // Otherwise the simplex step reads the last gather through perm, or, blocked, from its registers
    // gathered like the repeats' before (the same values in the same order: the same bits).
    for (std::size_t p = 0; p < P; ++p) {
        float* y = scratch + p % 2 * d;  // rule p + 2 reuses rule p's half once its simplex step has read it
        const std::size_t tp = p * (std::size_t(d) + 1);
        if (gathers_blocked_registers<K, A>() && blocked) {
            vf<A> gathered[K];
            gather_rule_registers<K, A>(v[p], perm + p * d, blocked, gathered);
            for (std::size_t k = 0; k < K; ++k) store_f<A>(y + k * W, gathered[k]);
            simplex_rows<scalar_arch, 1, false>(y, nullptr, d, r, diag, t + tp);
            continue;
        }
        for (std::size_t k = 0; k < K; ++k) store_f<A>(y + k * W, v[p][k]);
        simplex_rows<scalar_arch, 1, true>(y, perm + p * d, d, r, diag, t + tp);
    }
}

// The rules in registers, K registers each: four at a time up to K = 4 (on AVX2, d = 32, that spills some
// and is still faster: 0.91x the single-vector time of two at a time), two at a time up to K = 8 (spilling
// some on AVX2, still faster), one at a time for sixteen, which fill AVX-512's registers alone (measured
// faster than two).
template <std::size_t K, class A>
void butterfly_simplex_register_rules(const float* x, float* t, unsigned rules, unsigned d, const float* cs,
                                      std::size_t cs_stride, const std::uint32_t* perm, bool blocked,
                                      unsigned repeats, const float* r, const float* diag, float* scratch) noexcept {
    const std::size_t t_stride = std::size_t(d) + 1;
    unsigned k = 0;
    if constexpr (K <= 4)
        for (; k + 4 <= rules; k += 4)
            butterfly_simplex_registers<4, K, A>(x, t + k * t_stride, d, cs + k * cs_stride, cs_stride,
                                                 perm + std::size_t(k) * d, blocked, repeats, r, diag, scratch);
    for (; K < 16 && k + 2 <= rules; k += 2)
        butterfly_simplex_registers<2, K, A>(x, t + k * t_stride, d, cs + k * cs_stride, cs_stride,
                                             perm + std::size_t(k) * d, blocked, repeats, r, diag, scratch);
    for (; k < rules; ++k)
        butterfly_simplex_registers<1, K, A>(x, t + k * t_stride, d, cs + k * cs_stride, cs_stride,
                                             perm + std::size_t(k) * d, blocked, repeats, r, diag, scratch);
}

// One rule through memory: t (d+1 floats) from x (d floats), scratch 2 d floats.
template <class A>
void butterfly_simplex_memory(const float* x, float* t, unsigned d, unsigned log2_d2, const float* cs,
                              const std::uint32_t* perm, bool blocked, unsigned repeats, const float* r,
                              const float* diag, float* scratch) noexcept {
    float* levels = scratch;
    float* gathered = scratch + d;
    const float* src = x;
    for (unsigned rep = 0; rep < repeats; ++rep) {
        butterfly_levels<A>(src, levels, d, log2_d2, cs, false);
        if (rep + 1 < repeats) {
            gather_rule_memory<A>(levels, d, perm, blocked, gathered);
            src = gathered;
        }
    }
    if (blocked && has_blocked_gather<A>()) {  // the last gather a permute per eight floats, then the step
        gather_rule_memory<A>(levels, d, perm, blocked, gathered);
        return simplex_rows<scalar_arch, 1, false>(gathered, nullptr, d, r, diag, t);
    }
    simplex_rows<scalar_arch, 1, true>(levels, perm, d, r, diag, t);
}

// For each of `rules` consecutive rules k (angles cs + k 2 (d2 - 1), permutation perm + k d):
// t + k (d+1) = V^T (M_k x) for x (d floats), the forward network (butterfly_apply's levels and
// permutation, `repeats` times) and simplex_rows' step with the coefficients r and diag. x and t do not
// overlap; scratch holds 2 d floats. blocked: every rule's perm is blocked (gather_rule_memory; d a
// multiple of 8), which the ISAs with a blocked gather use; the results are the same either way.
template <class A>
void butterfly_simplex_row(const float* x, float* t, unsigned rules, unsigned d, unsigned log2_d2, const float* cs,
                           const std::uint32_t* perm, bool blocked, unsigned repeats, const float* r,
                           const float* diag, float* scratch) noexcept {
    const std::size_t cs_stride = 2 * ((std::size_t(1) << log2_d2) - 1);
    if constexpr (has_register_gather<A>()) {
        constexpr std::size_t W = lanes<A>;
        if (d == W)
            return butterfly_simplex_register_rules<1, A>(x, t, rules, d, cs, cs_stride, perm, blocked, repeats, r,
                                                          diag, scratch);
        if (d == 2 * W)
            return butterfly_simplex_register_rules<2, A>(x, t, rules, d, cs, cs_stride, perm, blocked, repeats, r,
                                                          diag, scratch);
        if (d == 4 * W)
            return butterfly_simplex_register_rules<4, A>(x, t, rules, d, cs, cs_stride, perm, blocked, repeats, r,
                                                          diag, scratch);
        if (d == 8 * W)
            return butterfly_simplex_register_rules<8, A>(x, t, rules, d, cs, cs_stride, perm, blocked, repeats, r,
                                                          diag, scratch);
        if constexpr (W == 16)  // sixteen registers: AVX-512 only (AVX2's gathers through 16 registers cost more)
            if (d == 16 * W)
                return butterfly_simplex_register_rules<16, A>(x, t, rules, d, cs, cs_stride, perm, blocked, repeats, r,
                                                               diag, scratch);
    }
    for (unsigned k = 0; k < rules; ++k)
        butterfly_simplex_memory<A>(x, t + std::size_t(k) * (d + 1), d, log2_d2, cs + k * cs_stride,
                                    perm + std::size_t(k) * d, blocked, repeats, r, diag, scratch);
}

}  // namespace
}  // namespace kfm::detail::kern
