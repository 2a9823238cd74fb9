// Kernel estimates at several point pairs over a range of map seeds, for the unbiasedness tests: each map
// is built once and evaluated at every pair (a map depends only on its seed, so a pair's estimates are
// the same as if it were tested alone).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "common/stats_util.hpp"

namespace kfm::test {

// Pair i is (xs[i], ys[i]).
struct point_pairs {
    std::vector<std::vector<float>> xs, ys;
    std::size_t size() const { return xs.size(); }
};

// The pairs (row a, row b) of n x d row-major points, one per entry of `rows` (a == b pairs a row with itself).
point_pairs pairs_of_rows(const std::vector<float>& points, unsigned d,
                          const std::vector<std::pair<unsigned, unsigned>>& rows);

// estimates[i][s]: pair i's kernel_estimate by the map make_map(first_seed + s), s = 0 .. seeds - 1.
std::vector<std::vector<double>> estimates_over_seeds(const point_pairs& pairs, std::uint64_t first_seed,
                                                      std::uint64_t seeds,
                                                      const std::function<opened_map(std::uint64_t seed)>& make_map);

// Each pair's mean estimate over those maps, with a two-sided Student-t interval at `confidence`.
std::vector<mean_ci> mean_estimates_over_seeds(const point_pairs& pairs, std::uint64_t first_seed,
                                               std::uint64_t seeds, double confidence,
                                               const std::function<opened_map(std::uint64_t seed)>& make_map);

}  // namespace kfm::test
