// The Monte Carlo rate check several statistical tests share: a map whose features are independent draws
// (or independent blocks of draws) has a relative Frobenius Gram error falling like D^{-1/2}.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/stats_util.hpp"

namespace kfm::test {

// The relative Frobenius Gram error of the maps make_map(D, seed), seeds 50 .. 59, on 40 x 40 points of
// input dimension d (random_points seeds 7 and 8, radius 1), averaged at each D of `sizes`: prints
// "<label>: error .. at D = <first>, .. at D = <last>, log-log slope .." and checks that the slope lies
// within (-0.62, -0.38) around -1/2.
void check_error_falls_like_inverse_sqrt_features(
    const std::string& label, unsigned d, const std::vector<unsigned>& sizes,
    const std::function<opened_map(unsigned D, std::uint64_t seed)>& make_map);

}  // namespace kfm::test
