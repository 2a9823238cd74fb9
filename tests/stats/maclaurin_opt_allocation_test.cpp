// maclaurin-opt's degree allocation (src/offline/methods/maclaurin_opt/degree_allocation.hpp): it spends the
// whole budget with at least one feature per kept degree, its estimate is no larger than the simple
// alternatives', and the estimate predicts the Gram error the built maps really have (mean squared relative
// Frobenius error over map seeds, on the rows the allocation read).
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
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

constexpr unsigned d = 6;  // padded to d2 = 8

// 120 rows with a spread that makes x'.y' reach about 2 at sigma 1 (so degree 3 can pay).
offline::build_options options(unsigned features) {
    offline::build_options o;
    o.method = fmt::method::maclaurin_opt;
    o.input_dim = d;
    o.features = features;
    o.kernel.sigma = 1.0;
    o.data_rows = 120;
    offline::rng r(3);
    for (std::size_t i = 0; i < o.data_rows * d; ++i) o.data.push_back(float(2.0 + 0.55 * r.normal()));
    return o;
}

// x' of every row, from the built map's PREP (as the runtime computes it).
std::vector<double> centred_rows(const offline::build_options& o, const offline::map_contents& map) {
    const auto prep = section_values<float>(map, fmt::tag::preprocess);
    std::vector<double> out;
    for (std::size_t r = 0; r < o.data_rows; ++r)
        for (unsigned i = 0; i < d; ++i) out.push_back(double((o.data[r * d + i] - prep[i]) * prep[d + i]));
    return out;
}

}  // namespace

TEST_CASE("maclaurin-opt allocation: the whole budget, every kept degree fed, no worse than the simple splits") {
    const offline::build_options o = options(40);
    const std::vector<double> rows = centred_rows(o, offline::build_map(o));
    for (std::uint32_t budget : {1u, 7u, 31u, 200u}) {
        const offline::degree_allocation a = offline::allocate_degrees(rows, d, budget, 8);
        CAPTURE(budget);
        REQUIRE(!a.features.empty());
        CHECK(std::accumulate(a.features.begin(), a.features.end(), 0u) == budget);
        for (std::uint32_t f : a.features) CHECK(f >= 1);
        CHECK(a.estimated_error == doctest::Approx(offline::estimated_gram_error(rows, d, a.features)));
        // Everything on degree 2, and an even split over the same degrees.
        CHECK(a.estimated_error <= offline::estimated_gram_error(rows, d, {budget}) * (1 + 1e-12));
        std::vector<std::uint32_t> even(a.features.size(), budget / std::uint32_t(a.features.size()));
        even[0] += budget % std::uint32_t(a.features.size());
        if (even.back() >= 1) CHECK(a.estimated_error <= offline::estimated_gram_error(rows, d, even) * (1 + 1e-12));
    }
    // A larger budget keeps at least as many degrees, and no budget leaves nothing to allocate.
    CHECK(offline::allocate_degrees(rows, d, 200, 8).largest_degree() >= offline::allocate_degrees(rows, d, 7, 8).largest_degree());
    CHECK(offline::allocate_degrees(rows, d, 0, 8).features.empty());
    CHECK(offline::allocate_degrees(rows, d, 50, 2).largest_degree() == 2);
}

TEST_CASE("maclaurin-opt allocation: the estimate predicts the built maps' mean squared Gram error") {
    for (unsigned features : {24u, 64u}) {
        offline::build_options o = options(features);
        const offline::map_contents first = offline::build_map(o);
        const std::vector<double> rows = centred_rows(o, first);
        // The features per degree: the block product passes' counts, summed per degree proj_count / block_size.
        std::vector<std::uint32_t> allocation;
        for (const fmt::feature_segment& s : section_values<fmt::feature_segment>(first, fmt::tag::segments))
            if ((s.flags & fmt::segment_flag_block_product) != 0) {
                const std::uint32_t degree = s.proj_count / first.meta.block_size;
                if (allocation.size() < degree - 1) allocation.resize(degree - 1, 0);
                allocation[degree - 2] += s.arg_count;
            }
        REQUIRE(!allocation.empty());
        const double estimate = offline::estimated_gram_error(rows, d, allocation);
        double measured = 0.0;
        constexpr unsigned seeds = 200;
        for (unsigned s = 0; s < seeds; ++s) {
            o.seed = 100 + s;
            const opened_map map = map_from_options(o);
            const auto e = gram_error(map, o.data, o.data_rows, o.data, o.data_rows);
            measured += e.rel_frobenius * e.rel_frobenius / seeds;
        }
        MESSAGE("D " << features << ", degrees 2.." << allocation.size() + 1 << ": estimate " << estimate << ", measured "
                     << measured);
        // The estimate leaves out the correlations between features (the rows of one pass's blocks): within
        // a factor of 2 of the measured error.
        CHECK(measured > 0.5 * estimate);
        CHECK(measured < 2.0 * estimate);
    }
}
