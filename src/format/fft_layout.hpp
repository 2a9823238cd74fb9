// Layout of the FFT twiddle table: the TWID section of the file format (docs/format.md, "The twiddle
// table"), written by the builders with fft_make_twiddles (format/fft_twiddles.hpp) and read by the
// kernels. All values are w = exp(-2 pi i k / (2h)), computed in double and rounded once.
//   [0, 128):  lane tables for the in-register stages h = 1, 2, 4, 8: for each h, re[16] then im[16],
//              lane i holding sigma_i * w_{i mod h} with sigma_i = -1 when (i & h) != 0 else +1, so one
//              fused multiply-add serves both halves of every butterfly (16 lanes cover AVX-512; narrower
//              ISAs read a prefix, which has the same period).
//   [128, ...): for every stage h = 1, 2, ..., n/2: re[h] then im[h] holding w_0 .. w_{h-1}, contiguous
//              so the stages with h >= lanes load twiddles with plain vector loads.
// Total 128 + 2 (n - 1) floats.
#pragma once
#include <cstddef>

namespace kfm::detail::fft_layout {

inline constexpr std::size_t lane_count = 16;
inline constexpr unsigned lane_stages = 4;  // h = 1, 2, 4, 8
inline constexpr std::size_t lane_tables_floats = 2 * lane_count * lane_stages;

// Offset of the lane table for stage h (h in 1, 2, 4, 8).
constexpr std::size_t lane_offset(std::size_t h) {
    return 2 * lane_count * (h == 1 ? 0 : h == 2 ? 1 : h == 4 ? 2 : 3);
}
// Offset of the contiguous table of stage h (a power of two).
constexpr std::size_t stage_offset(std::size_t h) { return lane_tables_floats + 2 * (h - 1); }

}  // namespace kfm::detail::fft_layout
