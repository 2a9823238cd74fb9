// Offline helpers for feature-segment parameters that builders share, beyond the typed section
// constructors declared in kfm/offline.hpp (defined in sections.cpp).
#pragma once
#include <vector>

#include "kfm/format.hpp"

namespace kfm::offline {

// The degree b of positive homogeneity of a real kind, f(s a) = s^b f(a) for every s > 0: 0 for step,
// 1 for relu and identity, 2 for relu2; -1 for the kinds that are not homogeneous (cos_sin, cos_phase,
// product).
int homogeneity_degree(format::nonlinearity kind) noexcept;

// Folds per-argument scales into per-argument weights, w_i f(s_i t) = (w_i s_i^b) f(t), so the runtime
// reads one stream fewer (the segment then gets scale 1 and no scales section). Computed in double.
// Returns false and leaves `weights` unchanged when the kind is not homogeneous, the sizes differ, or
// any scale is not positive and finite (the identity does not hold for s <= 0).
bool fold_scales_into_weights(format::nonlinearity kind, const std::vector<double>& scales,
                              std::vector<double>& weights);

// True when every value rounds to the same float, stored in *common (a scalar weight then replaces the
// weights section). False for an empty vector.
bool same_f32(const std::vector<double>& values, float* common) noexcept;

}  // namespace kfm::offline
