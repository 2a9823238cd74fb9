// Reading a built map's sections in tests: the section with a tag, and an f32 section's values.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "kfm/offline.hpp"

namespace kfm::test {

// The first section with this tag, or nullptr.
inline const offline::section* find_section(const offline::map_contents& m, std::uint32_t tag) {
    for (const auto& s : m.sections)
        if (s.tag == tag) return &s;
    return nullptr;
}

inline std::vector<float> f32_values(const offline::section& s) {
    std::vector<float> v(static_cast<std::size_t>(s.count));
    if (!v.empty()) std::memcpy(v.data(), s.bytes.data(), v.size() * sizeof(float));
    return v;
}

}  // namespace kfm::test
