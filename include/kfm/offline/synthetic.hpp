// Documented synthetic data (`kfm synth`, the benchmarks' inputs), so that demos and tests need no user
// data. Deterministic: the same arguments give the same values on every platform.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kfm::offline {

// rows x dim float32 values (row-major) from a mixture of 10 isotropic Gaussian clusters: centres uniform
// in [-0.6, 0.6]^dim, standard deviations uniform in [0.1, 0.3], equal weights. Values lie mostly in
// [-1, 1] like the (rescaled) real data sets, with enough structure that kernel values spread over (0, 1)
// for sigma^2 = dim / 2. Only std::bad_alloc.
std::vector<float> synthetic_rows(std::size_t rows, std::size_t dim, std::uint64_t seed);

// A classification target for rows x dim values: which of each row's first three values (all of them
// when dim < 3) is largest (0, 1 or 2; the first of equal values). Only std::bad_alloc.
std::vector<std::int64_t> synthetic_labels(const float* x, std::size_t rows, std::size_t dim);

// `count` values uniform in [-1, 1], the range the data sets are scaled to. Only std::bad_alloc.
std::vector<float> uniform_values(std::size_t count, std::uint64_t seed);

}  // namespace kfm::offline
