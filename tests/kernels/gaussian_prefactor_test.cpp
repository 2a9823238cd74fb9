// gaussian_prefactor: every ISA against exp(-|x|^2 / 2) times each output in long double, for rows whose
// squared norms run from 0 past the float factor's range (the factor below FLT_MIN, and below e^-708 where the
// vector exp clamps), every row count up to two vectors of rows plus a tail, strides wider than the rows; and a
// row's bits alone equal to its bits at any position of a batch.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <vector>

#include "kernel_test_util.hpp"

using kfm_test::available_tables;
using kfm_test::test_rng;

namespace {

struct rows_case {
    std::size_t rows, d, x_stride, out_dim, out_stride;
    std::vector<float> x, out;
};

// Rows of d values whose squared norms spread over [0, 4000] (row r's target norm grows with r, so every
// group of rows mixes factors near 1, below FLT_MIN and below e^-708); outputs of both signs and any size.
rows_case make_case(test_rng& rng, std::size_t rows, std::size_t d, std::size_t out_dim) {
    rows_case c{rows, d, d + 3, out_dim, out_dim + 5, {}, {}};
    c.x.resize(rows * c.x_stride);
    c.out.resize(rows * c.out_stride);
    for (std::size_t r = 0; r < rows; ++r) {
        const float norm_squared = (r % 5 == 0) ? 0.0f : rng.uniform(0.0f, 1.0f) * float((r % 7) * (r % 7)) * 90.0f;
        const float each = std::sqrt(norm_squared / float(d));
        for (std::size_t i = 0; i < c.x_stride; ++i)
            c.x[r * c.x_stride + i] = i < d ? each * rng.uniform(0.5f, 1.5f) * (rng.uniform(-1.0f, 1.0f) < 0 ? -1.0f : 1.0f)
                                            : std::nanf("");  // beyond d: never read
        for (std::size_t j = 0; j < c.out_stride; ++j)
            c.out[r * c.out_stride + j] = rng.uniform(-1.0f, 1.0f) * std::ldexp(1.0f, int(rng.uniform(-20.0f, 100.0f)));
    }
    return c;
}

}  // namespace

TEST_CASE("gaussian_prefactor scales every output of a row by exp(-|x|^2 / 2) on every ISA") {
    test_rng rng(11);
    for (const auto* t : available_tables())
        for (std::size_t d : {1, 3, 8, 16, 17, 40})
            for (std::size_t rows = 0; rows <= 19; ++rows) {
                rows_case c = make_case(rng, rows, d, 1 + (rows * 7 + d) % 37);
                const std::vector<float> before = c.out;
                t->gaussian_prefactor(c.x.data(), c.x_stride, d, rows, c.out.data(), c.out_stride, c.out_dim);
                for (std::size_t r = 0; r < rows; ++r) {
                    long double norm_squared = 0;
                    for (std::size_t i = 0; i < d; ++i) norm_squared += (long double)c.x[r * c.x_stride + i] * c.x[r * c.x_stride + i];
                    const long double factor = std::exp(-0.5L * norm_squared);
                    for (std::size_t j = 0; j < c.out_stride; ++j) {
                        const float got = c.out[r * c.out_stride + j], old = before[r * c.out_stride + j];
                        INFO(kfm_test::name(t->id) << " d " << d << " rows " << rows << " r " << r << " j " << j
                                                   << " |x|^2 " << double(norm_squared));
                        if (j >= c.out_dim) {  // beyond out_dim: untouched
                            CHECK(std::memcmp(&got, &old, sizeof got) == 0);
                            continue;
                        }
                        const float want = float(factor * old);
                        // Two float roundings of the exact product (the factor's, the product's), or the
                        // subnormal spacing; a product that rounds to zero is a zero of its sign.
                        CHECK(std::fabs(got - want) <= std::fabs(want) * 0x1p-22f + 0x1p-148f);
                        CHECK(std::signbit(got) == std::signbit(old));
                    }
                }
            }
}

TEST_CASE("gaussian_prefactor gives a row the same bits alone and at every position of a batch, every ISA") {
    test_rng rng(12);
    for (const auto* t : available_tables())
        for (std::size_t d : {5, 16, 64})
            for (std::size_t rows : {1, 2, 7, 8, 9, 17, 70}) {  // 70: more rows than one call's chunk of 64
                const rows_case c = make_case(rng, rows, d, 33);
                std::vector<float> batch = c.out;
                t->gaussian_prefactor(c.x.data(), c.x_stride, d, rows, batch.data(), c.out_stride, c.out_dim);
                for (std::size_t r = 0; r < rows; ++r) {
                    std::vector<float> alone(c.out.begin() + std::ptrdiff_t(r * c.out_stride),
                                             c.out.begin() + std::ptrdiff_t((r + 1) * c.out_stride));
                    t->gaussian_prefactor(c.x.data() + r * c.x_stride, c.x_stride, d, 1, alone.data(), c.out_stride,
                                          c.out_dim);
                    INFO(kfm_test::name(t->id) << " d " << d << " rows " << rows << " r " << r);
                    CHECK(std::memcmp(alone.data(), batch.data() + r * c.out_stride, c.out_stride * sizeof(float)) == 0);
                }
            }
}
