// expand: every ISA against the definition out[h n + k] = s_{h n + k} scale e_k (h = 0 the real half, 1 the
// imaginary half; e_k = in[h count + rank k] at set bits and 0 elsewhere; s_j = -1 where sign bit first + j
// is set, zeros included), bit-exact (one multiply and a sign flip per element), for lengths 0 .. 100 and
// the SSF sizes, bit densities from empty to full, sign offsets at and off whole bytes, positive and
// negative scales, unaligned pointers, and an input array of exactly 2 popcount floats (the sanitizer build
// catches a read past it).
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "kernel_test_util.hpp"

using kfm_test::available_tables;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

namespace {

bool bit_set(const std::vector<std::uint8_t>& bits, std::size_t i) { return (bits[i >> 3] >> (i & 7)) & 1u; }

// The definition, element by element.
std::vector<float> expected(const std::vector<float>& in, std::size_t count, const std::vector<std::uint8_t>& bits,
                            std::size_t n, float scale, const std::vector<std::uint8_t>& signs, std::size_t first) {
    std::vector<float> out(2 * n);
    for (std::size_t h = 0; h < 2; ++h) {
        std::size_t rank = 0;
        for (std::size_t k = 0; k < n; ++k) {
            const float e = bit_set(bits, k) ? in[h * count + rank++] : 0.0f;
            const float v = scale * e;
            out[h * n + k] = bit_set(signs, first + h * n + k) ? -v : v;
        }
    }
    return out;
}

// Checks expand on the given mask (count = its set bits among the first n) with random inputs and signs.
void check_mask(const kfm::detail::kernel_table& t, const std::vector<std::uint8_t>& bits, std::size_t n,
                std::size_t first, float scale, test_rng& rng) {
    std::size_t count = 0;
    for (std::size_t k = 0; k < n; ++k) count += bit_set(bits, k) ? 1 : 0;
    std::vector<float> in(2 * count);  // exactly the inputs the kernel may read
    for (auto& v : in) v = rng.uniform(-2.0f, 2.0f);
    if (!in.empty()) in[0] = 0.0f;  // a zero input keeps its sign too
    std::vector<std::uint8_t> signs((first + 2 * n + 7) / 8);
    for (auto& b : signs) b = std::uint8_t(rng.next());
    unaligned_buffer out(2 * n);
    for (std::size_t i = 0; i < 2 * n; ++i) out[i] = 1234.5f;  // every element must be written
    t.expand(in.data(), count, bits.data(), n, scale, signs.data(), first, out.data());
    const std::vector<float> want = expected(in, count, bits, n, scale, signs, first);
    std::size_t wrong = 0, first_wrong = 0;  // one check per call: the qemu runs stay short
    for (std::size_t i = 0; i < 2 * n; ++i)
        if (std::memcmp(&out[i], &want[i], sizeof(float)) != 0)
            if (wrong++ == 0) first_wrong = i;
    INFO(kfm_test::name(t.id) << " n " << n << " set " << count << " first " << first << " scale " << scale
                              << " first wrong element " << first_wrong);
    REQUIRE(wrong == 0);
}

void check_expand(const kfm::detail::kernel_table& t, std::size_t n, double density, std::size_t first, float scale,
                  test_rng& rng) {
    std::vector<std::uint8_t> bits((n + 7) / 8, 0);
    for (std::size_t k = 0; k < n; ++k)
        if (rng.uniform() < density) bits[k >> 3] |= std::uint8_t(1u << (k & 7));
    check_mask(t, bits, n, first, scale, rng);
}

}  // namespace

TEST_CASE("expand places the packed inputs at the set bits with the block's signs on every ISA") {
    test_rng rng(11);
    for (const auto* t : available_tables())
        for (double density : {0.0, 0.1, 0.5, 0.77, 0.95, 1.0})
            for (float scale : {1.0f, 0.0357f, -3.0f})
                for (std::size_t first : {0, 3, 8, 64}) {
                    for (std::size_t n = 0; n <= 100; ++n) check_expand(*t, n, density, first, scale, rng);
                    for (std::size_t n : {256, 512, 1000, 2048}) check_expand(*t, n, density, first, scale, rng);
                }
}

TEST_CASE("expand of an SSF-like set: dense at the start, empty at the end, and the reverse") {
    test_rng rng(12);
    for (const auto* t : available_tables())
        for (std::size_t n : {64, 512})
            for (bool dense_first : {true, false}) {
                std::vector<std::uint8_t> bits(n / 8, 0);
                for (std::size_t k = 0; k < n; ++k)
                    if ((k < n / 3) == dense_first) bits[k >> 3] |= std::uint8_t(1u << (k & 7));
                INFO("dense first " << dense_first);
                check_mask(*t, bits, n, 2 * n, 2.0f, rng);
            }
}

TEST_CASE("expand with few inputs: every count below and around a register's worth, spread or packed") {
    // The last inputs of each half take the kernels' tail forms (a zero-padded copy, or on AArch64 a
    // window ending at the last input): every count 0 .. 20 at the start, at the end and spread out.
    test_rng rng(13);
    for (const auto* t : available_tables())
        for (std::size_t n : {8, 16, 64, 256})
            for (std::size_t count = 0; count <= 20 && count < n; ++count)
                for (int layout = 0; layout < 3; ++layout) {
                    std::vector<std::uint8_t> bits(n / 8, 0);
                    for (std::size_t l = 0; l < count; ++l) {
                        const std::size_t k = layout == 0 ? l : layout == 1 ? n - 1 - l : l * n / count;
                        bits[k >> 3] |= std::uint8_t(1u << (k & 7));
                    }
                    INFO("layout " << layout);
                    check_mask(*t, bits, n, 0, 0.5f, rng);
                }
}
