// The section table: one row per section tag the format defines, saying how it is stored, what its
// elements must satisfy, which projections read it and where open() attaches it in the map state.
// The container checks (verify_container.cpp) and attach are both driven by it, so adding a section is
// one tag in format.hpp, one field pair in map_state.hpp and one row here.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kfm/format.hpp"
#include "runtime/map_state.hpp"

namespace kfm::detail {

// What every element of a section must satisfy, checked for all maps at open (projections add their own
// range checks, e.g. indices < d).
enum class element_rule : std::uint8_t {
    any,     // integers and bits: ranges depend on the projection
    finite,  // floating point: no NaN or Inf
};

struct section_row {
    std::uint32_t tag;
    format::dtype type;
    std::uint32_t record_bytes;  // dtype::record only
    element_rule rule;
    std::uint32_t projections;   // projection_bit of every projection that reads it
    void (*attach)(map_state& state, const std::uint8_t* payload, std::uint64_t count);
};

constexpr std::uint32_t projection_bit(format::projection p) { return 1u << static_cast<unsigned>(p); }
// The feature stage (segments, per-argument arrays, constants) and the kernel parameters serve every projection.
inline constexpr std::uint32_t every_projection = ~0u;

// Upper bound on the number of rows (per-row bookkeeping arrays are sized by it).
inline constexpr std::size_t max_section_rows = 32;

// The row for `tag`, or null for a tag this version does not know.
const section_row* find_section(std::uint32_t tag) noexcept;
// Position of a known row in the table (for per-section bookkeeping such as duplicate detection).
std::size_t section_index(const section_row* row) noexcept;
// Number of rows.
std::size_t section_row_count() noexcept;
// The format minor version that introduced `tag` (0 for the 1.0 sections): a file of an older minor
// cannot carry it (its writer did not know the tag), and the writer stamps the newest one it uses.
std::uint16_t section_since_minor(std::uint32_t tag) noexcept;

}  // namespace kfm::detail
