// Landmark selection for Nystroem (see the header).
#include "offline/methods/nystroem/landmarks.hpp"

#include <algorithm>
#include <numeric>

namespace kfm::offline {
namespace {

double squared_distance(const float* a, const float* b, std::size_t d) {
    double s = 0.0;
    for (std::size_t i = 0; i < d; ++i) {
        const double t = double(a[i]) - double(b[i]);
        s += t * t;
    }
    return s;
}

}  // namespace

std::vector<std::size_t> uniform_landmarks(std::size_t n, std::size_t m, rng& r) {
    std::vector<std::size_t> rows(n);
    std::iota(rows.begin(), rows.end(), std::size_t{0});
    for (std::size_t i = 0; i < m; ++i) std::swap(rows[i], rows[i + r.below(n - i)]);
    rows.resize(m);
    return rows;
}

std::vector<std::size_t> kmeanspp_landmarks(const float* x, std::size_t n, std::size_t d, std::size_t m, rng& r) {
    std::vector<std::size_t> chosen;
    std::vector<bool> taken(n, false);
    std::vector<double> nearest(n, 0.0);  // D^2 to the nearest chosen row
    const auto choose = [&](std::size_t row) {
        chosen.push_back(row);
        taken[row] = true;
        for (std::size_t i = 0; i < n; ++i) {
            const double s = taken[i] ? 0.0 : squared_distance(x + i * d, x + row * d, d);
            nearest[i] = chosen.size() == 1 ? s : std::min(nearest[i], s);
        }
    };
    choose(r.below(n));
    while (chosen.size() < m) {
        const double total = std::accumulate(nearest.begin(), nearest.end(), 0.0);
        if (!(total > 0.0)) {  // only copies of chosen rows are left: uniform among the rows not taken
            std::size_t k = r.below(n - chosen.size());
            std::size_t row = 0;
            for (; taken[row] || k-- > 0; ++row) {}
            choose(row);
            continue;
        }
        // The first row whose running sum passes u (rows of weight 0 can never be the one).
        const double u = r.uniform() * total;
        double running = 0.0;
        std::size_t row = n;
        for (std::size_t i = 0; i < n; ++i) {
            if (nearest[i] == 0.0) continue;
            running += nearest[i];
            row = i;
            if (running > u) break;
        }
        choose(row);
    }
    return chosen;
}

}  // namespace kfm::offline
