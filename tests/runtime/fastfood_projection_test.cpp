// The fastfood projection against a dense double-precision reference built from the stored sections:
// every feature of the map equals w cos / w sin of (S H G Π H B x) with H the normalised Walsh-Hadamard
// matrix, B from SIGN, Π from PERM, G from GDIA and S from SCAL, on every ISA this host runs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/isa_coverage.hpp"
#include "common/test_maps.hpp"
#include "kfm/offline.hpp"

using namespace kfm;

namespace {

offline::build_options fastfood_options(unsigned d, unsigned features, format::kernel kind) {
    offline::build_options o;
    o.method = format::method::fastfood;
    o.input_dim = d;
    o.features = features;
    o.kernel.kind = kind;
    o.kernel.sigma = std::sqrt(d / 2.0);
    o.kernel.nu = 1.5;
    o.seed = 29 + d;
    return o;
}

std::vector<bool> sign_bits(const offline::map_contents& m) {
    for (const auto& s : m.sections)
        if (s.tag == format::tag::signs) {
            std::vector<bool> v(static_cast<std::size_t>(s.count));
            for (std::size_t i = 0; i < v.size(); ++i) v[i] = (s.bytes[i / 8] >> (i % 8)) & 1u;
            return v;
        }
    return {};
}

// The dense rows S H G Π H B (projection_dim x n, double) from the stored sections.
std::vector<double> dense_rows(const offline::map_contents& m) {
    const std::uint32_t n = m.meta.block_size, p = m.meta.projection_dim;
    const auto signs = sign_bits(m);
    const auto perm = test::section_values<std::uint32_t>(m, format::tag::permutation);
    const auto g = test::section_values<float>(m, format::tag::gaussian_diagonal);
    const auto s = test::section_values<float>(m, format::tag::scales);
    REQUIRE(perm.size() == std::size_t(m.meta.block_count) * n);
    REQUIRE(g.size() == perm.size());
    REQUIRE(s.size() == p);
    const std::uint32_t stride = format::hadamard_sign_stride(n);
    auto h = [n](std::uint32_t r, std::uint32_t c) {
        return (__builtin_popcount(r & c) % 2 ? -1.0 : 1.0) / std::sqrt(double(n));
    };
    std::vector<double> w(std::size_t(p) * n, 0.0);
    for (std::uint32_t i = 0; i < p; ++i) {
        const std::uint32_t b = i / n, r = i % n;
        // Row r of H G Π H B: sum_k H[r][k] g[k] (Π H B)[k][c], (Π H B)[k][c] = H[perm[k]][c] B[c].
        for (std::uint32_t k = 0; k < n; ++k) {
            const std::size_t bk = std::size_t(b) * n + k;
            const double a = h(r, k) * g[bk];
            for (std::uint32_t c = 0; c < n; ++c) {
                const double sign = signs[std::size_t(b) * stride + c] ? -1.0 : 1.0;
                w[std::size_t(i) * n + c] += s[i] * a * h(perm[bk], c) * sign;
            }
        }
    }
    return w;
}

}  // namespace

TEST_CASE("fastfood: features equal the dense S H G Pi H B reference, last block truncated") {
    for (auto kind : {format::kernel::gaussian, format::kernel::matern}) {
        for (unsigned d : {1u, 3u, 13u, 16u, 100u}) {
            CAPTURE(d);
            const auto contents = offline::build_map(fastfood_options(d, 2 * (2 * d + 3), kind));
            const std::uint32_t n = contents.meta.block_size, p = contents.meta.projection_dim;
            if (n > 1) REQUIRE(contents.meta.block_count * n > p);  // a truncated last block is exercised
            const auto w = dense_rows(contents);
            const float weight = test::section_values<format::feature_segment>(contents, format::tag::segments)[0].weight;
            const auto x = test::test_vector(d, 5);
            std::vector<double> ref(2 * std::size_t(p));
            for (std::uint32_t i = 0; i < p; ++i) {
                double t = 0.0;
                for (unsigned c = 0; c < d; ++c) t += w[std::size_t(i) * n + c] * x[c];
                ref[i] = weight * std::cos(t);
                ref[p + i] = weight * std::sin(t);
            }
            const test::file_buffer file(offline::serialize(contents));
            for (isa i : test::known_isas()) {
                if (!isa_available(i)) continue;
                CAPTURE(std::string(isa_name(i)));
                const map v = test::open_or_fail(file, i);
                std::vector<float> out(v.output_dim());
                std::vector<std::uint64_t> work(v.workspace_bytes() / 8 + 8);
                REQUIRE(transform(v, x.data(), d, out.data(), out.size(), work.data(), work.size() * 8) == status::ok);
                double worst = 0.0;
                for (std::size_t j = 0; j < out.size(); ++j) worst = std::max(worst, std::fabs(out[j] - ref[j]));
                CHECK(worst < 2e-5 * weight * std::sqrt(double(d) + 1.0));
            }
        }
    }
}

TEST_CASE("fastfood: the row norms of S H G Pi H B follow chi(n) / sigma") {
    // w_i = r_i u_i with r_i ~ chi(n) / sigma: sigma^2 |w_i|^2 / n averages 1 with variance 2 / n per row.
    const auto o = fastfood_options(13, 4000, format::kernel::gaussian);
    const auto contents = offline::build_map(o);
    const std::uint32_t n = contents.meta.block_size, p = contents.meta.projection_dim;
    const auto w = dense_rows(contents);
    double mean = 0.0;
    for (std::uint32_t i = 0; i < p; ++i) {
        double norm2 = 0.0;
        for (std::uint32_t c = 0; c < n; ++c) norm2 += w[std::size_t(i) * n + c] * w[std::size_t(i) * n + c];
        mean += norm2 * o.kernel.sigma * o.kernel.sigma / n / p;
    }
    CHECK(std::fabs(mean - 1.0) < 5.0 * std::sqrt(2.0 / n / p));
}
