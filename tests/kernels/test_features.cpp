// Fused feature stage: every ISA and every nonlinearity against a double-precision reference, with
// per-argument or scalar scales and weights, phases, reflections, lengths that leave SIMD tails, and
// arguments up to |a| = 1e4. Documented bounds (src/kernels/features.hpp): cos_sin within 2e-6 |w| of the
// double value at the float argument a = fl(s t); cos_phase within |w| (2e-6 + 2^-23 |s t + b|) of the
// double value at the exact argument; the piecewise-linear kinds within a few float roundings.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kernel_test_util.hpp"

using kfm::format::nonlinearity;
using kfm_test::available_tables;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

namespace {

double real_feature(nonlinearity k, double a) {
    switch (k) {
        case nonlinearity::relu: return a > 0 ? a : 0;
        case nonlinearity::step: return a > 0 ? 1 : 0;
        case nonlinearity::relu2: return a > 0 ? a * a : 0;
        default: return a;  // identity
    }
}

struct case_data {
    std::vector<float> t, scale, weight, phase;
};

void check_kind(nonlinearity kind, std::size_t n, float amplitude, bool per_scale, bool per_weight, bool reflect,
                test_rng& rng) {
    case_data c;
    for (std::size_t i = 0; i < n; ++i) {
        c.t.push_back(rng.uniform(-amplitude, amplitude));
        c.scale.push_back(rng.uniform(0.5f, 2.0f));
        c.weight.push_back(rng.uniform(-1.5f, 1.5f));
        c.phase.push_back(rng.uniform(0.0f, 6.2831853f));
    }
    const float scale_scalar = 0.75f, weight_scalar = 1.25f;
    const bool two_outputs = kind == nonlinearity::cos_sin || reflect;
    for (const auto* t : available_tables()) {
        const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
        CAPTURE(static_cast<int>(kind));
        CAPTURE(n);
        CAPTURE(amplitude);
        CAPTURE(per_scale);
        CAPTURE(per_weight);
        CAPTURE(reflect);
        unaligned_buffer tb(n), out0(n + 1), out1(n + 1);
        for (std::size_t i = 0; i < n; ++i) tb[i] = c.t[i];
        out0[n] = 12345.0f;  // sentinel: nothing written past n
        out1[n] = 12345.0f;
        kfm::detail::feature_args f{};
        f.kind = kind;
        f.t = tb.data();
        f.n = n;
        f.scale = per_scale ? c.scale.data() : nullptr;
        f.scale_scalar = scale_scalar;
        f.weight = per_weight ? c.weight.data() : nullptr;
        f.weight_scalar = weight_scalar;
        f.phase = kind == nonlinearity::cos_phase ? c.phase.data() : nullptr;
        f.out0 = out0.data();
        f.out1 = two_outputs ? out1.data() : nullptr;
        t->features(f);
        CHECK(out0[n] == 12345.0f);
        CHECK(out1[n] == 12345.0f);
        for (std::size_t i = 0; i < n; ++i) {
            const float a = (per_scale ? c.scale[i] : scale_scalar) * c.t[i];  // the float argument
            const double w = (per_weight ? double(c.weight[i]) : 1.0) * weight_scalar;
            double r0 = 0, r1 = 0, tol = 0;
            if (kind == nonlinearity::cos_sin) {
                r0 = w * std::cos(double(a));
                r1 = w * std::sin(double(a));
                tol = 2e-6 * std::max(1.0, std::abs(w));
            } else if (kind == nonlinearity::cos_phase) {
                // the kernel may fuse s t + b: compare with the exact argument, allowing its rounding
                const double arg = double(per_scale ? c.scale[i] : scale_scalar) * c.t[i] + c.phase[i];
                r0 = w * std::cos(arg);
                tol = std::max(1.0, std::abs(w)) * (2e-6 + 0x1p-23 * std::abs(arg));
            } else {
                r0 = w * real_feature(kind, a);
                r1 = w * real_feature(kind, -double(a));
                tol = 4e-7 * std::max(1.0, std::abs(r0) + std::abs(r1));
            }
            CAPTURE(i);
            CAPTURE(a);
            CHECK(std::abs(out0[i] - r0) <= tol);
            if (two_outputs) CHECK(std::abs(out1[i] - r1) <= tol);
        }
    }
}

}  // namespace

TEST_CASE("features match the double reference for every nonlinearity, scale and weight form") {
    test_rng rng(77);
    const nonlinearity kinds[] = {nonlinearity::cos_sin, nonlinearity::cos_phase, nonlinearity::relu,
                                  nonlinearity::step,    nonlinearity::relu2,     nonlinearity::identity};
    for (nonlinearity kind : kinds)
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(8), std::size_t(17),
                              std::size_t(67)})
            for (bool per_scale : {false, true})
                for (bool per_weight : {false, true}) {
                    const bool real = kind != nonlinearity::cos_sin && kind != nonlinearity::cos_phase;
                    check_kind(kind, n, 4.0f, per_scale, per_weight, false, rng);
                    if (real) check_kind(kind, n, 4.0f, per_scale, per_weight, true, rng);
                }
}

TEST_CASE("trigonometric features stay accurate for arguments up to |a| = 1e4") {
    test_rng rng(78);
    for (float amplitude : {100.0f, 5000.0f})  // with scales up to 2: |a| up to 1e4
        for (nonlinearity kind : {nonlinearity::cos_sin, nonlinearity::cos_phase})
            check_kind(kind, 1000, amplitude, true, true, false, rng);
}
