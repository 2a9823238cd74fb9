// One builder per method family; build_map (build_map.cpp) dispatches on build_options::method.
// Each builder validates its options (std::invalid_argument with a clear message) and returns the
// complete map contents, deterministic in the seed.
#pragma once
#include "kfm/offline.hpp"

namespace kfm::offline {

map_contents build_random_fourier(const build_options& options);  // rff, rff-phase, orf, qmc (dense)

}  // namespace kfm::offline
