// The single-vector quadrature rule (butterfly_simplex_row: t = V^T (M x) for one vector) against the
// scalar table's butterfly network (tested against the double-precision definition in butterfly_test.cpp)
// followed by the simplex step in double, on every ISA this host runs, for d = 1 .. 70, 100, 128, 255,
// 256, 1023, 1024 and 1, 2, 3 repeats, on unaligned buffers; x is left unchanged and the kernel writes nothing
// past d+1 floats of t or 2 d floats of its scratch. Several consecutive rules in one call give each rule
// exactly its bits alone (the in-register path runs two or four rules at once).
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
                t->butterfly_simplex_row(x.data(), out.data(), 1, d, net.log2_d2, net.cs.data(), net.perm.data(), repeats,
                                         net.r.data(), net.diag.data(), scratch.data());
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
                t->butterfly_simplex_row(x.data(), all.data(), rules, d, log2_d2, cs.data(), perm.data(), 3, r.data(),
                                         diag.data(), scratch.data());
                CHECK(all[n] == canary);
                CHECK(scratch[2 * d] == canary);
                for (unsigned k = 0; k < rules; ++k) {
                    CAPTURE(k);
                    t->butterfly_simplex_row(x.data(), one.data(), 1, d, log2_d2, cs.data() + k * cs_stride,
                                             perm.data() + std::size_t(k) * d, 3, r.data(), diag.data(), scratch.data());
                    CHECK(std::memcmp(one.data(), all.data() + std::size_t(k) * (d + 1), (d + 1) * sizeof(float)) == 0);
                }
            }
        }
    }
}
