// The Monte Carlo rate check (see error_rate_checks.hpp).
#include "common/error_rate_checks.hpp"

#include <doctest/doctest.h>

namespace kfm::test {

void check_error_falls_like_inverse_sqrt_features(
    const std::string& label, unsigned d, const std::vector<unsigned>& sizes,
    const std::function<opened_map(unsigned D, std::uint64_t seed)>& make_map) {
    const unsigned n = 40, seeds = 10;
    constexpr std::uint64_t first_seed = 50;
    const auto x = random_points(n, d, 7, 1.0);
    const auto y = random_points(n, d, 8, 1.0);
    const error_trend trend = error_against_features(
        sizes, seeds, [&](unsigned D, unsigned s) { return make_map(D, first_seed + s); }, x, y, n);
    MESSAGE(label << ": error " << trend.mean_errors.front() << " at D = " << sizes.front() << ", "
                  << trend.mean_errors.back() << " at D = " << sizes.back() << ", log-log slope " << trend.slope);
    INFO(label);  // names the case in a failed check (after the message, which names it already)
    CHECK(trend.slope > -0.62);
    CHECK(trend.slope < -0.38);
}

}  // namespace kfm::test
