// block_product: every ISA against the double product w prod_{l < k} (s t_l[(j + l) mod stride]) of the same
// float inputs (factor l from its row l on, wrapping round),
// within the kernel's documented bound (src/kernels/block_product.hpp: 2k float roundings, relative, while
// the partial products stay normal), and bit for bit against the scalar table (the same multiplications in
// the same order in every lane); degrees 1..8, lengths that leave SIMD tails, a stride wider than n,
// unaligned pointers, and nothing written past n.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "kernel_test_util.hpp"

using kfm_test::available_tables;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

namespace {

void check_block_product(std::size_t n, std::size_t stride, unsigned factors, float scale, float weight, test_rng& rng) {
    unaligned_buffer t(stride * factors);
    for (std::size_t i = 0; i < stride * factors; ++i) t[i] = rng.uniform(-2.0f, 2.0f);
    const auto* scalar = kfm::detail::kernels_for(kfm::isa::scalar);
    REQUIRE(scalar != nullptr);
    std::vector<float> reference_bits(n);
    scalar->block_product(t.data(), stride, factors, n, scale, weight, reference_bits.data());
    const double bound = (std::pow(1.0 + 0x1p-24, 2.0 * factors) - 1.0) * (1.0 + 1e-9);
    for (const auto* table : available_tables()) {
        unaligned_buffer out(n + 1);
        out[n] = 12345.0f;  // sentinel: nothing written past n
        table->block_product(t.data(), stride, factors, n, scale, weight, out.data());
        std::size_t wrong = 0, first_wrong = 0, differs = 0;
        for (std::size_t j = 0; j < n; ++j) {
            double want = weight;
            for (unsigned l = 0; l < factors; ++l) want *= double(scale) * double(t[l * stride + (j + l) % stride]);
            if (!(std::fabs(double(out[j]) - want) <= bound * std::fabs(want)))
                if (wrong++ == 0) first_wrong = j;
            differs += std::memcmp(&out[j], &reference_bits[j], sizeof(float)) != 0 ? 1 : 0;
        }
        INFO(kfm_test::name(table->id) << " n " << n << " stride " << stride << " factors " << factors << " scale " << scale
                                       << " first wrong " << first_wrong);
        CHECK(wrong == 0);
        CHECK(differs == 0);
        CHECK(out[n] == 12345.0f);
    }
}

}  // namespace

TEST_CASE("block_product is the double product within 2k float roundings, and the scalar table's bits, on every ISA") {
    test_rng rng(31);
    for (unsigned factors = 1; factors <= 8; ++factors)
        for (std::size_t n : {0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 256}) {
            if (n > 0) check_block_product(n, n, factors, 4.0f, 0.1767767f, rng);  // stride = n (a full block), sqrt(16), weight sqrt(1/32)
            check_block_product(n, n + 5, factors, 1.4142135f, -3.5f, rng);     // a wider stride, a negative weight
        }
}
