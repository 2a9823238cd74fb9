// Reflected (antithetic) arc-cosine pairs in rff / orf / qmc / sorf, the default form: each of D/2
// directions w gives [f(w.x), f(-w.x)]. Checked through the real file path: the layout (second block is
// f(-w.x) of the first block's directions), unbiasedness over seeds for every method and order, and a
// lower Gram error than the plain form (D directions, one feature each) at the same D.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/stats_util.hpp"
#include "kfm/offline.hpp"

using kfm::format::method;
using kfm::offline::build_options;

using kfm::test::point_row;

namespace {

constexpr method methods[] = {method::rff, method::orf, method::qmc, method::sorf};

build_options arccos_options(method m, unsigned order, unsigned d, unsigned D, std::uint64_t seed,
                             const char* pairs = "reflected") {
    build_options o;
    o.method = m;
    o.kernel.kind = kfm::format::kernel::arccos;
    o.kernel.order = order;
    o.input_dim = d;
    o.features = D;
    o.seed = seed;
    o.arccos_pairs = kfm::offline::choice_named<kfm::offline::arccos_pairs_kind>(pairs);
    return o;
}

std::string describe(method m, unsigned order) {
    return std::string(kfm::offline::method_name(m)) + "/arccos " + std::to_string(order);
}

}  // namespace

TEST_CASE("reflected is the default and its second block is f(-w.x) of the first block's directions") {
    const unsigned d = 12, D = 40;
    const auto points = kfm::test::random_points(3, d, 77, 1.0);
    for (method m : methods)
        for (unsigned order : {0u, 1u, 2u}) {
            CAPTURE(describe(m, order));
            build_options defaults = arccos_options(m, order, d, D, 5);
            defaults.arccos_pairs = build_options{}.arccos_pairs;
            CHECK(defaults.arccos_pairs == kfm::offline::arccos_pairs_kind::reflected);
            const auto map = kfm::test::map_from_options(defaults);
            REQUIRE(map.output_dim() == D);
            const unsigned half = D / 2;
            for (unsigned i = 0; i < 3; ++i) {
                const auto phi = kfm::test::transform_one(map, point_row(points, i, d));
                const auto minus = [&] {
                    auto x = point_row(points, i, d);
                    for (float& v : x) v = -v;
                    return kfm::test::transform_one(map, x);
                }();
                // phi(-x) swaps the two blocks: f(w.(-x)) = f(-w.x).
                for (unsigned j = 0; j < half; ++j) {
                    CHECK(phi[j] == doctest::Approx(minus[half + j]).epsilon(1e-5));
                    CHECK(phi[half + j] == doctest::Approx(minus[j]).epsilon(1e-5));
                }
                if (order == 0)  // step: exactly one of f(t), f(-t) is non-zero for t != 0
                    for (unsigned j = 0; j < half; ++j) CHECK(phi[j] * phi[half + j] == 0.0f);
            }
        }
}

TEST_CASE("an odd D rounds up to whole reflected pairs; plain keeps D; an unknown form is refused") {
    const auto reflected = kfm::test::map_from_options(arccos_options(method::rff, 1, 5, 21, 3));
    CHECK(reflected.output_dim() == 22);
    const auto plain = kfm::test::map_from_options(arccos_options(method::sorf, 1, 5, 21, 3, "plain"));
    CHECK(plain.output_dim() == 21);
    for (method m : methods)
        CHECK_THROWS_WITH_AS(kfm::offline::build_map(arccos_options(m, 0, 5, 20, 3, "mirrored")),
                             doctest::Contains("unknown name 'mirrored' (reflected, plain)"), std::invalid_argument);
}

// rff, orf and qmc are unbiased, so their mean brackets the exact kernel. SORF is not (its rows are only
// approximately Gaussian: a known bias of the method at small d), but -w has the law of w, so reflection
// must leave its mean unchanged: the paired difference reflected - plain over seeds brackets 0.
TEST_CASE("reflected arc-cosine features are unbiased: the mean estimate over seeds brackets the kernel") {
    const unsigned d = 6, D = 32, seeds = 500, pairs = 3;
    const auto points = kfm::test::random_points(2 * pairs, d, 4242, 1.0);
    for (method m : methods)
        for (unsigned order : {0u, 1u, 2u}) {
            CAPTURE(describe(m, order));
            std::vector<std::vector<double>> estimates(pairs), differences(pairs);
            for (unsigned s = 0; s < seeds; ++s) {
                const auto map = kfm::test::map_from_options(arccos_options(m, order, d, D, 7000 + s));
                for (unsigned p = 0; p < pairs; ++p)
                    estimates[p].push_back(kfm::test::estimate(map, point_row(points, 2 * p, d), point_row(points, 2 * p + 1, d)));
                if (m != method::sorf) continue;
                const auto plain = kfm::test::map_from_options(arccos_options(m, order, d, D, 7000 + s, "plain"));
                for (unsigned p = 0; p < pairs; ++p)
                    differences[p].push_back(estimates[p].back() -
                                             kfm::test::estimate(plain, point_row(points, 2 * p, d), point_row(points, 2 * p + 1, d)));
            }
            kfm::offline::kernel_spec spec;
            spec.kind = kfm::format::kernel::arccos;
            spec.order = order;
            for (unsigned p = 0; p < pairs; ++p) {
                CAPTURE(p);
                const auto x = point_row(points, 2 * p, d), y = point_row(points, 2 * p + 1, d);
                const double exact = kfm::test::exact(spec, x, y);
                const auto ci = kfm::test::mean_with_ci(m == method::sorf ? differences[p] : estimates[p], 0.999);
                CAPTURE(exact);
                CAPTURE(ci.mean);
                CAPTURE(ci.half_width);
                CHECK(ci.contains(m == method::sorf ? 0.0 : exact));
                // Power: a weight off by the factor 2 between the two forms would leave the interval.
                const double scale = std::sqrt(kfm::test::exact(spec, x, x) * kfm::test::exact(spec, y, y));
                CHECK(ci.half_width < 0.05 * scale);
            }
        }
}

TEST_CASE("reflected pairs have a lower Gram error than plain features at the same D (rff, arccos 0 and 1)") {
    const unsigned d = 16, D = 64, n = 60, seeds = 40;
    const auto x = kfm::test::random_points(n, d, 11, 1.0);
    const auto y = kfm::test::random_points(n, d, 12, 1.0);
    for (unsigned order : {0u, 1u}) {
        CAPTURE(order);
        double plain = 0.0, reflected = 0.0;
        for (unsigned s = 0; s < seeds; ++s) {
            const auto mp = kfm::test::map_from_options(arccos_options(method::rff, order, d, D, 300 + s, "plain"));
            const auto mr = kfm::test::map_from_options(arccos_options(method::rff, order, d, D, 300 + s));
            REQUIRE(mp.output_dim() == mr.output_dim());
            plain += kfm::test::gram_error(mp, x, n, y, n).rel_frobenius;
            reflected += kfm::test::gram_error(mr, x, n, y, n).rel_frobenius;
        }
        CAPTURE(plain / seeds);
        CAPTURE(reflected / seeds);
        // Measured 0.74 (order 0) and 0.92 (order 1) on these points; real data gains more (docs/results.md).
        CHECK(reflected < (order == 0 ? 0.85 : 0.97) * plain);
    }
}
