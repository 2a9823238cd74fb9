// flip_signs: every ISA against the definition out[k r + v] = s_k in[k r + v] (exact: a sign flip does not
// round), for one vector (r = 1) and an interleaved batch (r = the ISA's batch lanes), every start bit
// 0 .. 40 (word, register and byte boundaries), lengths 0 .. 100 and the SSF sizes, unaligned pointers, in
// place, and a bit array sized exactly (the sanitizer build catches a read past it).
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "kernel_test_util.hpp"

using kfm_test::available_tables;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

namespace {

bool bit_set(const std::vector<std::uint8_t>& bits, std::size_t i) { return (bits[i >> 3] >> (i & 7)) & 1u; }

void check_flip(const kfm::detail::kernel_table& t, std::size_t first, std::size_t n, std::size_t r, test_rng& rng) {
    std::vector<std::uint8_t> bits((first + n + 7) / 8);
    for (auto& b : bits) b = std::uint8_t(rng.next());
    unaligned_buffer in(n * r), out(n * r), io(n * r);
    for (std::size_t i = 0; i < n * r; ++i) in[i] = io[i] = rng.uniform(-2.0f, 2.0f);
    t.flip_signs(in.data(), bits.data(), first, n, r, out.data());
    t.flip_signs(io.data(), bits.data(), first, n, r, io.data());
    std::size_t wrong = 0, first_wrong = 0;  // one check per call: the qemu runs stay short
    for (std::size_t i = 0; i < n * r; ++i) {
        const float want = bit_set(bits, first + i / r) ? -in[i] : in[i];
        if (std::memcmp(&out[i], &want, sizeof want) != 0 || std::memcmp(&io[i], &want, sizeof want) != 0)
            if (wrong++ == 0) first_wrong = i;
    }
    INFO(kfm_test::name(t.id) << " first " << first << " n " << n << " r " << r << " first wrong element " << first_wrong);
    REQUIRE(wrong == 0);
}

}  // namespace

TEST_CASE("flip_signs equals the sign diagonal on every ISA, one vector and an interleaved batch") {
    test_rng rng(5);
    for (const auto* t : available_tables())
        for (std::size_t r : {std::size_t(1), std::size_t(t->fft_batch_lanes)})
            for (std::size_t first = 0; first <= 40; ++first) {
                for (std::size_t n = 0; n <= 100; ++n) check_flip(*t, first, n, r, rng);
                for (std::size_t n : {256, 512, 1000}) check_flip(*t, first, n, r, rng);
            }
}
