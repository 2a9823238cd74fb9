// Dense projection: gemv and gemm of every ISA against a naive double product, for shapes that leave
// SIMD and row-block tails, and gemm with row strides larger than the row length.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kernel_test_util.hpp"

using kfm_test::available_tables;
using kfm_test::test_rng;

TEST_CASE("gemv matches the naive product") {
    test_rng rng(8);
    for (std::size_t rows : {1u, 2u, 3u, 4u, 5u, 13u, 64u})
        for (std::size_t cols : {1u, 3u, 4u, 8u, 15u, 16u, 17u, 37u, 100u}) {
            std::vector<float> a(rows * cols), x(cols);
            for (auto& v : a) v = rng.uniform(-1, 1);
            for (auto& v : x) v = rng.uniform(-1, 1);
            for (const auto* t : available_tables()) {
                const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
                CAPTURE(rows);
                CAPTURE(cols);
                std::vector<float> y(rows + 1, 777.0f);
                t->gemv(a.data(), rows, cols, x.data(), y.data());
                CHECK(y[rows] == 777.0f);
                for (std::size_t i = 0; i < rows; ++i) {
                    double ref = 0;
                    for (std::size_t j = 0; j < cols; ++j) ref += double(a[i * cols + j]) * x[j];
                    CHECK(std::abs(y[i] - ref) < 1e-6 * double(cols + 4));
                }
            }
        }
}

TEST_CASE("gemm matches the naive product with strided rows") {
    test_rng rng(9);
    for (std::size_t n : {1u, 3u, 4u, 6u, 9u})
        for (std::size_t rows : {1u, 5u, 16u})
            for (std::size_t cols : {1u, 7u, 16u, 33u}) {
                const std::size_t ldx = cols + 3, ldy = rows + 2;
                std::vector<float> a(rows * cols), x(n * ldx);
                for (auto& v : a) v = rng.uniform(-1, 1);
                for (auto& v : x) v = rng.uniform(-1, 1);
                for (const auto* t : available_tables()) {
                    const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
                    CAPTURE(n);
                    CAPTURE(rows);
                    CAPTURE(cols);
                    std::vector<float> y(n * ldy, 555.0f);
                    t->gemm(a.data(), rows, cols, x.data(), ldx, n, y.data(), ldy);
                    for (std::size_t b = 0; b < n; ++b) {
                        for (std::size_t i = 0; i < rows; ++i) {
                            double ref = 0;
                            for (std::size_t j = 0; j < cols; ++j) ref += double(a[i * cols + j]) * x[b * ldx + j];
                            CHECK(std::abs(y[b * ldy + i] - ref) < 1e-6 * double(cols + 4));
                        }
                        for (std::size_t i = rows; i < ldy; ++i) CHECK(y[b * ldy + i] == 555.0f);  // stride gap untouched
                    }
                }
            }
}
