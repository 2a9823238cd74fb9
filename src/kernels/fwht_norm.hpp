// The normalisation of the Walsh-Hadamard transform (kernels/fwht.hpp), in float arithmetic alone.
#pragma once
#include <cstdint>
#include <cstring>

namespace kfm::detail::kern {

// n^{-1/2} for n = 2^log2_n (log2_n < 64) as float(1.0 / std::sqrt(double(n))) rounds it, without double
// arithmetic (software routines on a single-precision FPU): 2^{-floor(log2_n / 2)}, times float(1 / sqrt(2)) =
// 0x1.6a09e6p-1 for an odd log2_n. The double quotient is 2^{-(log2_n - 1) / 2} times the double 1 / sqrt(2),
// and scaling by a power of two commutes with rounding, so the floats are equal (tests/kernels/fwht_test.cpp checks each n).
inline float fwht_norm(unsigned log2_n) noexcept {
    const std::uint32_t exponent_bits = std::uint32_t(127 - int(log2_n / 2)) << 23;
    float power;
    std::memcpy(&power, &exponent_bits, sizeof power);
    return (log2_n & 1u) != 0 ? power * 0x1.6a09e6p-1f : power;
}

}  // namespace kfm::detail::kern
