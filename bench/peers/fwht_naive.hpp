// The plain in-place Walsh-Hadamard loop (sign diagonal, log2 n butterfly stages, normalisation), in any
// precision: the peer of the fwht benchmark (float) and the fast reference of the fwht tests (double).
// Not used by the runtime.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace kfm::detail {

// x <- H diag(s) x / sqrt(n), n = 2^log2_n, s_i = -1 where bit i of sign_bits is set (null: all +1).
template <class T>
void naive_fwht(T* x, unsigned log2_n, const std::uint8_t* sign_bits) {
    const std::size_t n = std::size_t(1) << log2_n;
    if (sign_bits != nullptr)
        for (std::size_t i = 0; i < n; ++i)
            if ((sign_bits[i >> 3] >> (i & 7)) & 1u) x[i] = -x[i];
    for (std::size_t h = 1; h < n; h *= 2)
        for (std::size_t s = 0; s < n; s += 2 * h)
            for (std::size_t i = s; i < s + h; ++i) {
                const T a = x[i], b = x[i + h];
                x[i] = a + b;
                x[i + h] = a - b;
            }
    const T norm = T(1.0 / std::sqrt(double(n)));
    for (std::size_t i = 0; i < n; ++i) x[i] *= norm;
}

}  // namespace kfm::detail
