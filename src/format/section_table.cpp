// Lookups by tag in the section table (section_table.hpp).
#include "format/section_table.hpp"

namespace kfm::detail {

const section_row* find_section(std::uint32_t tag) noexcept {
    for (std::size_t i = 0; i < section_row_count(); ++i)
        if (section_rows[i].tag == tag) return &section_rows[i];
    return nullptr;
}

std::uint16_t section_since_minor(std::uint32_t tag) noexcept {
    const section_row* row = find_section(tag);
    return row != nullptr ? row->since_minor : 0;
}

}  // namespace kfm::detail
