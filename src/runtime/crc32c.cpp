// Software CRC-32C with a byte-wise table built at compile time (no state, no allocation).
#include "runtime/crc32c.hpp"

#include <array>

namespace kfm::detail {
namespace {

constexpr std::array<std::uint32_t, 256> make_table() {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int bit = 0; bit < 8; ++bit) c = (c & 1u) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        table[i] = c;
    }
    return table;
}

constexpr std::array<std::uint32_t, 256> crc_table = make_table();

}  // namespace

std::uint32_t crc32c(const void* data, std::size_t size, std::uint32_t crc) noexcept {
    const auto* p = static_cast<const std::uint8_t*>(data);
    std::uint32_t c = ~crc;
    for (std::size_t i = 0; i < size; ++i) c = crc_table[(c ^ p[i]) & 0xffu] ^ (c >> 8);
    return ~c;
}

}  // namespace kfm::detail
