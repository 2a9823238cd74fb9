// One builder per method family; the method registry (registry.cpp) names the builder of each method.
// Each builder validates its options (std::invalid_argument with a clear message) and returns the
// complete map contents, deterministic in the seed.
#pragma once
#include <cstdint>

#include "kfm/offline.hpp"

namespace kfm::offline {

map_contents build_random_fourier(const build_options& options);  // rff, rff-phase, orf, qmc (dense)

map_contents build_quadrature(const build_options& options);      // quadrature SR(3,3) with butterflies
map_contents build_sorf(const build_options& options);            // sorf (H D1 H D2 H D3 blocks)
map_contents build_qmc(const build_options& options);             // qmc (randomised Halton, dense)
map_contents build_ssf(const build_options& options);             // ssf (log-energy DFT index set, FFT blocks)
map_contents build_gorf(const build_options& options);            // gorf, grff (signed features)
map_contents build_maclaurin(const build_options& options);       // maclaurin (Random Maclaurin)
map_contents build_tensorsketch(const build_options& options);    // tensorsketch
map_contents build_srf(const build_options& options);             // srf (spherical random features)
map_contents build_fastfood(const build_options& options);        // fastfood (S H G Pi H B blocks)
map_contents build_gq(const build_options& options);              // gq (quffka's subsampled Gauss-Hermite grid)
map_contents build_nystroem(const build_options& options);        // nystroem (landmarks from options.data)
map_contents build_maclaurin_opt(const build_options& options);    // maclaurin-opt (degrees fitted to options.data)
map_contents build_tensor_srht(const build_options& options);      // tensor-srht (products of H D blocks)
map_contents build_ctr_srht(const build_options& options);         // ctr-srht (complex products of H D block pairs)

// Lower bounds on the output dimension of the methods that round D (method_row::least_output_dim).
std::uint64_t quadrature_least_output_dim(const build_options& options);  // whole rules of 2 (d + 1)
std::uint64_t ssf_least_output_dim(const build_options& options);         // whole points of 2 M (or 2)

}  // namespace kfm::offline
