// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), used for the header and section checksums of
// .kfm files. Shared by the runtime reader and the offline writer.
#pragma once
#include <cstddef>
#include <cstdint>

namespace kfm::detail {

// Continues a CRC: crc32c(b, n2, crc32c(a, n1)) == crc32c(a ++ b). Start with 0.
std::uint32_t crc32c(const void* data, std::size_t size, std::uint32_t crc = 0) noexcept;

}  // namespace kfm::detail
