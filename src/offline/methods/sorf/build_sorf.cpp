// Builder for SORF (Yu et al. 2016, S-Rademacher): blocks (sqrt(d2)/sigma) H D1 H D2 H D3 on x padded to
// d2 = 2^ceil(log2 d), stacked and truncated to the projection count; paired cos/sin for the gaussian,
// Theta_b features for arccos b. Matérn and rational quadratic: the same unit rows, each with its own
// radius from the kernel's radial law, chi(d) times a draw of the frequency scale, times sqrt(d2 / d) (a
// row restricted to the d real coordinates then has unit norm on average), in the per-argument scales
// section (the paper's fixed sqrt(d2) radius would leave the mixture's scale undrawn). Uses the hadamard
// projection of the runtime.
#include <cmath>

#include "offline/methods/builders.hpp"
#include "offline/sampling/fourier_kernels.hpp"
#include "offline/sampling/random.hpp"
#include "offline/methods/spectral_options.hpp"
#include "format/bits.hpp"

namespace kfm::offline {

map_contents build_sorf(const build_options& o) {
    check_fourier_or_arccos(o, "sorf");
    const unsigned d = o.input_dim;
    const bool gaussian = o.kernel.kind == format::kernel::gaussian;
    const std::uint32_t p = projections_for_features(o, "sorf");
    const std::uint32_t d2 = 1u << detail::ceil_log2(d);
    const std::uint32_t blocks = (p + d2 - 1) / d2;
    const std::uint32_t stride = format::hadamard_sign_stride(d2);

    // Bits of block b, stage i (i = 0 is applied first, i.e. D3) start at (3 b + i) * stride.
    rng r(derive(o.seed, 0));
    std::vector<bool> signs(std::size_t(blocks) * 3 * stride, false);
    for (std::size_t s = 0; s < std::size_t(blocks) * 3; ++s)
        for (std::uint32_t j = 0; j < d2; ++j) signs[s * stride + j] = r.rademacher() < 0;

    map_contents map;
    auto& m = map.meta;
    m = one_feature_per_projection_meta(o, format::projection::hadamard, d2, p);
    m.block_count = blocks;
    m.block_size = d2;
    m.repeats = 3;

    format::feature_segment seg =
        one_feature_per_projection_segment(o, p, float(std::sqrt(double(d2)) / (gaussian ? o.kernel.sigma : 1.0)));
    std::vector<float> radii;
    if (scale_mixture_kernel(o.kernel.kind) && !gaussian) {
        rng radial(derive(o.seed, 1));
        const double row_scale = std::sqrt(double(d2) / d);
        radii.resize(p);
        for (float& radius : radii) {
            const double chi = radial.chi(d);  // drawn before the scale: the order is part of the map
            radius = float(chi * frequency_scale(o.kernel, radial) * row_scale);
        }
        seg.scale = 1.0f;
        seg.scale_index = 0;
    }

    map.sections.push_back(make_segments_section({seg}));
    map.sections.push_back(make_bits_section(format::tag::signs, signs));
    if (!radii.empty()) map.sections.push_back(make_f32_section(format::tag::scales, radii));
    return map;
}

}  // namespace kfm::offline
