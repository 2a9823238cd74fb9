// See ffht_style_avx2.hpp.
#include "peers/ffht_style_avx2.hpp"

#include <immintrin.h>

#include <cmath>
#include <cstddef>

namespace kfm_bench {
namespace {

// Stages h = 1, 2, 4 inside one register.
inline __m256 stages_in_register(__m256 v) noexcept {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    // h = 1: even lanes a + b, odd lanes a - b, from the duplicated evens and the negated duplicated odds
    __m256 evens = _mm256_permute_ps(v, 0xA0), odds = _mm256_permute_ps(v, 0xF5);
    v = _mm256_addsub_ps(evens, _mm256_xor_ps(odds, sign));
    // h = 2: lanes 0, 1 of each half a + b, lanes 2, 3 a - b
    const __m256 low = _mm256_permute_ps(v, 0x44), high = _mm256_permute_ps(v, 0xEE);
    v = _mm256_blend_ps(_mm256_add_ps(low, high), _mm256_sub_ps(low, high), 0xCC);
    // h = 4: the two 128-bit halves
    const __m256 first = _mm256_permute2f128_ps(v, v, 0x00), second = _mm256_permute2f128_ps(v, v, 0x11);
    return _mm256_blend_ps(_mm256_add_ps(first, second), _mm256_sub_ps(first, second), 0xF0);
}

// Stages across the G registers r[0..G) (G = 2, 4 or 8: one, two or three stages).
template <int G>
inline void stages_across(__m256 (&r)[8]) noexcept {
    for (int s = 1; s < G; s *= 2)
        for (int i = 0; i < G; ++i)
            if ((i & s) == 0) {
                const __m256 a = r[i], b = r[i + s];
                r[i] = _mm256_add_ps(a, b);
                r[i + s] = _mm256_sub_ps(a, b);
            }
}

// The eight sign masks of bits[0] ... (one byte, eight lanes): -0.0f where the bit is set.
inline __m256 sign_mask(std::uint8_t bits) noexcept {
    const __m256i lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i set = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(bits), lane_bit), lane_bit);
    return _mm256_castsi256_ps(_mm256_slli_epi32(set, 31));
}

// One pass: stages h0, 2 h0, ... over groups of G registers at stride h0 (h0 >= 8), times `scale` on
// the way out where `last`.
template <int G>
inline void pass_across(float* x, std::size_t n, std::size_t h0, bool last, __m256 scale) noexcept {
    for (std::size_t block = 0; block < n; block += G * h0)
        for (std::size_t j = block; j < block + h0; j += 8) {
            __m256 r[8];
            for (int i = 0; i < G; ++i) r[i] = _mm256_loadu_ps(x + j + std::size_t(i) * h0);
            stages_across<G>(r);
            for (int i = 0; i < G; ++i)
                _mm256_storeu_ps(x + j + std::size_t(i) * h0, last ? _mm256_mul_ps(r[i], scale) : r[i]);
        }
}

}  // namespace

void ffht_style_fwht_avx2(float* x, unsigned log2_n, const std::uint8_t* sign_bits) noexcept {
    const std::size_t n = std::size_t(1) << log2_n;
    const __m256 scale = _mm256_set1_ps(float(1.0 / std::sqrt(double(n))));
    // first pass: signs, the three in-register stages, then up to three stages across 8 registers
    const unsigned first_across = log2_n >= 6 ? 3 : log2_n - 3;
    const std::size_t group = std::size_t(1) << first_across;  // registers per group, stride 8
    bool last = log2_n <= 6;
    for (std::size_t block = 0; block < n; block += 8 * group) {
        __m256 r[8];
        for (std::size_t i = 0; i < group; ++i) {
            __m256 v = _mm256_loadu_ps(x + block + 8 * i);
            if (sign_bits) v = _mm256_xor_ps(v, sign_mask(sign_bits[(block >> 3) + i]));
            r[i] = stages_in_register(v);
        }
        if (group == 8) stages_across<8>(r);
        else if (group == 4) stages_across<4>(r);
        else if (group == 2) stages_across<2>(r);
        for (std::size_t i = 0; i < group; ++i)
            _mm256_storeu_ps(x + block + 8 * i, last ? _mm256_mul_ps(r[i], scale) : r[i]);
    }
    // later stages, three per pass (two or one in the last pass when log2 n - 6 is not a multiple of 3)
    for (unsigned done = 6; done < log2_n;) {
        const unsigned stages = log2_n - done >= 3 ? 3 : log2_n - done;
        last = done + stages == log2_n;
        const std::size_t h0 = std::size_t(1) << done;
        if (stages == 3) pass_across<8>(x, n, h0, last, scale);
        else if (stages == 2) pass_across<4>(x, n, h0, last, scale);
        else pass_across<2>(x, n, h0, last, scale);
        done += stages;
    }
}

}  // namespace kfm_bench
