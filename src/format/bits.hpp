// Small bit helpers shared by the runtime, the kernels and the offline builders: the one ceil_log2 of
// the code base, and reading bit i of a packed bit array (the SIGN and FREQ sections' layout).
#pragma once
#include <cstdint>

namespace kfm::detail {

// The smallest l with 2^l >= n (0 for n <= 1). Powers of two give their exact log2.
constexpr unsigned ceil_log2(std::uint64_t n) noexcept {
    unsigned l = 0;
    while (l < 64 && (std::uint64_t(1) << l) < n) ++l;
    return l;
}

// Whether n is a power of two (1 included, 0 excluded).
constexpr bool is_power_of_two(std::uint64_t n) noexcept { return n != 0 && (n & (n - 1)) == 0; }

// Bit i of a packed bit array, LSB first.
inline bool bit_at(const std::uint8_t* bits, std::uint64_t i) noexcept { return ((bits[i >> 3] >> (i & 7)) & 1u) != 0; }

static_assert(ceil_log2(0) == 0 && ceil_log2(1) == 0 && ceil_log2(2) == 1 && ceil_log2(3) == 2 && ceil_log2(1024) == 10 &&
              ceil_log2(1025) == 11, "ceil_log2");

}  // namespace kfm::detail
