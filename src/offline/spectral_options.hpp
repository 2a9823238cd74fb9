// Option checks and feature-count rules shared by the builders of the gaussian and arc-cosine kernels
// (rff, orf, ssf, quadrature, sorf, qmc).
#pragma once
#include <cstdint>

#include "kfm/offline.hpp"

namespace kfm::offline {

// Throws std::invalid_argument (message prefixed by `method`) unless d >= 1, features >= 1 and the
// kernel is gaussian with finite sigma > 0 or arccos of order 0, 1 or 2.
void check_gaussian_or_arccos(const build_options& o, const char* method);

// Number of projections a one-feature-per-projection map needs: features / 2 (cos/sin pairs, at least 1)
// for the gaussian, features for arccos. Throws when it exceeds the 2^26-output limit.
std::uint32_t projections_for_features(const build_options& o, const char* method);

// Feature-stage nonlinearity for arccos order b (step, relu, relu2).
format::nonlinearity arccos_nonlinearity(unsigned order);

}  // namespace kfm::offline
