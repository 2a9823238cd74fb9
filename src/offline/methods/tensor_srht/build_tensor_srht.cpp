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
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "format/bits.hpp"
#include "offline/methods/builders.hpp"
#include "offline/methods/sections.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::offline {
namespace {

enum stream : std::uint64_t { stream_signs = 1 };
constexpr std::uint32_t hadamard_stages = 1;  // the hadamard projection with repeats = 1: H D blocks

void check_options(const build_options& o) {
    const std::string where = "tensor-srht: ";
    const kernel_spec& k = o.kernel;
    if (k.kind != format::kernel::polynomial_sphere)
        throw std::invalid_argument(where + "kernel '" + kernel_name(k.kind) + "' is not supported (polynomial-sphere)");
    if (o.input_dim == 0 || o.input_dim >= format::max_dim)
        throw std::invalid_argument(where + "input dimension must be in 1..2^24 - 1 (one coordinate is appended)");
    if (o.features == 0) throw std::invalid_argument(where + "features must be at least 1");
    if (k.degree < 1 || k.degree > format::max_polynomial_degree)
        throw std::invalid_argument(where + "polynomial-sphere degree must be in 1..100");
    if (!(k.scale >= 2.0) || !std::isfinite(k.scale))
        throw std::invalid_argument(where + "polynomial-sphere scale a must be finite and at least 2");
}

}  // namespace

map_contents build_tensor_srht(const build_options& o) {
    check_options(o);
    const std::uint32_t p = o.kernel.degree;
    const std::uint32_t d2 = std::uint32_t(1) << detail::ceil_log2(o.input_dim + 1);
    const std::uint64_t passes = (std::uint64_t(o.features) + d2 - 1) / d2;
    const std::uint64_t blocks = passes * p;
    if (blocks * d2 > format::max_dim)
        throw std::invalid_argument("tensor-srht: " + std::to_string(passes) + " passes of degree " + std::to_string(p) +
                                    " need " + std::to_string(blocks * d2) +
                                    " projections, more than the limit of 2^24 (fewer features or a lower degree)");

    const double q = o.kernel.scale * o.kernel.scale / 2.0 - 1.0;
    const double alpha = std::pow(2.0 / (o.kernel.scale * o.kernel.scale), double(p));
    std::vector<format::feature_segment> segments;
    append_block_product_passes(o.features, p, d2, float(std::sqrt(alpha / double(o.features))), 0, 0, segments);

    // Every block's signs, independent.
    rng signs_rng(derive(o.seed, stream_signs));
    const std::vector<bool> signs = random_block_signs(blocks * hadamard_stages, d2, signs_rng);

    map_contents map;
    format::map_meta& m = map.meta;
    m.method = static_cast<std::uint32_t>(format::method::tensor_srht);
    m.kernel = static_cast<std::uint32_t>(format::kernel::polynomial_sphere);
    m.projection = static_cast<std::uint32_t>(format::projection::hadamard);
    m.flags = format::meta_flag_normalize_input;
    m.input_dim = o.input_dim;
    m.work_dim = d2;
    m.projection_dim = std::uint32_t(blocks * d2);
    m.output_dim = o.features;
    m.output_convention = static_cast<std::uint32_t>(format::output_convention::real);
    m.block_count = std::uint32_t(blocks);
    m.block_size = d2;
    m.repeats = hadamard_stages;
    m.kernel_order = p;
    m.kernel_scale = o.kernel.scale;
    m.input_append = std::sqrt(q);
    m.seed = o.seed;
    map.sections.push_back(make_segments_section(segments));
    map.sections.push_back(make_bits_section(format::tag::signs, signs));
    return map;
}

}  // namespace kfm::offline
