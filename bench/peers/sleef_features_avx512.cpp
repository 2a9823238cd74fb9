// The AVX-512 instance of the SLEEF feature-stage peer (sleef_features.hpp).
#include <immintrin.h>
#include <sleef.h>

#include "peers/sleef_features_loop.hpp"

namespace kfm_bench {
namespace {
struct avx512_vector {
    using vec = __m512;
    static constexpr std::size_t lanes = 16;
    static vec load(const float* p) noexcept { return _mm512_loadu_ps(p); }
    static void store(float* p, vec v) noexcept { _mm512_storeu_ps(p, v); }
    static vec mul(vec a, vec b) noexcept { return _mm512_mul_ps(a, b); }
    static vec splat(float x) noexcept { return _mm512_set1_ps(x); }
    static Sleef___m512_2 sincos_u10(vec a) noexcept { return Sleef_sincosf16_u10avx512f(a); }
    static Sleef___m512_2 sincos_u35(vec a) noexcept { return Sleef_sincosf16_u35avx512f(a); }
};
}  // namespace

void sleef_cos_sin_avx512(sleef_ulp u, const sleef_feature_args& f) noexcept {
    sleef_cos_sin<avx512_vector>(u, f);
}
}  // namespace kfm_bench
