#include "kfm/offline/bandwidth.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace kfm::offline {

double median_heuristic_sigma(const float* x, std::size_t n, std::size_t d, std::size_t max_rows) {
    if (n < 2) throw std::invalid_argument("the median heuristic needs at least two rows");
    const std::size_t m = std::min(n, std::max<std::size_t>(max_rows, 2));
    std::vector<std::size_t> rows(m);
    for (std::size_t i = 0; i < m; ++i) rows[i] = i * n / m;
    std::vector<double> distances;
    distances.reserve(m * (m - 1) / 2);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = i + 1; j < m; ++j) {
            double s = 0.0;
            for (std::size_t c = 0; c < d; ++c) {
                const double t = double(x[rows[i] * d + c]) - double(x[rows[j] * d + c]);
                s += t * t;
            }
            distances.push_back(std::sqrt(s));
        }
    // Lower median: a value that occurs, so equal data give equal sigma on every platform.
    const auto mid = distances.begin() + std::ptrdiff_t((distances.size() - 1) / 2);
    std::nth_element(distances.begin(), mid, distances.end());
    if (!(*mid > 0.0)) throw std::invalid_argument("the median distance between rows is 0 (repeated rows?)");
    return *mid;
}

double variance_scale_sigma(const float* x, std::size_t n, std::size_t d) {
    if (n == 0 || d == 0) throw std::invalid_argument("gamma='scale' needs at least one value");
    const std::size_t count = n * d;
    double mean = 0.0;
    for (std::size_t i = 0; i < count; ++i) mean += x[i];
    mean /= double(count);
    double ss = 0.0;
    for (std::size_t i = 0; i < count; ++i) ss += (x[i] - mean) * (x[i] - mean);
    const double variance = ss / double(count);
    const double gamma = variance > 0.0 ? 1.0 / (double(d) * variance) : 1.0;
    return std::sqrt(1.0 / (2.0 * gamma));
}

}  // namespace kfm::offline
