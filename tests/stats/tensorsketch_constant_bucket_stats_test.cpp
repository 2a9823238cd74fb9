// TensorSketch's appended constant sqrt(q) has a bucket of its own in every count sketch: the layout, the
// estimate's unbiasedness at p = 1, 2 and 3, and the variance it removes (the Gram error at p = 1 on
// points with a shared offset, the case where constant-coordinate collisions dominated).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "common/pair_estimates.hpp"
#include "common/stats_util.hpp"
#include "kfm/offline.hpp"

using kfm::offline::build_options;
using kfm::detail::section;

namespace {

build_options sketch_options(unsigned d, unsigned D, unsigned degree, std::uint64_t seed) {
    build_options o;
    o.method = kfm::format::method::tensorsketch;
    o.kernel.kind = kfm::format::kernel::polynomial_sphere;
    o.kernel.degree = degree;
    o.kernel.scale = 3.0;
    o.input_dim = d;
    o.features = D;
    o.seed = seed;
    return o;
}

}  // namespace

TEST_CASE("tensorsketch: no input coordinate shares the constant's bucket; the input still uses every other bucket") {
    const unsigned d = 200, D = 16;
    for (unsigned degree : {1u, 3u})
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            const auto map = kfm::test::map_from_options(sketch_options(d, D, degree, seed));
            const auto& s = map.state();
            REQUIRE(s.view<section::indices>().count == std::size_t(degree) * (d + 1));
            for (unsigned k = 0; k < degree; ++k) {
                const std::uint32_t constant = s.view<section::indices>().data[k * (d + 1) + d];
                std::vector<bool> used(D, false);
                for (unsigned i = 0; i < d; ++i) {
                    CHECK(s.view<section::indices>().data[k * (d + 1) + i] != constant);
                    used[s.view<section::indices>().data[k * (d + 1) + i]] = true;
                }
                for (unsigned b = 0; b < D; ++b) CHECK(used[b] == (b != constant));  // 200 draws into 15 buckets
            }
        }
}

TEST_CASE("tensorsketch: unbiased over seeds at p = 1, 2, 3 with the constant's own bucket") {
    const unsigned d = 8, D = 16, seeds = 3000;
    const kfm::test::point_pairs pairs =
        kfm::test::pairs_of_rows(kfm::test::random_points(4, d, 5, 1.0, true), d, {{0, 1}, {2, 3}});
    for (unsigned degree : {1u, 2u, 3u}) {
        CAPTURE(degree);
        // Each map (seeds 50 ..) is built once and evaluated at both pairs.
        const std::vector<kfm::test::mean_ci> means =
            kfm::test::mean_estimates_over_seeds(pairs, 50, seeds, 0.999, [&](std::uint64_t seed) {
                return kfm::test::map_from_options(sketch_options(d, D, degree, seed));
            });
        const auto kernel = sketch_options(d, D, degree, 1).kernel;
        for (std::size_t pair = 0; pair < pairs.size(); ++pair) {
            const kfm::test::mean_ci& ci = means[pair];
            const double exact = kfm::test::exact(kernel, pairs.xs[pair], pairs.ys[pair]);
            CAPTURE(pair);
            CAPTURE(exact);
            CAPTURE(ci.mean);
            CAPTURE(ci.half_width);
            CHECK(ci.contains(exact));
            CHECK(ci.half_width < 0.02);  // power: a wrong constant or scale moves the mean by more
        }
    }
}

// Points x = (c + z) / |c + z| around a shared direction c, as in image data (non-negative pixels): the
// kernel is nearly constant, so a constant colliding with input coordinates (the old layout, which is
// what scikit-learn's PolynomialCountSketch does) shifted whole rows of K^. Measured on these points:
// mean rel. Frobenius 0.0331 with the constant's own bucket, 0.0748 with the old shared buckets.
TEST_CASE("tensorsketch: p = 1 Gram error on offset points stays at the collision-free level") {
    const unsigned d = 64, D = 64, n = 80, seeds = 20;
    auto offset = [&](std::uint64_t seed) {
        auto p = kfm::test::random_points(n, d, seed, 0.5, true);
        for (unsigned i = 0; i < n; ++i) {
            double norm = 0.0;
            for (unsigned j = 0; j < d; ++j) norm += std::pow(p[i * d + j] += 0.25f, 2.0);
            for (unsigned j = 0; j < d; ++j) p[i * d + j] = float(p[i * d + j] / std::sqrt(norm));
        }
        return p;
    };
    const auto x = offset(21), y = offset(22);
    double error = 0.0;
    for (unsigned s = 0; s < seeds; ++s)
        error += kfm::test::gram_error(kfm::test::map_from_options(sketch_options(d, D, 1, 400 + s)), x, n, y, n).rel_frobenius;
    MESSAGE("tensorsketch p = 1, D = 64: mean rel. Frobenius " << error / seeds);
    CHECK(error / seeds < 0.05);
}
