#include "offline/methods/tensor_srht/tensor_srht_map.hpp"

#include <cmath>
#include <stdexcept>

#include "format/bits.hpp"
#include "offline/methods/sections.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::offline {
namespace {
enum stream : std::uint64_t { stream_signs = 1 };
constexpr std::uint32_t hadamard_stages = 1;  // the hadamard projection with repeats = 1: H D blocks
}  // namespace

void check_tensor_srht_options(const build_options& o, const std::string& method) {
    const std::string where = method + ": ";
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

tensor_srht_kernel tensor_srht_kernel_of(const build_options& o) {
    tensor_srht_kernel k;
    k.degree = o.kernel.degree;
    k.d2 = std::uint32_t(1) << detail::ceil_log2(o.input_dim + 1);
    k.q = o.kernel.scale * o.kernel.scale / 2.0 - 1.0;
    k.alpha = std::pow(2.0 / (o.kernel.scale * o.kernel.scale), double(k.degree));
    return k;
}

void check_tensor_srht_projections(const std::string& method, std::uint64_t passes, std::uint32_t degree,
                                   std::uint64_t blocks, std::uint32_t d2) {
    if (blocks * d2 > format::max_dim)
        throw std::invalid_argument(method + ": " + std::to_string(passes) + " passes of degree " + std::to_string(degree) +
                                    " need " + std::to_string(blocks * d2) +
                                    " projections, more than the limit of 2^24 (fewer features or a lower degree)");
}

map_contents tensor_srht_map(const build_options& o, format::method method, const tensor_srht_kernel& k,
                             std::uint64_t blocks, std::uint32_t output_dim,
                             const std::vector<format::feature_segment>& segments) {
    // Every block's signs, independent.
    rng signs_rng(derive(o.seed, stream_signs));
    const std::vector<bool> signs = random_block_signs(blocks * hadamard_stages, k.d2, signs_rng);

    map_contents map;
    format::map_meta& m = map.meta;
    m.method = static_cast<std::uint32_t>(method);
    m.kernel = static_cast<std::uint32_t>(format::kernel::polynomial_sphere);
    m.projection = static_cast<std::uint32_t>(format::projection::hadamard);
    m.flags = format::meta_flag_normalize_input;
    m.input_dim = o.input_dim;
    m.work_dim = k.d2;
    m.projection_dim = std::uint32_t(blocks * k.d2);
    m.output_dim = output_dim;
    m.output_convention = static_cast<std::uint32_t>(format::output_convention::real);
    m.block_count = std::uint32_t(blocks);
    m.block_size = k.d2;
    m.repeats = hadamard_stages;
    m.kernel_order = k.degree;
    m.kernel_scale = o.kernel.scale;
    m.input_append = std::sqrt(k.q);
    m.seed = o.seed;
    map.sections.push_back(make_segments_section(segments));
    map.sections.push_back(make_bits_section(format::tag::signs, signs));
    return map;
}

}  // namespace kfm::offline
