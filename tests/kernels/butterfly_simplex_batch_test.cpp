// The batched quadrature rule (butterfly_simplex_batch: R = butterfly_simplex_batch_rows vectors
// interleaved, t = V^T (M x)) against the single-vector butterfly of the scalar table (itself tested
// against the double-precision definition in butterfly_test.cpp) followed by the simplex step in double,
// on every ISA this host runs, for d = 1 .. 33, 64, 100, 256, 1023 and 1, 2, 3 repeats (the buffers
// alternate differently for each parity), on unaligned buffers; the input is left unchanged and the
// kernel writes nothing past (d+1) R floats of t or d R floats of its scratch.
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

namespace {

constexpr float canary = -1234.5f;

}  // namespace

TEST_CASE("butterfly_simplex_batch equals the single-vector butterfly and the simplex step for every vector") {
    test_rng rng(77);
    std::vector<unsigned> sizes;
    for (unsigned d = 1; d <= 33; ++d) sizes.push_back(d);
    for (unsigned d : {64u, 100u, 256u, 1023u}) sizes.push_back(d);
    const auto* scalar = kfm::detail::kernels_for(kfm::isa::scalar);
    REQUIRE(scalar != nullptr);
    for (unsigned d : sizes) {
        const auto net = kfm_test::random_butterfly_network(d, rng);
        for (unsigned repeats : {1u, 2u, 3u}) {
            for (const auto* t : available_tables()) {
                const std::size_t rows = t->butterfly_simplex_batch_rows;
                const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
                CAPTURE(d);
                CAPTURE(repeats);
                REQUIRE(rows >= 1);
                const std::size_t n = d * rows;
                const std::size_t n_out = n + rows;  // d + 1 rows
                unaligned_buffer x(n), out(n_out + 1), scratch(n + 1);
                for (std::size_t i = 0; i < n; ++i) x[i] = rng.uniform(-1, 1);
                const std::vector<float> x0(x.data(), x.data() + n);
                out[n_out] = canary;
                scratch[n] = canary;
                t->butterfly_simplex_batch(x.data(), out.data(), d, net.log2_d2, net.cs.data(), net.perm.data(), repeats,
                                           net.r.data(), net.diag.data(), scratch.data());

                double worst = 0.0;
                std::vector<float> single(d), single_scratch(d);
                for (std::size_t v = 0; v < rows; ++v) {
                    for (unsigned i = 0; i < d; ++i) single[i] = x0[i * rows + v];
                    scalar->butterfly(single.data(), d, net.log2_d2, net.cs.data(), net.perm.data(), repeats, false,
                                      single_scratch.data());
                    double below = 0.0;  // sum_{i<j} r_i y_i
                    for (unsigned j = 0; j <= d; ++j) {
                        const double want = j < d ? double(net.diag[j]) * single[j] - below : -below;
                        worst = std::max(worst, std::fabs(out[j * rows + v] - want));
                        if (j < d) below += double(net.r[j]) * single[j];
                    }
                }
                CHECK(worst < 4e-6 * (net.log2_d2 + 1) * repeats);
                CHECK(std::equal(x0.begin(), x0.end(), x.data()));
                CHECK(out[n_out] == canary);
                CHECK(scratch[n] == canary);
            }
        }
    }
}

TEST_CASE("every table has a batched quadrature rule whose rows are whole registers, and is_complete requires it") {
    for (const auto* t : available_tables()) {
        CAPTURE(std::string(kfm_test::name(t->id)));
        CHECK(bool(t->butterfly_simplex_batch != nullptr));
        CHECK(t->butterfly_simplex_batch_rows >= 4);
        CHECK(t->butterfly_simplex_batch_rows <= kfm::detail::max_butterfly_simplex_batch_rows);
        CHECK((t->butterfly_simplex_batch_rows & (t->butterfly_simplex_batch_rows - 1)) == 0);  // a power of two
        kfm::detail::kernel_table copy = *t;
        copy.butterfly_simplex_batch = nullptr;
        CHECK(!kfm::detail::is_complete(copy));
        copy = *t;
        copy.butterfly_simplex_batch_rows = kfm::detail::max_butterfly_simplex_batch_rows + 1;
        CHECK(!kfm::detail::is_complete(copy));
        copy = *t;
        copy.butterfly_simplex_row = nullptr;
        CHECK(!kfm::detail::is_complete(copy));
    }
}

TEST_CASE("butterfly_simplex_batch gives each vector exactly the same table's butterfly_simplex_row") {
    // The quadrature projection maps a single row with butterfly_simplex_row and a batch with
    // butterfly_simplex_batch; a row's features must not depend on its batch, so the two agree bit for bit
    // (every rotation rounds alike in the vector, in-register and scalar-tail levels).
    test_rng rng(78);
    std::vector<unsigned> sizes;
    for (unsigned d = 1; d <= 40; ++d) sizes.push_back(d);
    for (unsigned d : {64u, 100u, 128u, 255u, 256u, 1023u}) sizes.push_back(d);
    for (unsigned d : sizes) {
        const auto net = kfm_test::random_butterfly_network(d, rng);
        for (unsigned repeats : {1u, 2u, 3u}) {
            for (const auto* t : available_tables()) {
                REQUIRE((t->butterfly_simplex_row != nullptr));
                const std::size_t rows = t->butterfly_simplex_batch_rows;
                const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
                CAPTURE(d);
                CAPTURE(repeats);
                std::vector<float> x(d * rows), out((d + 1) * rows), scratch(d * rows);
                for (std::size_t v = 0; v < rows; ++v) {  // one scale per row, from 1e-3 to 2^20
                    const float scale = float(std::pow(10.0, -3.0 + 9.0 * double(v) / double(rows)));
                    for (unsigned i = 0; i < d; ++i) x[i * rows + v] = scale * rng.uniform(-1, 1);
                }
                t->butterfly_simplex_batch(x.data(), out.data(), d, net.log2_d2, net.cs.data(), net.perm.data(), repeats,
                                           net.r.data(), net.diag.data(), scratch.data());
                std::vector<float> y(d), y_scratch(2 * d), single(d + 1);
                for (std::size_t v = 0; v < rows; ++v) {
                    CAPTURE(v);
                    for (unsigned i = 0; i < d; ++i) y[i] = x[i * rows + v];
                    t->butterfly_simplex_row(y.data(), single.data(), 1, d, net.log2_d2, net.cs.data(), net.perm.data(),
                                             false, repeats, net.r.data(), net.diag.data(), y_scratch.data());
                    bool same = true;
                    for (unsigned j = 0; j <= d; ++j) same = same && std::memcmp(&single[j], &out[j * rows + v], sizeof(float)) == 0;
                    CHECK(same);
                }
            }
        }
    }
}
