// Walsh-Hadamard: every ISA against the dense normalised Hadamard matrix in double (with and without
// the fused sign diagonal) for n = 2 .. 2048, and against a double fast transform up to n = 65536.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kernel_test_util.hpp"
#include "peers/fwht_naive.hpp"
#include "kernels/fwht_norm.hpp"

using kfm_test::available_tables;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

namespace {

int hadamard_entry(std::size_t i, std::size_t j) {
    std::size_t b = i & j;
    int parity = 0;
    while (b) { parity ^= int(b & 1u); b >>= 1; }
    return parity ? -1 : 1;
}

bool sign_flipped(const std::vector<std::uint8_t>& bits, std::size_t i) { return (bits[i >> 3] >> (i & 7)) & 1u; }

std::vector<double> signed_input(const std::vector<float>& x, const std::vector<std::uint8_t>* bits) {
    std::vector<double> v(x.begin(), x.end());
    if (bits)
        for (std::size_t i = 0; i < v.size(); ++i)
            if (sign_flipped(*bits, i)) v[i] = -v[i];
    return v;
}

}  // namespace

TEST_CASE("fwht equals the dense normalised Hadamard matrix times diag(signs)") {
    test_rng rng(11);
    for (unsigned log2_n = 1; log2_n <= 11; ++log2_n) {
        const std::size_t n = std::size_t(1) << log2_n;
        std::vector<float> x(n);
        for (auto& v : x) v = rng.uniform(-1, 1);
        std::vector<std::uint8_t> bits((n + 7) / 8 + 1);
        for (auto& b : bits) b = std::uint8_t(rng.next());
        for (bool with_signs : {false, true}) {
            const auto v = signed_input(x, with_signs ? &bits : nullptr);
            std::vector<double> ref(n, 0.0);
            for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t j = 0; j < n; ++j) ref[i] += hadamard_entry(i, j) * v[j];
                ref[i] /= std::sqrt(double(n));
            }
            for (const auto* t : available_tables()) {
                const std::string isa_label = kfm_test::name(t->id);
            CAPTURE(isa_label);
                CAPTURE(n);
                CAPTURE(with_signs);
                unaligned_buffer y(n);
                for (std::size_t i = 0; i < n; ++i) y[i] = x[i];
                t->fwht(y.data(), log2_n, with_signs ? bits.data() : nullptr);
                double worst = 0;
                for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(y[i] - ref[i]));
                CHECK(worst < 3e-7 * (log2_n + 1) * 4);
            }
        }
    }
}

TEST_CASE("fwht up to n = 65536 against the double fast transform; applying it twice is the identity") {
    test_rng rng(12);
    for (unsigned log2_n : {12u, 13u, 16u}) {
        const std::size_t n = std::size_t(1) << log2_n;
        std::vector<float> x(n);
        for (auto& v : x) v = rng.uniform(-1, 1);
        std::vector<std::uint8_t> bits(n / 8);
        for (auto& b : bits) b = std::uint8_t(rng.next());
        std::vector<double> ref(x.begin(), x.end());
        kfm::detail::naive_fwht(ref.data(), log2_n, bits.data());
        for (const auto* t : available_tables()) {
            const std::string isa_label = kfm_test::name(t->id);
            CAPTURE(isa_label);
            CAPTURE(n);
            std::vector<float> y = x;
            t->fwht(y.data(), log2_n, bits.data());
            double worst = 0;
            for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(y[i] - ref[i]));
            CHECK(worst < 3e-7 * (log2_n + 1) * 4);
            t->fwht(y.data(), log2_n, nullptr);  // H H = I for the normalised transform
            worst = 0;
            for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, double(std::abs(y[i] - (sign_flipped(bits, i) ? -x[i] : x[i]))));
            CHECK(worst < 1e-5);
        }
    }
}

TEST_CASE("fwht: the normalisation without double arithmetic equals float(1 / sqrt(double(n))), n = 1 ... 2^62") {
    for (unsigned log2_n = 0; log2_n <= 62; ++log2_n) {
        const float expected = float(1.0 / std::sqrt(double(std::uint64_t(1) << log2_n)));
        INFO("n = 2^" << log2_n);
        CHECK(kfm::detail::kern::fwht_norm(log2_n) == expected);
    }
}
