// gaussian_factors: every ISA against exp(-|x|^2 / 2) in long double, for rows whose squared norms run from 0
// past double's exp range (where a factor only has to be small enough that any float times it rounds to zero),
// every row count up to two vectors of rows plus a tail, strides wider than the rows; and a row's bits alone
// equal to its bits at any position of a batch.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "kernel_test_util.hpp"

using kfm::detail::accumulator;
using kfm_test::available_tables;
using kfm_test::test_rng;

namespace {

struct rows_case {
    std::size_t rows, d, x_stride;
    std::vector<float> x;
};

// Rows of d values whose squared norms spread over [0, 3240] (row r's bound grows with r mod 7, so every group
// of rows mixes factors near 1, below FLT_MIN and below e^-708); NaN between the rows (never read).
rows_case make_case(test_rng& rng, std::size_t rows, std::size_t d) {
    rows_case c{rows, d, d + 3, {}};
    c.x.resize(rows * c.x_stride);
    for (std::size_t r = 0; r < rows; ++r) {
        const float norm_squared = (r % 5 == 0) ? 0.0f : rng.uniform(0.0f, 1.0f) * float((r % 7) * (r % 7)) * 90.0f;
        const float each = std::sqrt(norm_squared / float(d));
        for (std::size_t i = 0; i < c.x_stride; ++i)
            c.x[r * c.x_stride + i] = i < d ? each * rng.uniform(0.5f, 1.5f) * (rng.uniform(-1.0f, 1.0f) < 0 ? -1.0f : 1.0f)
                                            : std::nanf("");
    }
    return c;
}

}  // namespace

TEST_CASE("gaussian_factors equals exp(-|x|^2 / 2) on every ISA") {
    test_rng rng(11);
    for (const auto* t : available_tables())
        for (std::size_t d : {1, 3, 8, 16, 17, 40})
            for (std::size_t rows = 0; rows <= 19; ++rows) {
                const rows_case c = make_case(rng, rows, d);
                std::vector<accumulator> factors(rows + 1, accumulator(-1));
                t->gaussian_factors(c.x.data(), c.x_stride, d, rows, factors.data());
                CHECK(factors[rows] == accumulator(-1));  // nothing written past the rows
                for (std::size_t r = 0; r < rows; ++r) {
                    long double norm_squared = 0;
                    for (std::size_t i = 0; i < d; ++i) norm_squared += (long double)c.x[r * c.x_stride + i] * c.x[r * c.x_stride + i];
                    const long double want = std::exp(-0.5L * norm_squared);
                    INFO(kfm_test::name(t->id) << " d " << d << " rows " << rows << " r " << r << " |x|^2 "
                                               << double(norm_squared) << " factor " << double(factors[r]));
                    if (-0.5L * norm_squared >= -708.0L) {
                        CHECK(std::fabs(factors[r] - want) <= want * 1e-10L);
                    } else {  // any float (< 2^128) times it is below half the smallest subnormal float, 2^-150
                        CHECK(factors[r] >= 0);
                        CHECK(factors[r] <= 0x1p-279);
                    }
                }
            }
}

TEST_CASE("gaussian_factors gives a row the same bits alone and at every position of a batch, every ISA") {
    test_rng rng(12);
    for (const auto* t : available_tables())
        for (std::size_t d : {5, 16, 64})
            for (std::size_t rows : {1, 2, 7, 8, 9, 17, 64}) {
                const rows_case c = make_case(rng, rows, d);
                std::vector<accumulator> batch(rows);
                t->gaussian_factors(c.x.data(), c.x_stride, d, rows, batch.data());
                for (std::size_t r = 0; r < rows; ++r) {
                    accumulator alone = 0;
                    t->gaussian_factors(c.x.data() + r * c.x_stride, c.x_stride, d, 1, &alone);
                    INFO(kfm_test::name(t->id) << " d " << d << " rows " << rows << " r " << r);
                    CHECK(std::memcmp(&alone, &batch[r], sizeof alone) == 0);
                }
            }
}
