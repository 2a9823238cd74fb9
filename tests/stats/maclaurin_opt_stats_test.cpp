// maclaurin-opt through the real file path. For a fixed allocation (the data set is the same for every
// seed, and the allocation reads only the data), each sketched feature's product is unbiased for
// (x'.y')^k, so the mean estimate over independent maps is the truncated kernel
//   p(x) p(y) sum_{k <= K} (x'.y')^k / k!,   x' = (x - mean) / sigma, p(x) = exp(-|x'|^2 / 2),
// K the largest degree kept, and it misses the gaussian by p(x) p(y) sum_{k > K} (x'.y')^k / k! (the dropped
// degrees' bias, docs/methods.md). The allocation's estimate is checked against the Gram error it predicts.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "common/maclaurin_opt_test_maps.hpp"
#include "common/pair_estimates.hpp"
#include "common/stats_util.hpp"
#include "common/test_maps.hpp"
#include "kfm/offline.hpp"

using namespace kfm;
using namespace kfm::test;
namespace fmt = kfm::format;

namespace {

constexpr double sigma = 1.3;
constexpr unsigned d = 5;  // padded to d2 = 8

// 80 rows: a random offset plus spread points, so the mean is not 0 and x'.y' reaches about 2.
offline::build_options options_with_data(unsigned features) {
    offline::build_options o;
    o.method = fmt::method::maclaurin_opt;
    o.input_dim = d;
    o.features = features;
    o.kernel.sigma = sigma;
    set_normal_data(o, 80, 77, {0.0, 0.5, 1.1});
    return o;
}

// x' as the map computes it, from the map's own PREP values.
std::vector<double> centred(const offline::map_contents& map, const std::vector<float>& x) {
    const auto prep = section_values<float>(map, fmt::tag::preprocess);
    std::vector<double> out(d);
    for (unsigned i = 0; i < d; ++i) out[i] = double((x[i] - prep[i]) * prep[d + i]);
    return out;
}

// p(x) p(y) sum_{k <= K} z^k / k! and the gaussian p(x) p(y) exp(z), z = x'.y'.
struct expectations {
    double truncated = 0.0, gaussian = 0.0;
};

expectations expected(const offline::map_contents& map, const std::vector<float>& x, const std::vector<float>& y,
                      unsigned largest) {
    const std::vector<double> a = centred(map, x), b = centred(map, y);
    double z = 0.0, na = 0.0, nb = 0.0;
    for (unsigned i = 0; i < d; ++i) z += a[i] * b[i], na += a[i] * a[i], nb += b[i] * b[i];
    const double p = std::exp(-0.5 * (na + nb));
    double sum = 0.0, term = 1.0;
    for (unsigned k = 0; k <= largest; ++k) sum += term, term *= z / (k + 1);
    return {p * sum, p * std::exp(z)};
}

}  // namespace

TEST_CASE("maclaurin-opt: the mean estimate over maps is the truncated kernel, and the dropped degrees' bias is measurable") {
    constexpr unsigned seeds = 6000;  // maps 4000, ..., 9999
    for (unsigned features : {20u, 48u}) {
        const offline::build_options o = options_with_data(features);
        const offline::map_contents reference = offline::build_map(o);
        const unsigned largest = largest_sketched_degree(reference);
        CAPTURE(features);
        CAPTURE(largest);
        REQUIRE(largest >= 2);
        // Two pairs of data rows, and a row with itself far from the mean (x'.x' about 3: a visible bias).
        point_pairs pairs = pairs_of_rows(o.data, d, {{0, 1}, {2, 3}, {5, 5}});
        for (float& v : pairs.xs[2]) v *= 1.6f;
        pairs.ys[2] = pairs.xs[2];
        const std::vector<mean_ci> means = same_allocation_mean_estimates(o, reference, pairs, 4000, seeds, 0.999);
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const expectations e = expected(reference, pairs.xs[i], pairs.ys[i], largest);
            const mean_ci& ci = means[i];
            CAPTURE(i);
            CAPTURE(ci.mean);
            CAPTURE(ci.half_width);
            CAPTURE(e.truncated);
            CAPTURE(e.gaussian);
            CHECK(ci.contains(e.truncated));
            if (i == 2) CHECK(std::fabs(ci.mean - e.gaussian) > 2.0 * ci.half_width);  // the dropped degrees
        }
    }
}
