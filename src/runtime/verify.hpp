// The stages of open(): container checks (header, section table, padding, checksums) that fill the
// section views, then the map checks (meta fields, segments, shared value domains). Each returns the
// first problem found as a status; none writes anything but its own output argument.
#pragma once
#include <cstddef>

#include "runtime/map_state.hpp"

namespace kfm::detail {

// Header, section table, zero padding and CRCs of `bytes` (already known non-null and 8-byte aligned).
// On ok, every known section present is attached in *state (meta, segments, arrays and their counts).
status verify_container(const std::uint8_t* bytes, std::size_t size, map_state* state) noexcept;

// map_meta fields, kernel parameters, value domains of the shared sections, and the feature segments.
// Needs the view filled by verify_container; does not run the projection's own verify.
status verify_map(const map_state& state) noexcept;

// The optional model sections (PREP, TASK, HEAD, BIAS, LABL): sizes against the map's dims and k, the
// task's consistency, nonzero scales, strictly increasing labels (verify_model.cpp).
status verify_model(const map_state& state) noexcept;

// Largest dimension open() accepts, so that workspace sizes never overflow even with a 32-bit size_t.
inline constexpr std::uint32_t max_dim = format::max_dim;

}  // namespace kfm::detail
