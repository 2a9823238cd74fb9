// Offline helpers for feature-segment parameters that builders share, beyond the typed section
// constructors declared in kfm/offline.hpp (defined in sections.cpp).
#pragma once
#include <cstdint>
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

class rng;

// How the passes of append_block_product_passes take their blocks: `own`, every pass the next `degree`
// blocks; `chained`, pass p starts at block p, so consecutive passes share degree - 1 blocks.
enum class pass_blocks { own, chained };

// Block products (segment_flag_block_product) of one degree: `features` outputs from out_begin on, in passes
// of up to d2, each pass a segment whose `degree` factors are `degree` consecutive blocks of d2 projections
// from first_block on (as `sharing` says), scale sqrt(d2) (the hadamard projection's H is normalised) and
// `weight`. Returns how far the next pass's first block is from first_block (with `own`: the blocks read).
std::uint32_t append_block_product_passes(std::uint32_t features, std::uint32_t degree, std::uint32_t d2, float weight,
                                          std::uint32_t first_block, std::uint32_t out_begin,
                                          std::vector<format::feature_segment>& segments,
                                          pass_blocks sharing = pass_blocks::own);

// The SIGN section's bits of `blocks` one-stage H D blocks of length d2, each an independent Rademacher draw
// from r (format::hadamard_sign_stride layout).
std::vector<bool> random_block_signs(std::uint64_t blocks, std::uint32_t d2, rng& r);

}  // namespace kfm::offline
