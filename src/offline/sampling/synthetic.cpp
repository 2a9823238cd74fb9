// Synthetic data sets (kfm/offline/synthetic.hpp), drawn with the project's own generator.
#include "kfm/offline/synthetic.hpp"

#include "offline/sampling/random.hpp"

namespace kfm::offline {

std::vector<float> synthetic_rows(std::size_t rows, std::size_t dim, std::uint64_t seed) {
    constexpr unsigned clusters = 10;
    rng centre_rng(derive(seed, 0));
    std::vector<double> centre(std::size_t(clusters) * dim), spread(clusters);
    for (double& c : centre) c = 1.2 * centre_rng.uniform() - 0.6;
    for (double& s : spread) s = 0.1 + 0.2 * centre_rng.uniform();

    rng point_rng(derive(seed, 1));
    std::vector<float> x(rows * dim);
    for (std::size_t i = 0; i < rows; ++i) {
        const std::size_t k = point_rng.below(clusters);
        for (std::size_t j = 0; j < dim; ++j)
            x[i * dim + j] = float(centre[k * dim + j] + spread[k] * point_rng.normal());
    }
    return x;
}

std::vector<std::int64_t> synthetic_labels(const float* x, std::size_t rows, std::size_t dim) {
    std::vector<std::int64_t> labels(rows);
    const std::size_t considered = dim < 3 ? dim : 3;
    for (std::size_t i = 0; i < rows; ++i) {
        std::size_t best = 0;
        for (std::size_t j = 1; j < considered; ++j)
            if (x[i * dim + j] > x[i * dim + best]) best = j;
        labels[i] = std::int64_t(best);
    }
    return labels;
}

std::vector<float> uniform_values(std::size_t count, std::uint64_t seed) {
    rng r(seed);
    std::vector<float> values(count);
    for (float& value : values) value = float(2 * r.uniform() - 1);
    return values;
}

}  // namespace kfm::offline
