// Butterfly network: every ISA against a double-precision reference written from docs/methods.md,
// "The butterfly network" (the dense matrix built column by column from unit vectors), orthogonality
// Q^T Q = I, transpose == inverse, for d = 1 .. 33 (powers of two and pass-through sizes), 64, 100, and a
// spread of columns at d = 784 and 1000.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kernel_test_util.hpp"

using kfm_test::available_tables;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

namespace {

// The definition in double (kernel_reference.hpp) on x, `repeats` times.
void reference(const kfm_test::butterfly_network& net, std::vector<double>& x, unsigned repeats) {
    std::vector<double> scratch(net.d);
    kfm_test::reference_butterfly(net.cs.data(), net.perm.data(), net.d, net.log2_d2, repeats, x.data(),
                                  scratch.data());
}

}  // namespace

TEST_CASE("butterfly equals its double-precision dense matrix and is orthogonal") {
    test_rng rng(2024);
    std::vector<unsigned> sizes;
    for (unsigned d = 1; d <= 33; ++d) sizes.push_back(d);
    for (unsigned d : {64u, 100u, 784u, 1000u}) sizes.push_back(d);
    for (unsigned d : sizes) {
        const auto net = kfm_test::random_butterfly_network(d, rng);
        for (unsigned repeats : {1u, 3u}) {
            // reference dense matrix, column j = Q e_j; for the two large sizes a spread of columns
            // (all of them would take minutes under qemu)
            std::vector<unsigned> columns;
            for (unsigned j = 0; j < d; j += d <= 100 ? 1 : 41) columns.push_back(j);
            if (columns.back() != d - 1) columns.push_back(d - 1);
            std::vector<double> q(std::size_t(d) * d);
            for (unsigned j : columns) {
                std::vector<double> e(d, 0.0);
                e[j] = 1.0;
                reference(net, e, repeats);
                for (unsigned i = 0; i < d; ++i) q[std::size_t(i) * d + j] = e[i];
            }
            for (const auto* t : available_tables()) {
                const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
                CAPTURE(d);
                CAPTURE(repeats);
                unaligned_buffer x(d), scratch(d);
                std::vector<float> qf(std::size_t(d) * d);
                double worst = 0, worst_inverse = 0;
                for (unsigned j : columns) {
                    for (unsigned i = 0; i < d; ++i) x[i] = i == j ? 1.0f : 0.0f;
                    t->butterfly(x.data(), d, net.log2_d2, net.cs.data(), net.perm.data(), repeats, false, scratch.data());
                    for (unsigned i = 0; i < d; ++i) {
                        qf[std::size_t(i) * d + j] = x[i];
                        worst = std::max(worst, std::abs(x[i] - q[std::size_t(i) * d + j]));
                    }
                    // transpose == inverse: back to e_j
                    t->butterfly(x.data(), d, net.log2_d2, net.cs.data(), net.perm.data(), repeats, true, scratch.data());
                    for (unsigned i = 0; i < d; ++i) worst_inverse = std::max(worst_inverse, std::abs(x[i] - (i == j ? 1.0 : 0.0)));
                }
                CHECK(worst < 2e-6 * (net.log2_d2 + 1) * repeats);
                CHECK(worst_inverse < 4e-6 * (net.log2_d2 + 1) * repeats);
                if (d <= 100) {  // Q^T Q = I (O(d^3): small sizes only)
                    double worst_gram = 0;
                    for (unsigned a = 0; a < d; ++a)
                        for (unsigned b = 0; b < d; ++b) {
                            double g = 0;
                            for (unsigned i = 0; i < d; ++i) g += double(qf[std::size_t(i) * d + a]) * qf[std::size_t(i) * d + b];
                            worst_gram = std::max(worst_gram, std::abs(g - (a == b ? 1.0 : 0.0)));
                        }
                    CHECK(worst_gram < 1e-5);
                }
            }
        }
    }
}

TEST_CASE("butterfly transpose applies Q^T, checked against the forward dense matrix") {
    test_rng rng(5);
    for (unsigned d : {7u, 16u, 33u, 100u}) {
        const auto net = kfm_test::random_butterfly_network(d, rng);
        std::vector<double> q(std::size_t(d) * d);
        for (unsigned j = 0; j < d; ++j) {
            std::vector<double> e(d, 0.0);
            e[j] = 1.0;
            reference(net, e, 3);
            for (unsigned i = 0; i < d; ++i) q[std::size_t(i) * d + j] = e[i];
        }
        std::vector<float> x0(d);
        for (auto& v : x0) v = rng.uniform(-1, 1);
        for (const auto* t : available_tables()) {
            const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
            CAPTURE(d);
            std::vector<float> x = x0, scratch(d);
            t->butterfly(x.data(), d, net.log2_d2, net.cs.data(), net.perm.data(), 3, true, scratch.data());
            for (unsigned i = 0; i < d; ++i) {
                double ref = 0;
                for (unsigned k = 0; k < d; ++k) ref += q[std::size_t(k) * d + i] * x0[k];
                CHECK(std::abs(x[i] - ref) < 1e-5);
            }
        }
    }
}
