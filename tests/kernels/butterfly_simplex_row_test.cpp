// The single-vector quadrature rule (butterfly_simplex_row: t = V^T (M x) for one vector) against the
// scalar table's butterfly network (tested against the double-precision definition in butterfly_test.cpp)
// followed by the simplex step in double, on every ISA this host runs, for d = 1 .. 70, 100, 128, 255,
// 256, 1023, 1024 and 1, 2, 3 repeats, on unaligned buffers; x is left unchanged and the kernel writes nothing
// past d+1 floats of t or 2 d floats of its scratch. Several consecutive rules in one call give each rule
// exactly its bits alone (the in-register path runs two or four rules at once). With blocked permutations, the
// call that says so (the AVX2 / AVX-512 gathers of eight floats) gives the bits of the call that does not.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_test_util.hpp"

using kfm_test::available_tables;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

TEST_CASE("butterfly_simplex_row equals the scalar butterfly network followed by the simplex step in double") {
    constexpr float canary = -1234.5f;
    test_rng rng(79);
    std::vector<unsigned> sizes;
    for (unsigned d = 1; d <= 70; ++d) sizes.push_back(d);
    for (unsigned d : {100u, 128u, 255u, 256u, 1023u, 1024u}) sizes.push_back(d);
    const auto* scalar = kfm::detail::kernels_for(kfm::isa::scalar);
    REQUIRE(scalar != nullptr);
    for (unsigned d : sizes) {
        const auto net = kfm_test::random_butterfly_network(d, rng);
        for (unsigned repeats : {1u, 2u, 3u}) {
            unaligned_buffer x(d);
            for (unsigned i = 0; i < d; ++i) x[i] = rng.uniform(-1, 1);
            const std::vector<float> x0(x.data(), x.data() + d);
            std::vector<float> y(x0), y_scratch(d);
            scalar->butterfly(y.data(), d, net.log2_d2, net.cs.data(), net.perm.data(), repeats, false, y_scratch.data());
            for (const auto* t : available_tables()) {
                const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
                CAPTURE(d);
                CAPTURE(repeats);
                unaligned_buffer out(d + 2), scratch(2 * d + 1);
                out[d + 1] = canary;
                scratch[2 * d] = canary;
                t->butterfly_simplex_row(x.data(), out.data(), 1, d, net.log2_d2, net.cs.data(), net.perm.data(), false,
                                         repeats, net.r.data(), net.diag.data(), scratch.data());
                double worst = 0.0, below = 0.0;  // below: sum_{i<j} r_i y_i
                for (unsigned j = 0; j <= d; ++j) {
                    const double want = j < d ? double(net.diag[j]) * y[j] - below : -below;
                    worst = std::max(worst, std::fabs(out[j] - want));
                    if (j < d) below += double(net.r[j]) * y[j];
                }
                CHECK(worst < 4e-6 * (net.log2_d2 + 1) * repeats);
                CHECK(std::equal(x0.begin(), x0.end(), x.data()));
                CHECK(out[d + 1] == canary);
                CHECK(scratch[2 * d] == canary);
            }
        }
    }
}

TEST_CASE("butterfly_simplex_row maps consecutive rules exactly as it maps each alone") {
    constexpr float canary = -1234.5f;
    test_rng rng(80);
    std::vector<unsigned> sizes;
    for (unsigned d = 1; d <= 40; ++d) sizes.push_back(d);
    for (unsigned d : {64u, 100u, 128u, 256u}) sizes.push_back(d);
    for (unsigned d : sizes) {
        const unsigned log2_d2 = kfm_test::random_butterfly_network(d, rng).log2_d2;
        const std::size_t cs_stride = 2 * ((std::size_t(1) << log2_d2) - 1);
        for (unsigned rules : {2u, 3u, 4u, 5u, 9u}) {
            // the rules' angles and permutations back to back, as a map stores them
            std::vector<float> cs, r, diag;
            std::vector<std::uint32_t> perm;
            for (unsigned k = 0; k < rules; ++k) {
                const auto net = kfm_test::random_butterfly_network(d, rng);
                cs.insert(cs.end(), net.cs.begin(), net.cs.end());
                perm.insert(perm.end(), net.perm.begin(), net.perm.end());
                r = net.r;
                diag = net.diag;
            }
            std::vector<float> x(d);
            for (auto& v : x) v = rng.uniform(-1, 1);
            for (const auto* t : available_tables()) {
                const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
                CAPTURE(d);
                CAPTURE(rules);
                const std::size_t n = std::size_t(rules) * (d + 1);
                std::vector<float> all(n + 1), one(d + 1), scratch(2 * d + 1);
                all[n] = canary;
                scratch[2 * d] = canary;
                t->butterfly_simplex_row(x.data(), all.data(), rules, d, log2_d2, cs.data(), perm.data(), false, 3,
                                         r.data(), diag.data(), scratch.data());
                CHECK(all[n] == canary);
                CHECK(scratch[2 * d] == canary);
                for (unsigned k = 0; k < rules; ++k) {
                    CAPTURE(k);
                    t->butterfly_simplex_row(x.data(), one.data(), 1, d, log2_d2, cs.data() + k * cs_stride,
                                             perm.data() + std::size_t(k) * d, false, 3, r.data(), diag.data(),
                                             scratch.data());
                    CHECK(std::memcmp(one.data(), all.data() + std::size_t(k) * (d + 1), (d + 1) * sizeof(float)) == 0);
                }
            }
        }
    }
}

TEST_CASE("butterfly_simplex_row with blocked permutations gives the bits of the unblocked call") {
    // blocked = true only changes how the gathers move data, so every output bit is the blocked = false
    // path's (tested against the double-precision step above): d the multiples of 8 of every path (one to
    // sixteen registers, and through memory, powers of two or not), several rules at once and 1 .. 3 repeats.
    constexpr float canary = -1234.5f;
    test_rng rng(81);
    for (unsigned d : {8u, 16u, 24u, 32u, 64u, 96u, 128u, 136u, 256u, 512u, 784u, 1024u}) {
        const unsigned log2_d2 = kfm_test::random_butterfly_network(d, rng).log2_d2;
        for (unsigned rules : {1u, 2u, 3u, 4u, 5u}) {
            std::vector<float> cs, r, diag;
            std::vector<std::uint32_t> perm(std::size_t(rules) * d);
            for (unsigned k = 0; k < rules; ++k) {
                const auto net = kfm_test::random_butterfly_network(d, rng);
                cs.insert(cs.end(), net.cs.begin(), net.cs.end());
                kfm_test::random_blocked_permutation(rng, d, perm.data() + std::size_t(k) * d);
                r = net.r;
                diag = net.diag;
            }
            unaligned_buffer x(d);
            for (unsigned i = 0; i < d; ++i) x[i] = rng.uniform(-1, 1);
            for (const auto* t : available_tables()) {
                const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
                CAPTURE(d);
                CAPTURE(rules);
                for (unsigned repeats : {1u, 2u, 3u}) {
                    CAPTURE(repeats);
                    const std::size_t n = std::size_t(rules) * (d + 1);
                    unaligned_buffer blocked(n + 1), plain(n), scratch(2 * d + 1);
                    blocked[n] = canary;
                    scratch[2 * d] = canary;
                    t->butterfly_simplex_row(x.data(), blocked.data(), rules, d, log2_d2, cs.data(), perm.data(), true,
                                             repeats, r.data(), diag.data(), scratch.data());
                    t->butterfly_simplex_row(x.data(), plain.data(), rules, d, log2_d2, cs.data(), perm.data(), false,
                                             repeats, r.data(), diag.data(), scratch.data());
                    CHECK(std::memcmp(blocked.data(), plain.data(), n * sizeof(float)) == 0);
                    CHECK(blocked[n] == canary);
                    CHECK(scratch[2 * d] == canary);
                }
            }
        }
    }
}
