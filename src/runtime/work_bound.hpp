// The cost bound of a transform (docs/reliability.md, "A transform's cost is bounded by the file"):
// a model count of the elementary float operations one transform performs on a verified map, and the
// documented ceiling open() holds every map to, a function of the file's size and dims only.
#pragma once
#include <cstdint>

#include "format/bits.hpp"
#include "runtime/map_state.hpp"

namespace kfm::detail {

// The model's cost of one FFT or Walsh-Hadamard transform of length n: n log2 n (at least n). Each
// projection counts its own work with it (projection_ops::work).
inline std::uint64_t transform_cost(std::uint64_t n) { return n * (ceil_log2(n) > 0 ? ceil_log2(n) : 1); }

// The constant of the bound: 4 x format::max_polynomial_degree (a TensorSketch map of the largest degree
// runs that many FFTs of the projection length; every other projection stays far below).
inline constexpr std::uint64_t work_constant = 400;

// Operations of one transform (pre-processing, projection, features, constants), counting one per float
// touched by each kernel pass and n log2 n per FFT or Walsh-Hadamard transform of length n; the projection's
// share is its own (projection_ops::work). Needs a map that passed verify_map and its projection's verify.
std::uint64_t transform_work(const map_state& map) noexcept;

// work_constant x (file_bytes + input_dim + work_dim + projection_dim + output_dim)
//               x (1 + ceil_log2(max(work_dim, projection_dim, block_size))).
std::uint64_t work_limit(const map_state& map, std::uint64_t file_bytes) noexcept;

}  // namespace kfm::detail
