// evaluate(): kernel read back from a map, Gram error arithmetic, intervals, sampling without
// replacement, determinism and input validation.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/stats_util.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/evaluate.hpp"

using kfm::format::kernel;
using kfm::format::method;

namespace {

kfm::offline::build_options rff_options(unsigned d, unsigned D, std::uint64_t seed) {
    kfm::offline::build_options o;
    o.method = method::rff;
    o.kernel.kind = kernel::gaussian;
    o.kernel.sigma = 1.2;
    o.input_dim = d;
    o.features = D;
    o.seed = seed;
    return o;
}

}  // namespace

TEST_CASE("compare_grams and mean_interval: hand values") {
    const auto e = kfm::offline::compare_grams({1.0, 2.0, -2.0, 0.0}, {1.0, 1.0, -2.0, 1.0});
    CHECK(e.rel_frobenius == doctest::Approx(std::sqrt(2.0 / 9.0)));
    CHECK(e.rel_max == doctest::Approx(0.5));
    CHECK_THROWS_AS(kfm::offline::compare_grams({1.0}, {1.0, 2.0}), std::invalid_argument);
    CHECK_THROWS_AS(kfm::offline::compare_grams({0.0}, {1.0}), std::invalid_argument);

    // {1, 2, 3}: mean 2, sd 1, t(0.975; 2) = 4.302653: half-width 4.302653 / sqrt 3.
    const auto i = kfm::offline::mean_interval({1.0, 2.0, 3.0});
    CHECK(i.mean == doctest::Approx(2.0));
    CHECK(i.high - i.mean == doctest::Approx(4.302653 / std::sqrt(3.0)).epsilon(1e-6));
    CHECK(i.mean - i.low == doctest::Approx(4.302653 / std::sqrt(3.0)).epsilon(1e-6));
    const auto one = kfm::offline::mean_interval({0.25});
    CHECK(one.low == 0.25);
    CHECK(one.high == 0.25);
    CHECK_THROWS_AS(kfm::offline::mean_interval({}), std::invalid_argument);
    CHECK(kfm::offline::student_t_quantile(0.975, 1e6) == doctest::Approx(1.959964).epsilon(1e-5));
}

TEST_CASE("exact_gram normalises rows only when asked, keeping zero rows at zero") {
    kfm::offline::kernel_spec k;
    k.kind = kernel::gaussian;
    k.sigma = 1.0;
    const std::vector<float> x = {3, 4, 0, 0}, y = {0, 2};
    const auto raw = kfm::offline::exact_gram(k, x.data(), 2, y.data(), 1, 2, false);
    const auto unit = kfm::offline::exact_gram(k, x.data(), 2, y.data(), 1, 2, true);
    CHECK(raw[0] == doctest::Approx(std::exp(-(9.0 + 4.0) / 2)));
    CHECK(unit[0] == doctest::Approx(std::exp(-(0.36 + 0.04) / 2)));  // (0.6, 0.8) vs (0, 1)
    CHECK(raw[1] == doctest::Approx(std::exp(-2.0)));
    CHECK(unit[1] == doctest::Approx(std::exp(-0.5)));  // the zero row stays zero
}

TEST_CASE("samples == rows uses every row once: the error equals the full-data Gram error") {
    const unsigned d = 5, rows = 30;
    const auto data = kfm::test::random_points(rows, d, 4, 1.0);
    auto map = kfm::test::map_from_options(rff_options(d, 40, 9));
    const auto full = kfm::test::gram_error(map, data, rows, data, rows);
    // Relative Frobenius and max errors are invariant under permuting rows and columns.
    const auto ev = kfm::offline::evaluate(map.view(), data.data(), rows, d, rows, 3, 17);
    for (unsigned r = 0; r < 3; ++r) {
        CHECK(ev.rel_frobenius_runs[r] == doctest::Approx(full.rel_frobenius).epsilon(1e-12));
        CHECK(ev.rel_max_runs[r] == doctest::Approx(full.rel_max).epsilon(1e-12));
    }
}

TEST_CASE("evaluate is deterministic in its seed, varies with it, and improves with D") {
    const unsigned d = 4, rows = 200;
    const auto data = kfm::test::random_points(rows, d, 5, 1.0);
    auto small = kfm::test::map_from_options(rff_options(d, 16, 1));
    auto large = kfm::test::map_from_options(rff_options(d, 4096, 1));
    const auto a = kfm::offline::evaluate(small.view(), data.data(), rows, d, 50, 5, 3);
    const auto b = kfm::offline::evaluate(small.view(), data.data(), rows, d, 50, 5, 3);
    const auto c = kfm::offline::evaluate(small.view(), data.data(), rows, d, 50, 5, 4);
    CHECK(a.rel_frobenius_runs == b.rel_frobenius_runs);
    CHECK(a.rel_frobenius_runs != c.rel_frobenius_runs);
    CHECK(a.samples == 50);
    CHECK(a.runs == 5);
    CHECK(a.rel_frobenius.low <= a.rel_frobenius.mean);
    CHECK(a.rel_frobenius.mean <= a.rel_frobenius.high);
    const auto l = kfm::offline::evaluate(large.view(), data.data(), rows, d, 50, 5, 3);
    // 256 times more features: about 16 times less error; demand at least 5.
    CHECK(l.rel_frobenius.mean * 5 < a.rel_frobenius.mean);
    CHECK(l.rel_max.mean * 5 < a.rel_max.mean);
}

TEST_CASE("evaluate rejects inconsistent requests") {
    const unsigned d = 4;
    const auto data = kfm::test::random_points(10, d, 5, 1.0);
    auto map = kfm::test::map_from_options(rff_options(d, 8, 1));
    CHECK_THROWS_AS(kfm::offline::evaluate(map.view(), data.data(), 10, d + 1, 5, 1, 1), std::invalid_argument);
    CHECK_THROWS_AS(kfm::offline::evaluate(map.view(), data.data(), 10, d, 11, 1, 1), std::invalid_argument);
    CHECK_THROWS_AS(kfm::offline::evaluate(map.view(), data.data(), 10, d, 0, 1, 1), std::invalid_argument);
    CHECK_THROWS_AS(kfm::offline::evaluate(map.view(), data.data(), 10, d, 5, 0, 1), std::invalid_argument);
    auto bad = data;
    bad[7] = std::nanf("");
    CHECK_THROWS_AS(kfm::offline::evaluate(map.view(), bad.data(), 10, d, 10, 1, 1), std::runtime_error);
}

TEST_CASE("kernel_spec_from_map reads every kernel's parameters back") {
    auto g = kfm::test::map_from_options(rff_options(3, 8, 1));
    const auto gs = kfm::offline::kernel_spec_from_map(g.view());
    CHECK(gs.kind == kernel::gaussian);
    CHECK(gs.sigma == 1.2);
    // Signed (delta-gaussian) and sphere kernels come from other builders; check them when present.
    kfm::offline::build_options o = rff_options(3, 16, 1);
    o.method = method::grff;
    o.kernel.kind = kernel::delta_gaussian;
    o.kernel.weights = {1.0, -1.0};
    o.kernel.sigmas = {1.0, 10.0};
    try {
        auto m = kfm::test::map_from_options(o);
        const auto s = kfm::offline::kernel_spec_from_map(m.view());
        CHECK(s.kind == kernel::delta_gaussian);
        CHECK(s.weights == o.kernel.weights);
        CHECK(s.sigmas == o.kernel.sigmas);
    } catch (const std::invalid_argument& e) {
        MESSAGE("grff/delta-gaussian not available: " << e.what());
    }
}
