// Option checks and feature-count rules shared by the builders of the gaussian and arc-cosine kernels
// (rff, orf, ssf, quadrature, sorf, qmc).
#pragma once
#include <cstdint>

#include "kfm/offline.hpp"

namespace kfm::offline {

// Throws std::invalid_argument (message prefixed by `method`) unless d >= 1, features >= 1 and the
// kernel is gaussian with finite sigma > 0 or arccos of order 0, 1 or 2.
void check_gaussian_or_arccos(const build_options& o, const char* method);

// check_gaussian_or_arccos, also accepting the other kernels with a spectral law (fourier_kernels.hpp)
// that `method` supports. Below, "the gaussian" stands for all of these kernels: they share its cos/sin
// features and record their length in kernel_sigma (and matern nu / rational-quadratic alpha in kernel_scale).
void check_fourier_or_arccos(const build_options& o, const char* method);

// Whether an arccos map of rff / orf / qmc / sorf writes reflected pairs [f(w.x), f(-w.x)]
// (o.arccos_pairs reflected, the default) rather than one feature per direction (plain). False for
// the gaussian. Throws std::invalid_argument (prefixed by `method`) for a value outside the enum.
bool reflected_arccos(const build_options& o, const char* method);

// Number of projections a one-feature-per-projection map needs: features / 2 (cos/sin pairs, at least 1)
// for the gaussian, ceil(features / 2) reflected pairs for reflected arccos, features for plain arccos.
// Throws when it exceeds the 2^26-output limit.
std::uint32_t projections_for_features(const build_options& o, const char* method);

// Feature-stage nonlinearity for arccos order b (step, relu, relu2).
format::nonlinearity arccos_nonlinearity(unsigned order);

// The maps with one feature (or one cos/sin pair) per projection: rff, rff-phase, orf, qmc, sorf.
// p projections give D = 2p paired cos/sin outputs for the gaussian, D = p outputs with a random
// phase (random_phase), D = 2p reflected Theta_b outputs for arccos b (reflected_arccos), or D = p
// plain Theta_b outputs.
//   meta: method, kernel with its sigma or order, projection kind, input / work / projection / output
//   dims, output convention, seed (block fields left zero);
//   segment: over all p projections with scalar `scale` and weight sqrt(2 / D), the nonlinearity of
//   the convention (a random-phase segment reads its phases from index 0; reflected arccos sets
//   segment_flag_reflect, so its f(-s t) block follows the f(s t) block).
format::map_meta one_feature_per_projection_meta(const build_options& o, format::projection kind,
                                                 std::uint32_t work_dim, std::uint32_t p, bool random_phase = false);
format::feature_segment one_feature_per_projection_segment(const build_options& o, std::uint32_t p, float scale,
                                                           bool random_phase = false);

}  // namespace kfm::offline
