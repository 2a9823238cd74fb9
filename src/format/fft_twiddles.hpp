// The contents of the TWID section (docs/format.md): the FFT twiddle table in the layout of
// format/fft_layout.hpp, float(cos) and float(sin) of the double angles computed with integers only
// (format/fft_twiddles.cpp; a pure function of log2_n). The builders write it, open() checks it, the
// kernels read it.
#pragma once
#include <cstddef>

namespace kfm::detail {

// Number of floats of the table for an FFT of length 2^log2_n.
std::size_t fft_twiddle_floats(unsigned log2_n) noexcept;
// Writes the table (fft_twiddle_floats(log2_n) floats) into out.
void fft_make_twiddles(unsigned log2_n, float* out) noexcept;
// Whether a stored table is fft_make_twiddles' output, each entry within one float ulp (tables written with
// a C library's double cos and sin, as before, may differ from it by one ulp where that library rounds the
// other way).
bool fft_twiddles_match(unsigned log2_n, const float* table) noexcept;

}  // namespace kfm::detail
