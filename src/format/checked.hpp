// Overflow-safe range arithmetic for the file verifier: every offset/length test in open() goes through
// these so that no addition or multiplication on untrusted values can wrap.
#pragma once
#include <cstdint>

namespace kfm::detail {

// [off, off + len) lies inside [0, size).
constexpr bool range_inside(std::uint64_t off, std::uint64_t len, std::uint64_t size) noexcept {
    return len <= size && off <= size - len;
}

// *out = a * b unless it overflows.
constexpr bool checked_mul(std::uint64_t a, std::uint64_t b, std::uint64_t* out) noexcept {
    if (a != 0 && b > UINT64_MAX / a) return false;
    *out = a * b;
    return true;
}

// *out = a + b unless it overflows.
constexpr bool checked_add(std::uint64_t a, std::uint64_t b, std::uint64_t* out) noexcept {
    if (b > UINT64_MAX - a) return false;
    *out = a + b;
    return true;
}

constexpr bool is_aligned(std::uint64_t v, std::uint64_t alignment) noexcept { return v % alignment == 0; }

}  // namespace kfm::detail
