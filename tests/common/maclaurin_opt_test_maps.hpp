// maclaurin-opt maps for the statistical tests: options that carry a data set (the degree allocation reads
// it), and the mean estimates over many seeds of maps that keep one allocation.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/pair_estimates.hpp"
#include "common/stats_util.hpp"
#include "kfm/offline.hpp"

namespace kfm::test {

// Column c of a data row: offset + slope * c + spread * N(0, 1).
struct normal_columns {
    double offset = 0.0, slope = 0.0, spread = 1.0;
};

// Sets `options`' data to `rows` rows of input_dim columns drawn as `columns` says, the normals drawn row by
// row from rng(seed).
void set_normal_data(offline::build_options& options, std::size_t rows, std::uint64_t seed, normal_columns columns);

// Each pair's mean estimate by the maps `options` with seeds first_seed .. first_seed + seeds - 1, with a
// Student-t interval at `confidence`. The allocation reads only the data, so every map must sketch the same
// features per degree as `reference` (a failed REQUIRE otherwise), and the mean is the kernel's series
// truncated at reference's largest degree.
std::vector<mean_ci> same_allocation_mean_estimates(offline::build_options options,
                                                    const offline::map_contents& reference, const point_pairs& pairs,
                                                    std::uint64_t first_seed, std::uint64_t seeds, double confidence);

}  // namespace kfm::test
