// maclaurin-opt through the real file path. For a fixed allocation (the data set is the same for every
// seed, and the allocation reads only the data), each sketched feature's product is unbiased for
// (x'.y')^k, so the mean estimate over independent maps is the truncated kernel
//   p(x) p(y) sum_{k <= K} (x'.y')^k / k!,   x' = (x - mean) / sigma, p(x) = exp(-|x'|^2 / 2),
// K the largest degree kept, and it misses the gaussian by p(x) p(y) sum_{k > K} (x'.y')^k / k! (the dropped
// degrees' bias, docs/methods.md). The allocation's estimate is checked against the Gram error it predicts.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "common/stats_util.hpp"
#include "common/test_maps.hpp"
#include "kfm/offline.hpp"
#include "offline/methods/maclaurin_opt/degree_allocation.hpp"
#include "offline/sampling/random.hpp"

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
    o.data_rows = 80;
    offline::rng r(77);
    for (std::size_t i = 0; i < o.data_rows; ++i)
        for (unsigned c = 0; c < d; ++c) o.data.push_back(float(0.5 * c + 1.1 * r.normal()));
    return o;
}

// x' as the map computes it, from the map's own PREP values.
std::vector<double> centred(const offline::map_contents& map, const std::vector<float>& x) {
    const auto prep = section_values<float>(map, fmt::tag::preprocess);
    std::vector<double> out(d);
    for (unsigned i = 0; i < d; ++i) out[i] = double((x[i] - prep[i]) * prep[d + i]);
    return out;
}

// The largest degree the map keeps: its block product segments' factor counts, proj_count / block_size.
unsigned largest_degree(const offline::map_contents& map) {
    unsigned largest = 1;
    for (const fmt::feature_segment& s : section_values<fmt::feature_segment>(map, fmt::tag::segments))
        if ((s.flags & fmt::segment_flag_block_product) != 0) largest = std::max(largest, s.proj_count / map.meta.block_size);
    return largest;
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

std::vector<float> row(const offline::build_options& o, std::size_t i) {
    return {o.data.begin() + i * d, o.data.begin() + (i + 1) * d};
}

}  // namespace

TEST_CASE("maclaurin-opt: the mean estimate over maps is the truncated kernel, and the dropped degrees' bias is measurable") {
    constexpr unsigned seeds = 6000;  // maps 4000, ..., 9999
    for (unsigned features : {20u, 48u}) {
        offline::build_options o = options_with_data(features);
        const offline::map_contents reference = offline::build_map(o);
        const unsigned largest = largest_degree(reference);
        CAPTURE(features);
        CAPTURE(largest);
        REQUIRE(largest >= 2);
        // Two pairs of data rows, and a row with itself far from the mean (x'.x' about 3: a visible bias).
        std::vector<std::vector<float>> xs{row(o, 0), row(o, 2), row(o, 5)}, ys{row(o, 1), row(o, 3), row(o, 5)};
        for (float& v : xs[2]) v *= 1.6f;
        ys[2] = xs[2];
        std::vector<std::vector<double>> est(xs.size());
        for (unsigned s = 0; s < seeds; ++s) {
            o.seed = 4000 + s;
            const offline::map_contents contents = offline::build_map(o);
            REQUIRE(largest_degree(contents) == largest);  // the allocation does not depend on the seed
            const opened_map map = map_from_contents(contents);
            for (std::size_t i = 0; i < xs.size(); ++i) est[i].push_back(estimate(map, xs[i], ys[i]));
        }
        for (std::size_t i = 0; i < xs.size(); ++i) {
            const expectations e = expected(reference, xs[i], ys[i], largest);
            const auto ci = mean_with_ci(est[i], 0.999);
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
