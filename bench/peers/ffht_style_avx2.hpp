// The Walsh-Hadamard peer in the manner of FFHT (the FALCONN project's fast Hadamard transform, Andoni
// et al., "Practical and Optimal LSH for Angular Distance", NIPS 2015), re-implemented here from its
// description, not its code: AVX (8 floats a register), in place, iterative, the first three stages
// inside each register with duplicate-lane permutes, add-subtract and 128-bit lane swaps, and every later
// stage in groups of three across 8 registers loaded at stride h, so each pass over memory does three
// stages. FFHT itself computes the plain H x; to do kfm's work (fwht.hpp) the sign diagonal is applied
// as the first pass loads its registers and the 1 / sqrt(n) normalisation as the last pass stores them.
// FFHT has no AVX-512 kernel, so neither has this peer. Built with the AVX2 kernels' flags where they are.
#pragma once
#include <cstdint>

namespace kfm_bench {

// x <- H diag(s) x / sqrt(n), n = 2^log2_n >= 8, s_i = -1 where bit i of sign_bits is set (fwht.hpp).
void ffht_style_fwht_avx2(float* x, unsigned log2_n, const std::uint8_t* sign_bits) noexcept;

}  // namespace kfm_bench
