// How Nystroem picks its m landmarks among the n rows of a data set (x: n x d floats, row-major).
// Both return m distinct row indices in the order drawn, deterministic in the generator's state.
#pragma once
#include <cstddef>
#include <vector>

#include "offline/sampling/random.hpp"

namespace kfm::offline {

// m rows uniformly without replacement (a partial Fisher-Yates shuffle). 1 <= m <= n.
std::vector<std::size_t> uniform_landmarks(std::size_t n, std::size_t m, rng& r);

// k-means++ seeding (Arthur and Vassilvitskii 2007): the first row uniform, each next one drawn with
// probability proportional to its squared distance D^2 to the nearest row already chosen. One candidate
// per draw: scikit-learn's kmeans_plusplus also keeps the best of 2 + log k candidates by default. Rows
// already chosen have D^2 = 0 and are never drawn again; when every row left has D^2 = 0 (only copies of
// chosen rows remain), the next one is uniform among the rows not yet chosen. 1 <= m <= n.
std::vector<std::size_t> kmeanspp_landmarks(const float* x, std::size_t n, std::size_t d, std::size_t m, rng& r);

}  // namespace kfm::offline
