// maclaurin-opt for the polynomial-sphere kernel through the real file path. On unit-normalised inputs
// the kernel is the finite series sum_{k <= p} c_k (x^.y^)^k (degree_allocation.hpp): with every degree
// 2..p kept, the mean estimate over independent maps is the kernel itself (checked against the exact
// kernel of stats_util, computed from (1 - |x^ - y^|^2 / a^2)^p, not from the series); with degree p
// dropped it is the truncated series, and it misses the kernel by the dropped term.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "common/maclaurin_opt_test_maps.hpp"
#include "common/pair_estimates.hpp"
#include "common/stats_util.hpp"
#include "common/test_maps.hpp"
#include "kfm/offline.hpp"
#include "offline/methods/maclaurin_opt/degree_allocation.hpp"

using namespace kfm;
using namespace kfm::test;
namespace fmt = kfm::format;

namespace {

constexpr unsigned d = 5;  // padded to d2 = 8

// 80 rows around an offset (so x^.y^ spreads over about [0.2, 1]).
offline::build_options options_with_data(unsigned features, unsigned p, double a) {
    offline::build_options o;
    o.method = fmt::method::maclaurin_opt;
    o.kernel.kind = fmt::kernel::polynomial_sphere;
    o.kernel.degree = p;
    o.kernel.scale = a;
    o.input_dim = d;
    o.features = features;
    set_normal_data(o, 80, 91, {-0.6, 0.4, 1.0});
    return o;
}

// sum_{k <= largest} c_k z^k, z = x^.y^.
double truncated(const offline::dot_product_series& series, const std::vector<float>& x, const std::vector<float>& y,
                 unsigned largest) {
    double xx = 0.0, yy = 0.0, xy = 0.0;
    for (unsigned i = 0; i < d; ++i) xx += double(x[i]) * x[i], yy += double(y[i]) * y[i], xy += double(x[i]) * y[i];
    const double z = xy / std::sqrt(xx * yy);
    double sum = 0.0;
    for (unsigned k = 0; k <= largest; ++k) sum += series.coefficients[k] * std::pow(z, double(k));
    return sum;
}

struct case_spec {
    unsigned features, p;
    double a;
    bool all_kept;  // the allocation keeps every degree 2..p
};

}  // namespace

TEST_CASE("maclaurin-opt polynomial-sphere: unbiased with every degree kept, the truncated series otherwise") {
    constexpr unsigned seeds = 4000;  // maps 5000, ..., 8999
    // p = 3 with a = 2 (c_k = binom(3, k) / 8): every degree kept at D = 256, degree 3 dropped at D = 64
    // (the dropped term z^3 / 8 is large enough to see); p = 2 keeps its one sketched degree at any D.
    for (const case_spec& c : {case_spec{256, 3, 2.0, true}, case_spec{24, 2, 4.0, true}, case_spec{64, 3, 2.0, false}}) {
        const offline::build_options o = options_with_data(c.features, c.p, c.a);
        const offline::map_contents reference = offline::build_map(o);
        const unsigned largest = largest_sketched_degree(reference);
        CAPTURE(c.features);
        CAPTURE(c.p);
        CAPTURE(largest);
        REQUIRE((largest == c.p) == c.all_kept);
        REQUIRE(largest >= 2);
        const offline::dot_product_series series = offline::polynomial_sphere_series(c.p, c.a);
        // Two pairs of data rows, a row with itself, and a pair of points off the data (other norms).
        point_pairs pairs = pairs_of_rows(o.data, d, {{0, 1}, {2, 3}, {5, 5}});
        pairs.xs.push_back(test_vector(d, 3));
        pairs.ys.push_back(test_vector(d, 4));
        const std::vector<mean_ci> means = same_allocation_mean_estimates(o, reference, pairs, 5000, seeds, 0.999);
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const double kernel = exact(o.kernel, pairs.xs[i], pairs.ys[i]);
            const double expected = truncated(series, pairs.xs[i], pairs.ys[i], largest);
            const mean_ci& ci = means[i];
            CAPTURE(i);
            CAPTURE(ci.mean);
            CAPTURE(ci.half_width);
            CAPTURE(expected);
            CAPTURE(kernel);
            CHECK(ci.contains(expected));
            if (c.all_kept) {
                CHECK(expected == doctest::Approx(kernel).epsilon(1e-12));  // the series is the kernel
                CHECK(ci.contains(kernel));
            } else if (i == 2) {  // a row with itself, z = 1: the dropped term is c_3 = 1/8
                CHECK(kernel - expected == doctest::Approx(series.coefficients[3]));
                CHECK(std::fabs(ci.mean - kernel) > 2.0 * ci.half_width);
            }
        }
    }
}
