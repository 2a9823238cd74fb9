// expand: every ISA against the definition out[k] = scale e_k, e_k = in[rank k] at set bits and 0 elsewhere
// (bit-exact: one multiply per element), for lengths 0 .. 100 and the SSF sizes, bit densities from empty
// to full, unaligned pointers, and an input array of exactly popcount floats (the sanitizer build catches a
// read past it).
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "kernel_test_util.hpp"

using kfm_test::available_tables;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

namespace {

void check_expand(const kfm::detail::kernel_table& t, std::size_t n, double density, float scale, test_rng& rng) {
    std::vector<std::uint8_t> bits((n + 7) / 8, 0);
    std::size_t set = 0;
    for (std::size_t k = 0; k < n; ++k)
        if (rng.uniform() < density) {
            bits[k >> 3] |= std::uint8_t(1u << (k & 7));
            ++set;
        }
    std::vector<float> in(set);  // exactly the inputs the kernel may read
    for (auto& v : in) v = rng.uniform(-2.0f, 2.0f);
    unaligned_buffer out(n);
    for (std::size_t k = 0; k < n; ++k) out[k] = 1234.5f;  // every element must be written
    t.expand(in.data(), set, bits.data(), n, scale, out.data());
    std::size_t wrong = 0, first_wrong = 0, rank = 0;  // one check per call: the qemu runs stay short
    for (std::size_t k = 0; k < n; ++k) {
        const bool on = ((bits[k >> 3] >> (k & 7)) & 1u) != 0;
        const float want = scale * (on ? in[rank++] : 0.0f);
        if (std::memcmp(&out[k], &want, sizeof want) != 0)
            if (wrong++ == 0) first_wrong = k;
    }
    INFO(kfm_test::name(t.id) << " n " << n << " density " << density << " scale " << scale << " first wrong element "
                              << first_wrong);
    REQUIRE(wrong == 0);
}

}  // namespace

TEST_CASE("expand places the packed inputs at the set bits on every ISA") {
    test_rng rng(11);
    for (const auto* t : available_tables())
        for (double density : {0.0, 0.1, 0.5, 0.77, 0.95, 1.0})
            for (float scale : {1.0f, 0.0357f, -3.0f}) {
                for (std::size_t n = 0; n <= 100; ++n) check_expand(*t, n, density, scale, rng);
                for (std::size_t n : {256, 512, 1000, 2048}) check_expand(*t, n, density, scale, rng);
            }
}

TEST_CASE("expand of an SSF-like set: dense at the start, empty at the end, and the reverse") {
    test_rng rng(12);
    for (const auto* t : available_tables())
        for (std::size_t n : {64, 512}) {
            for (bool dense_first : {true, false}) {
                std::vector<std::uint8_t> bits(n / 8, 0);
                for (std::size_t k = 0; k < n; ++k)
                    if ((k < n / 3) == dense_first) bits[k >> 3] |= std::uint8_t(1u << (k & 7));
                std::size_t set = 0;
                for (std::size_t k = 0; k < n; ++k) set += (bits[k >> 3] >> (k & 7)) & 1u;
                std::vector<float> in(set);
                for (auto& v : in) v = rng.uniform(-1.0f, 1.0f);
                std::vector<float> out(n, 7.0f);
                t->expand(in.data(), set, bits.data(), n, 2.0f, out.data());
                std::size_t rank = 0, wrong = 0;
                for (std::size_t k = 0; k < n; ++k)
                    wrong += out[k] != (((bits[k >> 3] >> (k & 7)) & 1u) != 0 ? 2.0f * in[rank++] : 0.0f) ? 1 : 0;
                INFO(kfm_test::name(t->id) << " n " << n << " dense first " << dense_first);
                CHECK(wrong == 0);
            }
        }
}
