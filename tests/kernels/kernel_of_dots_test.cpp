// kernel_of_dots: every kernel kind on every ISA against its double-precision definition of the squared
// distance max(x_sq + l_sq[j] - 2 dot[j], 0), for lengths 0 .. 40 (tails of every lane count), unaligned
// pointers and in place; the clamp (a rounded-negative squared distance gives exactly 1); huge distances
// give 0, never NaN.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "kernel_test_util.hpp"

using kfm::detail::landmark_kernel;
using kfm::detail::landmark_kernel_kind;
using kfm_test::available_tables;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

namespace {

// The kernel of d2 in double, from the float parameters the kernel receives.
double reference(const landmark_kernel& k, double d2) {
    const double u = std::fmin(double(k.a) * std::sqrt(d2), 128.0);
    switch (k.kind) {
        case landmark_kernel_kind::gaussian: return std::exp(double(k.a) * d2);
        case landmark_kernel_kind::matern_half: return std::exp(-u);
        case landmark_kernel_kind::matern_three_halves: return (1.0 + u) * std::exp(-u);
        case landmark_kernel_kind::matern_five_halves: return (1.0 + u + u * u / 3.0) * std::exp(-u);
        case landmark_kernel_kind::rational_quadratic: return std::pow(1.0 + double(k.a) * d2, double(k.b));
    }
    return NAN;
}

const landmark_kernel kernels[] = {
    {landmark_kernel_kind::gaussian, -0.7f, 0.0f},
    {landmark_kernel_kind::matern_half, 1.3f, 0.0f},
    {landmark_kernel_kind::matern_three_halves, 1.7f, 0.0f},
    {landmark_kernel_kind::matern_five_halves, 2.2f, 0.0f},
    {landmark_kernel_kind::rational_quadratic, 0.4f, -0.75f},
};

}  // namespace

TEST_CASE("kernel_of_dots equals each kernel of the squared distance on every ISA") {
    test_rng rng(3);
    for (const landmark_kernel& k : kernels)
        for (const auto* t : available_tables())
            for (std::size_t n = 0; n <= 40; ++n) {
                unaligned_buffer dot(n), l_sq(n), out(n), io(n);
                const float x_sq = rng.uniform(0.0f, 4.0f);
                for (std::size_t j = 0; j < n; ++j) {
                    l_sq[j] = rng.uniform(0.0f, 4.0f);
                    // |x.l| <= |x| |l|, so the squared distance is >= 0 in exact arithmetic
                    dot[j] = io[j] = rng.uniform(-1.0f, 1.0f) * std::sqrt(x_sq * l_sq[j]);
                }
                t->kernel_of_dots(dot.data(), l_sq.data(), x_sq, k, n, out.data());
                t->kernel_of_dots(io.data(), l_sq.data(), x_sq, k, n, io.data());
                for (std::size_t j = 0; j < n; ++j) {
                    const double d2 = std::fmax(double(x_sq) + l_sq[j] - 2.0 * dot[j], 0.0);
                    const double want = reference(k, d2);
                    INFO(kfm_test::name(t->id) << " kind " << int(k.kind) << " n " << n << " j " << j);
                    // the float rounding of the distance (a few ulp of its largest term) moves a decreasing k at
                    // most to its values at d2 -+ that; plus the float functions' own few ulp
                    const double e = 8 * 0x1p-24 * (x_sq + l_sq[j] + 2 * std::fabs(dot[j]));
                    const double tol = 2e-6 + std::fmax(reference(k, std::fmax(d2 - e, 0.0)) - want, want - reference(k, d2 + e));
                    CHECK(std::fabs(out[j] - want) <= tol);
                    CHECK(io[j] == out[j]);
                }
            }
}

TEST_CASE("kernel_of_dots clamps a rounded-negative squared distance to 0 (kernel value 1)") {
    for (const landmark_kernel& k : kernels)
        for (const auto* t : available_tables()) {
            std::vector<float> dot(19, 1.0f + 0x1p-20f), l_sq(19, 1.0f), out(19);  // 1 + 1 - 2 (1 + 2^-20) < 0
            t->kernel_of_dots(dot.data(), l_sq.data(), 1.0f, k, dot.size(), out.data());
            for (float v : out) CHECK(v == 1.0f);
        }
}

TEST_CASE("kernel_of_dots gives 0, not NaN, for distances whose u or a d2 overflows") {
    for (landmark_kernel k : kernels)
        for (const auto* t : available_tables()) {
            k.a = k.kind == landmark_kernel_kind::gaussian ? -3e38f : 3e38f;
            std::vector<float> dot(19, -1e30f), l_sq(19, 1e30f), out(19);  // d2 = 3e30 + x_sq
            t->kernel_of_dots(dot.data(), l_sq.data(), 1.0f, k, dot.size(), out.data());
            INFO(kfm_test::name(t->id) << " kind " << int(k.kind));
            for (float v : out) CHECK(v == 0.0f);
        }
}
