// Builder for Fastfood (Le, Sarlós, Smola 2013): blocks V_b = S_b H G_b Π_b H B_b on x padded to
// n = 2^ceil(log2 d), stacked and truncated to D/2 projections, paired cos/sin features. H is the
// normalised Walsh-Hadamard matrix (orthogonal; the runtime's fwht), B_b a Rademacher diagonal, Π_b a
// uniform permutation, G_b an N(0, 1) diagonal, and S_b the per-row scale r_i sqrt(n) / ||G_b||_F with
// r_i = chi(n) times a draw of the kernel's frequency scale (1/sigma for the gaussian), so row i of V_b
// is r_i times a direction that, given B and Π, is uniform on the sphere (docs/kernels.md): each row has
// exactly the kernel's spectral law and the map is unbiased. Gaussian, Matérn and rational quadratic.
#include <cmath>
#include <stdexcept>

#include "offline/methods/builders.hpp"
#include "offline/sampling/butterfly_angles.hpp"
#include "offline/sampling/fourier_kernels.hpp"
#include "offline/sampling/random.hpp"
#include "offline/methods/spectral_options.hpp"
#include "format/bits.hpp"

namespace kfm::offline {

map_contents build_fastfood(const build_options& o) {
    check_fourier_or_arccos(o, "fastfood");
    if (!scale_mixture_kernel(o.kernel.kind))
        throw std::invalid_argument(std::string("fastfood: kernel '") + kernel_name(o.kernel.kind) +
                                    "' is not supported (gaussian, matern or rational-quadratic)");
    const unsigned d = o.input_dim;
    const std::uint32_t p = projections_for_features(o, "fastfood");
    const std::uint32_t n = 1u << detail::ceil_log2(d);
    const std::uint32_t blocks = (p + n - 1) / n;
    const std::uint32_t stride = format::hadamard_sign_stride(n);

    // Independent streams per role, drawn block by block.
    rng sign_rng(derive(o.seed, 0)), perm_rng(derive(o.seed, 1)), gauss_rng(derive(o.seed, 2)),
        radial_rng(derive(o.seed, 3));
    std::vector<bool> signs(std::size_t(blocks) * stride, false);
    std::vector<std::uint32_t> permutation;
    std::vector<float> g(std::size_t(blocks) * n);
    std::vector<float> scales(p);
    for (std::uint32_t b = 0; b < blocks; ++b) {
        for (std::uint32_t j = 0; j < n; ++j) signs[std::size_t(b) * stride + j] = sign_rng.rademacher() < 0;
        const auto perm = random_permutation(n, perm_rng);
        permutation.insert(permutation.end(), perm.begin(), perm.end());
        double frobenius2 = 0.0;  // of the stored (float) diagonal, which the runtime applies
        for (std::uint32_t j = 0; j < n; ++j) {
            const float v = float(gauss_rng.normal());
            g[std::size_t(b) * n + j] = v;
            frobenius2 += double(v) * v;
        }
        const double row_norm = std::sqrt(frobenius2 / n);  // every row of H G Π H B has this norm
        for (std::uint32_t i = b * n; i < p && i < (b + 1) * std::uint64_t(n); ++i) {
            const double chi = radial_rng.chi(n);  // drawn before the scale: the order is part of the map
            scales[i] = float(chi * frequency_scale(o.kernel, radial_rng) / row_norm);
        }
    }

    map_contents map;
    auto& m = map.meta;
    m = one_feature_per_projection_meta(o, format::projection::fastfood, n, p);
    m.block_count = blocks;
    m.block_size = n;
    format::feature_segment seg = one_feature_per_projection_segment(o, p, 1.0f);
    seg.scale_index = 0;

    map.sections.push_back(make_segments_section({seg}));
    map.sections.push_back(make_f32_section(format::tag::scales, scales));
    map.sections.push_back(make_bits_section(format::tag::signs, signs));
    map.sections.push_back(make_u32_section(format::tag::permutation, permutation));
    map.sections.push_back(make_f32_section(format::tag::gaussian_diagonal, g));
    return map;
}

}  // namespace kfm::offline
