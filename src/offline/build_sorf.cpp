// Builder for SORF (Yu et al. 2016, S-Rademacher): blocks (sqrt(d2)/sigma) H D1 H D2 H D3 on x padded to
// d2 = 2^ceil(log2 d), stacked and truncated to the projection count; paired cos/sin for the gaussian,
// Theta_b features for arccos b. Uses the hadamard projection of the runtime.
#include <cmath>

#include "offline/builders.hpp"
#include "offline/butterfly_angles.hpp"
#include "offline/random.hpp"
#include "offline/spectral_options.hpp"

namespace kfm::offline {

map_contents build_sorf(const build_options& o) {
    check_gaussian_or_arccos(o, "sorf");
    const unsigned d = o.input_dim;
    const bool gaussian = o.kernel.kind == format::kernel::gaussian;
    const std::uint32_t p = projections_for_features(o, "sorf");
    const unsigned log2_d2 = butterfly_log2_size(d);
    const std::uint32_t d2 = 1u << log2_d2;
    const std::uint32_t blocks = (p + d2 - 1) / d2;
    const std::uint32_t stride = format::hadamard_sign_stride(d2);

    // Bits of block b, stage i (i = 0 is applied first, i.e. D3) start at (3 b + i) * stride.
    rng r(derive(o.seed, 0));
    std::vector<bool> signs(std::size_t(blocks) * 3 * stride, false);
    for (std::size_t s = 0; s < std::size_t(blocks) * 3; ++s)
        for (std::uint32_t j = 0; j < d2; ++j) signs[s * stride + j] = r.rademacher() < 0;

    map_contents map;
    auto& m = map.meta;
    m.method = std::uint32_t(format::method::sorf);
    m.kernel = std::uint32_t(o.kernel.kind);
    m.projection = std::uint32_t(format::projection::hadamard);
    m.input_dim = d;
    m.work_dim = d2;
    m.projection_dim = p;
    m.output_dim = gaussian ? 2 * p : p;
    m.output_convention = std::uint32_t(gaussian ? format::output_convention::paired_cos_sin
                                                 : format::output_convention::real);
    m.block_count = blocks;
    m.block_size = d2;
    m.repeats = 3;
    m.kernel_order = gaussian ? 0 : o.kernel.order;
    m.kernel_sigma = gaussian ? o.kernel.sigma : 0.0;
    m.seed = o.seed;

    const format::feature_segment seg =
        make_segment(gaussian ? format::nonlinearity::cos_sin : arccos_nonlinearity(o.kernel.order), 0, p, 0,
                     float(std::sqrt(double(d2)) / (gaussian ? o.kernel.sigma : 1.0)),
                     float(gaussian ? 1.0 / std::sqrt(double(p)) : std::sqrt(2.0 / double(p))));

    map.sections.push_back(make_segments_section({seg}));
    map.sections.push_back(make_bits_section(format::tag::signs, signs));
    return map;
}

}  // namespace kfm::offline
