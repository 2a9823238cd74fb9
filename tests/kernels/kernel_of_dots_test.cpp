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
using kfm_test::landmark_kernel_tolerance;
using kfm_test::landmark_kernel_value;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

TEST_CASE("kernel_of_dots equals each kernel of the squared distance on every ISA") {
    test_rng rng(3);
    for (const landmark_kernel& k : kfm_test::reference_landmark_kernels)
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
                    const double want = landmark_kernel_value(k, d2);
                    INFO(kfm_test::name(t->id) << " kind " << int(k.kind) << " n " << n << " j " << j);
                    CHECK(std::fabs(out[j] - want) <= landmark_kernel_tolerance(k, x_sq, l_sq[j], dot[j], d2));
                    CHECK(io[j] == out[j]);
                }
            }
}

TEST_CASE("kernel_of_dots clamps a rounded-negative squared distance to 0 (kernel value 1)") {
    for (const landmark_kernel& k : kfm_test::reference_landmark_kernels)
        for (const auto* t : available_tables()) {
            std::vector<float> dot(19, 1.0f + 0x1p-20f), l_sq(19, 1.0f), out(19);  // 1 + 1 - 2 (1 + 2^-20) < 0
            t->kernel_of_dots(dot.data(), l_sq.data(), 1.0f, k, dot.size(), out.data());
            for (float v : out) CHECK(v == 1.0f);
        }
}

TEST_CASE("kernel_of_dots gives 0, not NaN, for distances whose u or a d2 overflows") {
    for (landmark_kernel k : kfm_test::reference_landmark_kernels)
        for (const auto* t : available_tables()) {
            k.a = k.kind == landmark_kernel_kind::gaussian ? -3e38f : 3e38f;
            std::vector<float> dot(19, -1e30f), l_sq(19, 1e30f), out(19);  // d2 = 3e30 + x_sq
            t->kernel_of_dots(dot.data(), l_sq.data(), 1.0f, k, dot.size(), out.data());
            INFO(kfm_test::name(t->id) << " kind " << int(k.kind));
            for (float v : out) CHECK(v == 0.0f);
        }
}
