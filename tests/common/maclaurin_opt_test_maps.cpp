// maclaurin-opt maps for the statistical tests (see maclaurin_opt_test_maps.hpp).
#include "common/maclaurin_opt_test_maps.hpp"

#include <doctest/doctest.h>

#include "common/test_maps.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::test {

void set_normal_data(offline::build_options& options, std::size_t rows, std::uint64_t seed, normal_columns columns) {
    options.data_rows = rows;
    options.data.clear();
    offline::rng r(seed);
    for (std::size_t i = 0; i < rows; ++i)
        for (unsigned c = 0; c < options.input_dim; ++c)
            options.data.push_back(float(columns.offset + columns.slope * c + columns.spread * r.normal()));
}

std::vector<mean_ci> same_allocation_mean_estimates(offline::build_options options,
                                                    const offline::map_contents& reference, const point_pairs& pairs,
                                                    std::uint64_t first_seed, std::uint64_t seeds, double confidence) {
    const std::vector<std::uint32_t> allocation = sketched_features_per_degree(reference);
    return mean_estimates_over_seeds(pairs, first_seed, seeds, confidence, [&](std::uint64_t seed) {
        options.seed = seed;
        const offline::map_contents contents = offline::build_map(options);
        REQUIRE(sketched_features_per_degree(contents) == allocation);  // the allocation does not depend on the seed
        return map_from_contents(contents);
    });
}

}  // namespace kfm::test
