// complex_block_product: every ISA against the double complex product w prod_{l < k} s (u_l + i v_l) of the same
// float inputs (factor l's real row 2l and imaginary row 2l + 1, each from position l on, wrapping round),
// within the kernel's documented bound (src/kernels/complex_block_product.hpp: gamma_(3k - 1) times |w| and
// the product of the factors' magnitudes |s u_l| + |s v_l|, for the real and imaginary errors together), and
// bit for bit against the scalar table (the same multiplications, subtraction and addition in the same order
// in every lane); degrees 1..8, lengths that leave SIMD tails, a stride wider than n, unaligned pointers,
// and nothing written past either output.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include "kernel_test_util.hpp"

using kfm_test::available_tables;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

namespace {

void check_complex_block_product(std::size_t n, std::size_t stride, unsigned factors, float scale, float weight,
                                 test_rng& rng) {
    const std::size_t rows = 2 * std::size_t(factors) * stride;
    unaligned_buffer t(rows);
    for (std::size_t i = 0; i < rows; ++i) t[i] = rng.uniform(-2.0f, 2.0f);
    const auto* scalar = kfm::detail::kernels_for(kfm::isa::scalar);
    REQUIRE(scalar != nullptr);
    std::vector<float> reference_bits(2 * n);
    scalar->complex_block_product(t.data(), stride, factors, n, scale, weight, reference_bits.data(),
                                  reference_bits.data() + n);
    const double u = 0x1p-24, m = 3.0 * factors - 1.0;
    const double gamma = m * u / (1.0 - m * u) * (1.0 + 1e-9);  // the double reference's own roundings: far below
    for (const auto* table : available_tables()) {
        // [re | im | sentinel], as the runtime lays a segment's outputs out.
        unaligned_buffer out(2 * n + 1);
        out[2 * n] = 12345.0f;
        table->complex_block_product(t.data(), stride, factors, n, scale, weight, out.data(), out.data() + n);
        std::size_t wrong = 0, first_wrong = 0, differs = 0;
        for (std::size_t j = 0; j < n; ++j) {
            std::complex<double> want = weight;
            double magnitudes = std::fabs(double(weight));
            for (unsigned l = 0; l < factors; ++l) {
                const std::size_t column = (j + l) % stride;
                const double re = double(scale) * double(t[2 * l * stride + column]);
                const double im = double(scale) * double(t[(2 * l + 1) * stride + column]);
                want *= std::complex<double>(re, im);
                magnitudes *= std::fabs(re) + std::fabs(im);
            }
            const double error = std::fabs(double(out[j]) - want.real()) + std::fabs(double(out[n + j]) - want.imag());
            if (!(error <= gamma * magnitudes))
                if (wrong++ == 0) first_wrong = j;
            differs += std::memcmp(&out[j], &reference_bits[j], sizeof(float)) != 0 ? 1 : 0;
            differs += std::memcmp(&out[n + j], &reference_bits[n + j], sizeof(float)) != 0 ? 1 : 0;
        }
        INFO(kfm_test::name(table->id) << " n " << n << " stride " << stride << " factors " << factors << " scale " << scale
                                       << " first wrong " << first_wrong);
        CHECK(wrong == 0);
        CHECK(differs == 0);
        CHECK(out[2 * n] == 12345.0f);
    }
}

}  // namespace

TEST_CASE("complex_block_product is the double complex product within its bound, and the scalar table's bits, on every ISA") {
    test_rng rng(37);
    for (unsigned factors = 1; factors <= 8; ++factors)
        for (std::size_t n : {0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 256}) {
            if (n > 0) check_complex_block_product(n, n, factors, 2.828427f, 0.25f, rng);  // stride = n, sqrt(16 / 2), weight sqrt(1/16)
            check_complex_block_product(n, n + 5, factors, 1.4142135f, -3.5f, rng);       // a wider stride, a negative weight
        }
}

TEST_CASE("complex_block_product with zero imaginary rows is block_product of the real rows") {
    // The complex product of real factors is their real product: the same rows through block_product (its
    // rows packed one per factor) give the real part within both kernels' bounds, and the imaginary part is 0.
    test_rng rng(41);
    const std::size_t stride = 20, n = 19;
    const unsigned factors = 4;
    std::vector<float> complex_rows(2 * factors * stride, 0.0f), real_rows(factors * stride);
    for (unsigned l = 0; l < factors; ++l)
        for (std::size_t i = 0; i < stride; ++i)
            complex_rows[2 * l * stride + i] = real_rows[l * stride + i] = rng.uniform(-2.0f, 2.0f);
    for (const auto* table : available_tables()) {
        std::vector<float> out(2 * n), real_out(n);
        table->complex_block_product(complex_rows.data(), stride, factors, n, 1.5f, 0.75f, out.data(), out.data() + n);
        table->block_product(real_rows.data(), stride, factors, n, 1.5f, 0.75f, real_out.data());
        for (std::size_t j = 0; j < n; ++j) {
            CAPTURE(j);
            CHECK(out[j] == doctest::Approx(real_out[j]).epsilon(1e-5));
            CHECK(std::fabs(out[n + j]) == 0.0f);
        }
    }
}
