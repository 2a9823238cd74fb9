// Data-driven Gaussian bandwidths sigma (k(x, y) = exp(-|x-y|^2 / (2 sigma^2))) for `kfm build --sigma
// median|scale --data X.npy` and the Python estimators' gamma='median' / gamma='scale'.
#pragma once
#include <cstddef>

namespace kfm::offline {

// The median heuristic: the median Euclidean distance between distinct rows of x (n x d, row-major),
// over at most `max_rows` rows taken at evenly spaced positions (deterministic). Throws
// std::invalid_argument when fewer than two rows are given or every sampled distance is 0.
double median_heuristic_sigma(const float* x, std::size_t n, std::size_t d, std::size_t max_rows = 1000);

// scikit-learn's gamma='scale', 1 / (d * Var(x)) over all entries, as sigma = sqrt(d Var(x) / 2);
// like scikit-learn, gamma = 1 (sigma = sqrt(1/2)) when the variance is 0. Throws std::invalid_argument
// for n = 0 or d = 0.
double variance_scale_sigma(const float* x, std::size_t n, std::size_t d);

}  // namespace kfm::offline
