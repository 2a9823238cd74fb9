// The section views' counts (map_state.hpp).
#include "runtime/map_state.hpp"

namespace kfm::detail {

std::uint64_t map_state::count(std::size_t i) const noexcept {
    if (data_[i] == nullptr) return 0;
    const auto* table = reinterpret_cast<const format::section_entry*>(file_ + sizeof(format::file_header));
    return table[entry_[i]].count;
}

}  // namespace kfm::detail
