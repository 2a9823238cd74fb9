// The AArch64 AdvSIMD (NEON) instance of the SLEEF feature-stage peer (sleef_features.hpp).
#include <arm_neon.h>
#include <sleef.h>

#include "peers/sleef_features_loop.hpp"

namespace kfm_bench {
namespace {
struct advsimd_vector {
    using vec = float32x4_t;
    static constexpr std::size_t lanes = 4;
    static vec load(const float* p) noexcept { return vld1q_f32(p); }
    static void store(float* p, vec v) noexcept { vst1q_f32(p, v); }
    static vec mul(vec a, vec b) noexcept { return vmulq_f32(a, b); }
    static vec splat(float x) noexcept { return vdupq_n_f32(x); }
    static Sleef_float32x4_t_2 sincos_u10(vec a) noexcept { return Sleef_sincosf4_u10advsimd(a); }
    static Sleef_float32x4_t_2 sincos_u35(vec a) noexcept { return Sleef_sincosf4_u35advsimd(a); }
};
}  // namespace

void sleef_cos_sin_advsimd(sleef_ulp u, const sleef_feature_args& f) noexcept {
    sleef_cos_sin<advsimd_vector>(u, f);
}
}  // namespace kfm_bench
