// Shared helpers for statistical tests of feature maps: build a map through the real file path
// (build_map -> serialize -> kfm::open), confidence intervals, log-log slope fits, Gram errors and
// deterministic test inputs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/evaluate.hpp"
#include "runtime/map_state.hpp"

namespace kfm::test {

// A map opened from its serialised bytes; owns the (8-byte aligned) bytes the view points into.
// Movable (the buffer does not move), not copyable.
class opened_map {
public:
    explicit opened_map(const std::vector<std::uint8_t>& file_bytes);
    opened_map(opened_map&&) noexcept = default;
    opened_map& operator=(opened_map&&) noexcept = default;
    opened_map(const opened_map&) = delete;
    opened_map& operator=(const opened_map&) = delete;

    const kfm::map& view() const { return view_; }
    // The verified internals (tests only: src/runtime/map_state.hpp).
    const kfm::detail::map_state& state() const { return *kfm::detail::state_of(view_); }
    std::size_t file_bytes() const { return size_; }
    unsigned input_dim() const { return view_.input_dim(); }
    unsigned output_dim() const { return view_.output_dim(); }

private:
    std::vector<std::uint64_t> storage_;
    std::size_t size_ = 0;
    kfm::map view_{};
};

// build_map + serialize + open; throws std::runtime_error if open rejects the writer's own bytes.
opened_map map_from_options(const kfm::offline::build_options& options);
opened_map map_from_contents(const kfm::offline::map_contents& contents);

// phi(x) for one vector; throws std::runtime_error on a non-ok status.
std::vector<float> transform_one(const opened_map& map, const std::vector<float>& x);
// kernel_estimate(phi(x), phi(y)).
double estimate(const opened_map& map, const std::vector<float>& x, const std::vector<float>& y);

// Mean and half-width of a two-sided 95% Student-t confidence interval for the mean.
struct mean_ci {
    double mean = 0.0;
    double half_width = 0.0;
    double stddev = 0.0;
    bool contains(double value) const { return value >= mean - half_width && value <= mean + half_width; }
};
mean_ci mean_with_ci(const std::vector<double>& values);
// Same, for a chosen two-sided confidence (e.g. 0.999 when many intervals are checked in one test).
mean_ci mean_with_ci(const std::vector<double>& values, double confidence);

// The estimates of k(x, y) by the maps make_map(seed), seed = 1..seeds: their mean with a Student-t interval
// at `confidence`, and the exact kernel the last map records (every map records the same kernel).
struct seed_mean_estimate {
    mean_ci ci;
    double exact = 0.0;
};
seed_mean_estimate mean_estimate_over_seeds(const std::vector<float>& x, const std::vector<float>& y,
                                            std::uint64_t seeds, double confidence,
                                            const std::function<opened_map(std::uint64_t seed)>& make_map);

// Standard error of log(sample sd) by the delta method, sqrt((kurtosis - 1) / (4 n)), with the kurtosis
// from the sample itself (needs at least two values, not all equal).
double log_sd_standard_error(const std::vector<double>& values);

// Least-squares slope of log(y) against log(x) (all values must be positive).
double loglog_slope(const std::vector<double>& x, const std::vector<double>& y);

// Relative Frobenius / max error of the map's Gram matrix on (x, y) against the exact kernel it records
// (inputs normalised like the map does).
kfm::offline::gram_errors gram_error(const opened_map& map, const std::vector<float>& x, std::size_t nx,
                                     const std::vector<float>& y, std::size_t ny);

// The relative Frobenius errors on (x, y) of the maps make_map(seed), seed = first_seed .. first_seed + seeds - 1.
std::vector<double> gram_errors_over_seeds(std::uint64_t first_seed, unsigned seeds,
                                           const std::function<opened_map(std::uint64_t seed)>& make_map,
                                           const std::vector<float>& x, std::size_t nx, const std::vector<float>& y,
                                           std::size_t ny);

// The relative Frobenius error of the maps make_map(D, seed) on (x, y), averaged over `seeds` seeds at
// each D of `sizes`, and the least-squares log-log slope of that mean against D (-1/2 for Monte Carlo).
struct error_trend {
    std::vector<double> mean_errors;  // one per D of sizes
    double slope;
};
error_trend error_against_features(const std::vector<unsigned>& sizes, unsigned seeds,
                                   const std::function<opened_map(unsigned D, unsigned seed)>& make_map,
                                   const std::vector<float>& x, const std::vector<float>& y, std::size_t n);

// n x d row-major points, deterministic in seed: each row a Gaussian vector scaled to norm `radius`
// times a factor uniform in [0.5, 1.5) (so norms vary), or exactly `radius` when fixed_norm is true.
std::vector<float> random_points(std::size_t n, unsigned d, std::uint64_t seed, double radius,
                                 bool fixed_norm = false);

// Row i of n x d row-major points.
std::vector<float> point_row(const std::vector<float>& points, unsigned i, unsigned d);

// E[cos(r a)] for r ~ chi(k): cos(sqrt(q) a) integrated against the chi-squared(k) density of q = r^2.
double chi_cos_mean(double k, double a);

// Exact kernel between two float vectors of the map's input_dim (sphere kernels normalise).
double exact(const kfm::offline::kernel_spec& kernel, const std::vector<float>& x, const std::vector<float>& y);

}  // namespace kfm::test
