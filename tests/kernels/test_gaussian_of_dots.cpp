// gaussian_of_dots: every ISA against the double-precision definition
// exp(scale * max(x_sq + l_sq[j] - 2 dot[j], 0)), for lengths 0 .. 40 (tails of every lane count),
// unaligned pointers, in place, and the clamp (a rounded-negative squared distance gives exactly 1).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "kernel_test_util.hpp"

using kfm_test::available_tables;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

TEST_CASE("gaussian_of_dots equals the Gaussian of the squared distance on every ISA") {
    test_rng rng(3);
    for (const auto* t : available_tables())
        for (std::size_t n = 0; n <= 40; ++n) {
            unaligned_buffer dot(n), l_sq(n), out(n), io(n);
            const float x_sq = rng.uniform(0.0f, 4.0f), scale = -rng.uniform(0.1f, 2.0f);
            for (std::size_t j = 0; j < n; ++j) {
                l_sq[j] = rng.uniform(0.0f, 4.0f);
                // |x.l| <= |x| |l|, so the squared distance is >= 0 in exact arithmetic
                dot[j] = io[j] = rng.uniform(-1.0f, 1.0f) * std::sqrt(x_sq * l_sq[j]);
            }
            t->gaussian_of_dots(dot.data(), l_sq.data(), x_sq, scale, n, out.data());
            t->gaussian_of_dots(io.data(), l_sq.data(), x_sq, scale, n, io.data());
            for (std::size_t j = 0; j < n; ++j) {
                const double d2 = std::fmax(double(x_sq) + l_sq[j] - 2.0 * dot[j], 0.0);
                const double want = std::exp(double(scale) * d2);
                INFO(kfm_test::name(t->id) << " n " << n << " j " << j);
                // float rounding of the distance (a few ulp of its largest term) times |scale|, plus exp's own
                const double tol = want * (1e-6 + 8 * 0x1p-24 * std::fabs(scale) * (x_sq + l_sq[j] + 2 * std::fabs(dot[j])));
                CHECK(std::fabs(out[j] - want) <= tol);
                CHECK(io[j] == out[j]);
            }
        }
}

TEST_CASE("gaussian_of_dots clamps a rounded-negative squared distance to 0 (kernel value 1)") {
    for (const auto* t : available_tables()) {
        std::vector<float> dot(19, 1.0f + 0x1p-20f), l_sq(19, 1.0f), out(19);  // 1 + 1 - 2 (1 + 2^-20) < 0
        t->gaussian_of_dots(dot.data(), l_sq.data(), 1.0f, -1000.0f, dot.size(), out.data());
        for (float v : out) CHECK(v == 1.0f);
    }
}
