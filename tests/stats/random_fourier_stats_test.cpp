// Statistical behaviour of the dense baselines rff, rff-phase and orf (gaussian, arc-cosine 0/1/2),
// through the real file path (build_map -> serialize -> kfm::open -> transform): unbiasedness over many
// seeds, relative Frobenius error falling like D^{-1/2}, ORF below RFF at D = d, and the LETTER figure
// of the quadrature paper's plain-RFF baseline.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "common/error_rate_checks.hpp"
#include "common/pair_estimates.hpp"
#include "common/random_fourier_configs.hpp"
#include "common/stats_util.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/evaluate.hpp"
#include "kfm/offline/npy.hpp"

using kfm::format::kernel;
using kfm::format::method;
using kfm::offline::build_options;

namespace {

using config = kfm::test::random_fourier_config;
using kfm::test::describe;
constexpr const auto& all_configs = kfm::test::random_fourier_configs;

build_options options(const config& c, unsigned d, unsigned D, std::uint64_t seed, double sigma = 1.0) {
    build_options o;
    o.method = c.m;
    o.kernel.kind = c.k;
    o.kernel.sigma = sigma;
    o.kernel.order = c.order;
    o.input_dim = d;
    o.features = D;
    o.seed = seed;
    return o;
}

}  // namespace

TEST_CASE("every baseline is unbiased: the mean estimate over seeds brackets the exact kernel") {
    const unsigned d = 6, D = 64, seeds = 600;
    const kfm::test::point_pairs pairs =
        kfm::test::pairs_of_rows(kfm::test::random_points(6, d, 2024, 1.0), d, {{0, 1}, {2, 3}, {4, 5}});
    for (const config& c : all_configs) {
        CAPTURE(describe(c));
        // Maps 1000 .. 1599, each built once for the three pairs; every map records the same kernel.
        const auto make_map = [&](std::uint64_t seed) { return kfm::test::map_from_options(options(c, d, D, seed)); };
        const std::vector<kfm::test::mean_ci> means =
            kfm::test::mean_estimates_over_seeds(pairs, 1000, seeds, 0.999, make_map);
        const kfm::offline::kernel_spec spec = kfm::offline::kernel_spec_from_map(make_map(1000).view());
        for (std::size_t p = 0; p < pairs.size(); ++p) {
            CAPTURE(p);
            const auto& x = pairs.xs[p];
            const auto& y = pairs.ys[p];
            const double exact = kfm::test::exact(spec, x, y);
            const kfm::test::mean_ci& ci = means[p];
            CAPTURE(exact);
            CAPTURE(ci.mean);
            CAPTURE(ci.half_width);
            CHECK(ci.contains(exact));
            // Power: the interval is narrow against the kernel's scale sqrt(k(x,x) k(y,y)), so a wrong
            // weight or bandwidth would be caught.
            const double scale = std::sqrt(kfm::test::exact(spec, x, x) * kfm::test::exact(spec, y, y));
            CAPTURE(scale);
            CHECK(ci.half_width < 0.05 * scale);
        }
    }
}

TEST_CASE("relative Frobenius error falls like D^{-1/2}") {
    const unsigned d = 6;
    for (const config& c : all_configs)
        kfm::test::check_error_falls_like_inverse_sqrt_features(
            describe(c), d, {32, 64, 128, 256, 512, 1024},
            [&](unsigned D, std::uint64_t seed) { return kfm::test::map_from_options(options(c, d, D, seed)); });
}

TEST_CASE("ORF error is below RFF error at D = d frequencies (gaussian)") {
    const unsigned d = 16, n = 50, seeds = 40;
    const auto x = kfm::test::random_points(n, d, 17, 1.0);
    const auto y = kfm::test::random_points(n, d, 18, 1.0);
    // Paired cos/sin: 2d outputs are d frequencies, one full orthogonal block; d outputs half a block.
    for (unsigned D : {2 * d, d}) {
        CAPTURE(D);
        std::vector<double> rff, orf;
        for (unsigned s = 0; s < seeds; ++s) {
            auto a = kfm::test::map_from_options(options({method::rff, kernel::gaussian, 0}, d, D, 300 + s));
            auto b = kfm::test::map_from_options(options({method::orf, kernel::gaussian, 0}, d, D, 300 + s));
            rff.push_back(kfm::test::gram_error(a, x, n, y, n).rel_frobenius);
            orf.push_back(kfm::test::gram_error(b, x, n, y, n).rel_frobenius);
        }
        const auto r = kfm::test::mean_with_ci(rff), o = kfm::test::mean_with_ci(orf);
        CAPTURE(r.mean);
        CAPTURE(o.mean);
        MESSAGE("D = " << D << ": RFF " << r.mean << " +- " << r.half_width << ", ORF " << o.mean << " +- "
                       << o.half_width << ", ratio " << o.mean / r.mean);
        // The difference of means exceeds three standard errors of that difference.
        const double se = std::sqrt(r.stddev * r.stddev / seeds + o.stddev * o.stddev / seeds);
        CHECK(r.mean - o.mean > 3.0 * se);
    }
}

TEST_CASE("LETTER: plain RFF with 2(d+1) frequencies reproduces the quadrature paper's G figure") {
    const std::string path = std::string(KFM_SHARED_DATA_DIR) + "/letter/X_train.npy";
    if (!std::filesystem::exists(path)) {
        MESSAGE("skipped: " << path << " is absent");
        return;
    }
    auto data = kfm::offline::read_npy(path);
    // The paper's preparation: letter rescaled from [-1, 1] to [0, 1]; gaussian sigma^2 = d/2.
    for (float& v : data.data) v = (v + 1.0f) / 2.0f;
    const unsigned d = static_cast<unsigned>(data.cols);
    REQUIRE(d == 16);
    // Each run draws a new map and new samples X, Y of 550 rows, as the reference does.
    std::vector<double> errors;
    for (unsigned run = 0; run < 20; ++run) {
        const build_options o =
            options({method::rff, kernel::gaussian, 0}, d, 4 * (d + 1), 2018 + run, std::sqrt(d / 2.0));
        auto map = kfm::test::map_from_options(o);
        errors.push_back(kfm::offline::evaluate(map.view(), data.data.data(), data.rows, d, 550, 1, run)
                             .rel_frobenius.mean);
    }
    const auto ci = kfm::test::mean_with_ci(errors);
    MESSAGE("LETTER RFF n=1 (34 frequencies, 68 outputs): rel. Frobenius " << ci.mean << " +- " << ci.half_width
                                                                           << " (paper .0123, prototype .0118)");
    CHECK(ci.mean > 0.0123 / 1.3);
    CHECK(ci.mean < 0.0123 * 1.3);
}
