// Kernel estimates at several point pairs over a range of map seeds (see pair_estimates.hpp).
#include "common/pair_estimates.hpp"

namespace kfm::test {

point_pairs pairs_of_rows(const std::vector<float>& points, unsigned d,
                          const std::vector<std::pair<unsigned, unsigned>>& rows) {
    point_pairs pairs;
    for (const auto& [a, b] : rows) {
        pairs.xs.push_back(point_row(points, a, d));
        pairs.ys.push_back(point_row(points, b, d));
    }
    return pairs;
}

std::vector<std::vector<double>> estimates_over_seeds(const point_pairs& pairs, std::uint64_t first_seed,
                                                      std::uint64_t seeds,
                                                      const std::function<opened_map(std::uint64_t seed)>& make_map) {
    std::vector<std::vector<double>> estimates(pairs.size());
    for (auto& e : estimates) e.reserve(seeds);
    for (std::uint64_t s = 0; s < seeds; ++s) {
        const opened_map map = make_map(first_seed + s);
        for (std::size_t i = 0; i < pairs.size(); ++i) estimates[i].push_back(estimate(map, pairs.xs[i], pairs.ys[i]));
    }
    return estimates;
}

std::vector<mean_ci> mean_estimates_over_seeds(const point_pairs& pairs, std::uint64_t first_seed,
                                               std::uint64_t seeds, double confidence,
                                               const std::function<opened_map(std::uint64_t seed)>& make_map) {
    std::vector<mean_ci> means;
    for (const std::vector<double>& e : estimates_over_seeds(pairs, first_seed, seeds, make_map))
        means.push_back(mean_with_ci(e, confidence));
    return means;
}

}  // namespace kfm::test
