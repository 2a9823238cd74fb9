// The feature-stage peer on SLEEF (libsleef-dev): w cos(s t) and w sin(s t) with SLEEF's vector sincosf,
// the work kfm's cos_sin stage does for a quadrature / SSF map (per-argument scale s, per-argument weight w
// times a scalar), one SLEEF call per vector. Each ISA's instance is compiled with that ISA's flags and
// calls SLEEF's entry point for it (no run-time dispatch): Sleef_sincosf8_u10avx2 / _u35avx2,
// Sleef_sincosf16_u10avx512f / _u35avx512f, Sleef_sincosf4_u10advsimd / _u35advsimd. Built only where
// SLEEF is found (KFM_HAVE_SLEEF, bench/peers/CMakeLists.txt).
#pragma once
#include <cstddef>

namespace kfm_bench {

// SLEEF's two accuracy classes: max error 1.0 ulp or 3.5 ulp.
enum class sleef_ulp { u10, u35 };

struct sleef_feature_args {
    const float* scale;   // s, n values
    const float* t;       // t, n values
    const float* weight;  // w, n values, multiplied by weight_scalar
    float weight_scalar;
    std::size_t n;
    float* out0;  // w cos(s t)
    float* out1;  // w sin(s t)
};

// One per ISA the peer is built for (the CPU must have it).
void sleef_cos_sin_avx2(sleef_ulp u, const sleef_feature_args& f) noexcept;
void sleef_cos_sin_avx512(sleef_ulp u, const sleef_feature_args& f) noexcept;
void sleef_cos_sin_advsimd(sleef_ulp u, const sleef_feature_args& f) noexcept;

}  // namespace kfm_bench
