// Builder for TensorSRHT (Ahle et al. 2020; Wacker, Ohana and Filippone 2022) of the polynomial kernel on
// the sphere, (1 - |x-y|^2/a^2)^p = alpha (q + x.y)^p with q = a^2/2 - 1 and alpha = (2/a^2)^p: on unit-norm
// x, the homogeneous degree-p kernel of the work vector x~ = (x, sqrt(q)) times alpha. The runtime normalises
// x and then appends sqrt(q) (preprocess: normalisation first, input_append after it, so the constant is not
// normalised away), pads x~ to d2 = 2^ceil(log2(d + 1)), and applies blocks B = H D (one sign-flipped
// Walsh-Hadamard transform each, H normalised). The D features come in passes of up to d2; each pass has p
// blocks B_l of its own (fresh independent signs) and its feature j is
//   sqrt(alpha / D) prod_{l < p} sqrt(d2) (B_l x~)_{(j + l) mod d2}
// (rotated rows: format.hpp's segment_flag_block_product says why). Every row sqrt(d2) (H D)_r has
// independent +-1 entries, so E[d2 (B x)_r (B y)_r] = x.y, and the p blocks are independent: each feature's
// product is unbiased for alpha (x~.y~)^p, whatever j and the pass.
//
// Runtime: the hadamard projection with repeats = 1 (p blocks per pass, block_count = p passes) and one
// block product segment per pass (segment_flag_block_product: factor l reads the pass's block l from row l
// on). D is
// exact (no rounding).
#include <cmath>
#include <vector>

#include "offline/methods/builders.hpp"
#include "offline/methods/sections.hpp"
#include "offline/methods/tensor_srht/tensor_srht_map.hpp"

namespace kfm::offline {

map_contents build_tensor_srht(const build_options& o) {
    check_tensor_srht_options(o, "tensor-srht");
    const tensor_srht_kernel k = tensor_srht_kernel_of(o);
    const std::uint64_t passes = (std::uint64_t(o.features) + k.d2 - 1) / k.d2;
    const std::uint64_t blocks = passes * k.degree;
    check_tensor_srht_projections("tensor-srht", passes, k.degree, blocks, k.d2);

    std::vector<format::feature_segment> segments;
    append_block_product_passes(o.features, k.degree, k.d2, float(std::sqrt(k.alpha / double(o.features))), 0, 0, segments);
    return tensor_srht_map(o, format::method::tensor_srht, k, blocks, o.features, segments);
}

}  // namespace kfm::offline
