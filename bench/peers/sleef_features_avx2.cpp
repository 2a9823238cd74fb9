// The AVX2 instance of the SLEEF feature-stage peer (sleef_features.hpp).
#include <immintrin.h>
#include <sleef.h>

#include "peers/sleef_features_loop.hpp"

namespace kfm_bench {
namespace {
struct avx2_vector {
    using vec = __m256;
    static constexpr std::size_t lanes = 8;
    static vec load(const float* p) noexcept { return _mm256_loadu_ps(p); }
    static void store(float* p, vec v) noexcept { _mm256_storeu_ps(p, v); }
    static vec mul(vec a, vec b) noexcept { return _mm256_mul_ps(a, b); }
    static vec splat(float x) noexcept { return _mm256_set1_ps(x); }
    static Sleef___m256_2 sincos_u10(vec a) noexcept { return Sleef_sincosf8_u10avx2(a); }
    static Sleef___m256_2 sincos_u35(vec a) noexcept { return Sleef_sincosf8_u35avx2(a); }
};
}  // namespace

void sleef_cos_sin_avx2(sleef_ulp u, const sleef_feature_args& f) noexcept { sleef_cos_sin<avx2_vector>(u, f); }
}  // namespace kfm_bench
