// The finite-output contract (docs/format.md, "Finite output"): for every input whose entries are finite
// with |x_i| <= format::max_input_abs, a verified map's output is finite. open() checks it once with a
// worst-case bound on every intermediate of the pipeline, computed from the stored values.
#pragma once
#include "runtime/map_state.hpp"

namespace kfm::detail {

// log2 of the largest magnitude any intermediate of the map's transform may reach for an input within the
// contract (projection and feature stages; -inf when everything is zero). Needs a map that passed
// verify_map and its projection's verify.
double log2_magnitude_bound(const map_state& map) noexcept;

// The largest log2 magnitude open() accepts: 2^126 leaves a factor of 4 below FLT_MAX for the rounding
// of the sums the bound covers.
inline constexpr double max_log2_magnitude = 126.0;

}  // namespace kfm::detail
