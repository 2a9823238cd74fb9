// Kernel-approximation evaluation of an opened map against the exact kernel it records: Gram helpers
// and the papers' protocol (two independent samples X, Y per run, relative Frobenius and relative max
// error of K^(X,Y) vs K(X,Y), mean and 95% interval over runs). Used by `kfm eval`, the Python package's
// exact Gram matrices and the tests. Errors are std::invalid_argument (bad sizes or kernel parameters)
// and std::runtime_error (rows the runtime refuses), as each function says.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"

namespace kfm::offline {

// The kernel a map approximates, read from its META record and kernel_params section;
// std::invalid_argument for a kernel this library cannot evaluate exactly.
kernel_spec kernel_spec_from_map(const kfm::map& map);

// Whether the map scales its inputs to unit norm before mapping (the exact kernel must see the same).
bool map_normalizes_input(const kfm::map& map);

// Row-major exact Gram matrix: K[i * ny + j] = k(x_i, y_j); x is nx x d, y is ny x d (row-major).
// With normalize = true, nonzero rows are scaled to unit norm first (as the runtime does).
// std::invalid_argument for kernel parameters out of range (exact_kernel's).
std::vector<double> exact_gram(const kernel_spec& kernel, const float* x, std::size_t nx, const float* y,
                               std::size_t ny, unsigned d, bool normalize = false);

// phi of every row (n x output_dim, row-major) through kfm::transform_batch on every core
// (map_rows_parallel); std::runtime_error with the status text when the runtime refuses (wrong dimension,
// non-finite input).
std::vector<float> map_rows(const kfm::map& map, const float* x, std::size_t n, unsigned d);

// Row-major estimated Gram matrix K^[i * ny + j] = kernel_estimate(phi(x_i), phi(y_j)); throws as map_rows.
std::vector<double> approx_gram(const kfm::map& map, const float* x, std::size_t nx, const float* y,
                                std::size_t ny, unsigned d);

// Relative errors of an estimate: ||K - K^||_F / ||K||_F and max|K - K^| / max|K|; std::invalid_argument
// for empty or differently sized matrices or an exact matrix of zeros.
struct gram_errors {
    double rel_frobenius = 0.0;
    double rel_max = 0.0;
};
gram_errors compare_grams(const std::vector<double>& exact, const std::vector<double>& approx);

// Mean of a sample and its two-sided 95% Student-t interval. With one value the interval is the point;
// std::invalid_argument for no values.
struct interval {
    double mean = 0.0;
    double low = 0.0;
    double high = 0.0;
};
interval mean_interval(const std::vector<double>& values);

// Quantile of Student's t distribution with `dof` degrees of freedom (probability in (0, 1)). Exposed so
// that test helpers get interval widths without depending on Boost themselves. std::invalid_argument
// unless 0 < probability < 1 and dof > 0.
double student_t_quantile(double probability, double dof);

struct evaluation {
    unsigned samples = 0;
    unsigned runs = 0;
    interval rel_frobenius;
    interval rel_max;
    std::vector<double> rel_frobenius_runs;  // one value per run
    std::vector<double> rel_max_runs;
};

// Per run r (seeded by derive(seed, r)): X and Y are two independent samples of `samples` distinct rows
// of `data` (rows x d, row-major; a row may appear in both X and Y); errors of K^(X,Y) vs K(X,Y). For a
// model with an input scaling (PREP from kfm fit --standardize / --minmax), K is the kernel of the scaled
// rows the map sees.
// std::invalid_argument when d differs from the map's input_dim, samples is 0 or exceeds rows, or
// runs is 0.
evaluation evaluate(const kfm::map& map, const float* data, std::size_t rows, unsigned d,
                    unsigned samples, unsigned runs, std::uint64_t seed);

}  // namespace kfm::offline
