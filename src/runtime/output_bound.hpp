// The finite-output contract (docs/format.md, "Finite output"): for every input whose entries are finite
// with |x_i| <= format::max_input_abs, a verified map's output is finite. open() checks it once with a
// worst-case bound on every intermediate of the pipeline, computed from the stored values.
#pragma once
#include "runtime/map_state.hpp"

namespace kfm::detail {

// log2 of the largest magnitude any intermediate of the map's transform may reach for an input within the
// contract (projection and feature stages; -inf when everything is zero). Needs a map that passed
// verify_map and its projection's verify. Not in the firmware profile (KFM_FIRMWARE), which has no
// double-precision libm.
#if !KFM_FIRMWARE
double log2_magnitude_bound(const map_state& map) noexcept;
#endif

// The largest log2 magnitude open() accepts: 2^126 leaves a factor of 4 below FLT_MAX for the rounding
// of the sums the bound covers.
inline constexpr double max_log2_magnitude = 126.0;

// The same bound computed in float with portable log2 and exp2 (no double arithmetic, no libm): the firmware
// profile's. Margin: every term is the log2 of a stored float or double or of a dimension, or a sum of a few
// such (all below 2^11 in magnitude, so each float operation rounds by at most 2^-13), the portable log2 and
// exp2 err by less than 1e-6, a path has at most a dozen operations, and the one product (count_sketch_fft's
// sketches) multiplies by at most format::max_polynomial_degree = 100: the float bound lies within 2^-6 of
// the double one. Both decide alike for every map whose bound is more than 2^-6 from max_log2_magnitude (the
// tests compare them on every builder map and on the bound tests' maps), and neither lets an output reach
// FLT_MAX: the limit keeps a factor of 4 (2 in log2) below it.
float log2_magnitude_bound_float(const map_state& map) noexcept;

// Whether the map's bound is within max_log2_magnitude: open()'s decision, in float in the firmware profile
// (KFM_FIRMWARE), in double otherwise.
bool magnitudes_within_contract(const map_state& map) noexcept;

}  // namespace kfm::detail
