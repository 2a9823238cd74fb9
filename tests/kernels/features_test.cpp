// Fused feature stage: every ISA and every nonlinearity against a double-precision reference, with
// per-argument or scalar scales and weights (scalars of 1 included: the real kinds skip those multiplies), phases, reflections, lengths that leave SIMD tails and
// exercise the two-vector, one-vector and scalar parts of the loop, and arguments up to |a| = 1e5.
// Documented bounds (src/kernels/features.hpp, src/kernels/trig.hpp): cos_sin within 2.5e-7 max(1, |w|)
// of the double value at the float argument a = fl(s t); cos_phase within max(1, |w|) (2.5e-7 + 2^-23
// |s t + b|) of the double value at the exact argument; the piecewise-linear kinds within a few float
// roundings; any finite argument gives a finite output bounded by |w| (1 + 2^-21).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernel_test_util.hpp"

using kfm::format::nonlinearity;
using kfm_test::available_tables;
using kfm_test::real_feature;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

namespace {

constexpr double trig_tolerance = 2.5e-7;

struct case_data {
    std::vector<float> t, scale, weight, phase;
};

// Runs every table on the arguments in c and checks each output against the double reference.
void check_case(nonlinearity kind, const case_data& c, bool per_scale, bool per_weight, bool reflect,
                float scale_scalar = 0.75f, float weight_scalar = 1.25f) {
    const std::size_t n = c.t.size();
    const bool two_outputs = kind == nonlinearity::cos_sin || reflect;
    for (const auto* table : available_tables()) {
        const std::string isa_label = kfm_test::name(table->id);
        CAPTURE(isa_label);
        CAPTURE(static_cast<int>(kind));
        CAPTURE(n);
        CAPTURE(per_scale);
        CAPTURE(per_weight);
        CAPTURE(reflect);
        CAPTURE(scale_scalar);
        CAPTURE(weight_scalar);
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
        table->features(f);
        CHECK(out0[n] == 12345.0f);
        CHECK(out1[n] == 12345.0f);
        for (std::size_t i = 0; i < n; ++i) {
            const float a = (per_scale ? c.scale[i] : scale_scalar) * c.t[i];  // the float argument
            const double w = (per_weight ? double(c.weight[i]) : 1.0) * weight_scalar;
            double r0 = 0, r1 = 0, tol = 0;
            if (kind == nonlinearity::cos_sin) {
                r0 = w * std::cos(double(a));
                r1 = w * std::sin(double(a));
                tol = trig_tolerance * std::max(1.0, std::abs(w));
            } else if (kind == nonlinearity::cos_phase) {
                // the kernel may fuse s t + b: compare with the exact argument, allowing its rounding
                const double arg = double(per_scale ? c.scale[i] : scale_scalar) * c.t[i] + c.phase[i];
                r0 = w * std::cos(arg);
                tol = std::max(1.0, std::abs(w)) * (trig_tolerance + 0x1p-23 * std::abs(arg));
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

case_data random_case(std::size_t n, float amplitude, test_rng& rng) {
    case_data c;
    for (std::size_t i = 0; i < n; ++i) {
        c.t.push_back(rng.uniform(-amplitude, amplitude));
        c.scale.push_back(rng.uniform(0.5f, 2.0f));
        c.weight.push_back(rng.uniform(-1.5f, 1.5f));
        c.phase.push_back(rng.uniform(0.0f, 6.2831853f));
    }
    return c;
}

}  // namespace

TEST_CASE("features match the double reference for every nonlinearity, scale and weight form") {
    test_rng rng(77);
    const nonlinearity kinds[] = {nonlinearity::cos_sin, nonlinearity::cos_phase, nonlinearity::relu,
                                  nonlinearity::step,    nonlinearity::relu2,     nonlinearity::identity};
    for (nonlinearity kind : kinds)
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(8), std::size_t(17),
                              std::size_t(29), std::size_t(67), std::size_t(100)})
            for (bool per_scale : {false, true})
                for (bool per_weight : {false, true})
                    for (float scale_scalar : {0.75f, 1.0f})  // 1: the unit forms (real kinds)
                        for (float weight_scalar : {1.25f, 1.0f}) {
                            const bool real = kind != nonlinearity::cos_sin && kind != nonlinearity::cos_phase;
                            check_case(kind, random_case(n, 4.0f, rng), per_scale, per_weight, false, scale_scalar,
                                       weight_scalar);
                            if (real)
                                check_case(kind, random_case(n, 4.0f, rng), per_scale, per_weight, true, scale_scalar,
                                           weight_scalar);
                        }
}

TEST_CASE("trigonometric features stay accurate for arguments up to |a| = 1e5") {
    test_rng rng(78);
    for (float amplitude : {2.0f, 100.0f, 5000.0f, 50000.0f})  // with scales up to 2: |a| up to 1e5
        for (nonlinearity kind : {nonlinearity::cos_sin, nonlinearity::cos_phase})
            check_case(kind, random_case(2000, amplitude, rng), true, true, false);
}

TEST_CASE("trigonometric features stay within their bound at the reduction's hard points") {
    // multiples of pi/2 (where a - k pi cancels most), half-way points of the rounding of a / pi, and the
    // ends of the polynomial interval
    case_data c;
    for (int k = -31800; k <= 31800; k += 997)  // |a| <= 1e5
        for (double frac : {0.0, 0.25, 0.5, 0.4999999, 0.5000001, -0.5}) {
            c.t.push_back(float((k + frac) * 3.14159265358979323846));
            c.scale.push_back(1.0f);
            c.weight.push_back(1.0f);
            c.phase.push_back(0.0f);
        }
    check_case(nonlinearity::cos_sin, c, true, true, false);
}

TEST_CASE("huge finite arguments give finite outputs bounded by the weight") {
    case_data c;
    for (float a : {1e5f, 3e5f, -1e6f, 4194303.0f, 4194305.0f, 1e7f, -1e9f, 1e20f, -3e38f,
                    std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()}) {
        c.t.push_back(a);
        c.scale.push_back(1.0f);
        c.weight.push_back(-1.5f);
        c.phase.push_back(1.0f);
    }
    const std::size_t n = c.t.size();
    for (nonlinearity kind : {nonlinearity::cos_sin, nonlinearity::cos_phase})
        for (const auto* table : available_tables()) {
            const std::string isa_label = kfm_test::name(table->id);
            CAPTURE(isa_label);
            CAPTURE(static_cast<int>(kind));
            std::vector<float> out0(n, 0.0f), out1(n, 0.0f);
            kfm::detail::feature_args f{};
            f.kind = kind;
            f.t = c.t.data();
            f.n = n;
            f.scale = c.scale.data();
            f.weight = c.weight.data();
            f.weight_scalar = 1.0f;
            f.phase = c.phase.data();
            f.out0 = out0.data();
            f.out1 = kind == nonlinearity::cos_sin ? out1.data() : nullptr;
            table->features(f);
            for (std::size_t i = 0; i < n; ++i) {
                CAPTURE(c.t[i]);
                CHECK(std::isfinite(out0[i]));
                CHECK(std::abs(out0[i]) <= 1.5f * (1.0f + 0x1p-21f));
                CHECK(std::isfinite(out1[i]));
                CHECK(std::abs(out1[i]) <= 1.5f * (1.0f + 0x1p-21f));
            }
        }
}
