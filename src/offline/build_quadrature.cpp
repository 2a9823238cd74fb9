// Builder for the SR(3,3) quadrature features with butterfly orthogonal matrices (Munkhoeva et al. 2018;
// docs methods.md). Each rule k draws a butterfly network M_k (angles + permutation) and a radius
// rho_j ~ chi(d+2) per simplex vertex; the points are rho_j Q_k v_j with Q_k = M_k^T, the weights
// sqrt(d)/rho_j, and the constant a0 = 1 - mean_j w_j^2 becomes a constant feature whose signature
// follows its sign, which keeps the estimator unbiased. The haar_rotations option replaces the butterflies
// by dense Haar Q_k (dense projection) to measure what the butterflies cost in accuracy.
// Arccos kinds are positively homogeneous, w f(rho t) = (w rho^b) f(t): the radii are folded into the
// weights (no scales section), and for order 1, where w rho = sqrt(d / points) for every point, into one
// scalar weight, so the feature stage reads only its projections.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "offline/builders.hpp"
#include "offline/butterfly_angles.hpp"
#include "offline/random.hpp"
#include "offline/sections.hpp"
#include "offline/simplex.hpp"
#include "offline/spectral_options.hpp"

namespace kfm::offline {

namespace {

constexpr std::uint32_t quadrature_flag_resampled_radii = 1u << 0;  // map_meta::method_flags
constexpr std::uint32_t quadrature_flag_haar = 1u << 1;             // dense Haar Q (reference variant)
constexpr unsigned max_resample_attempts = 10000;

// Draws the d+1 radii of one rule; with `resample` redraws them until the rule's a0 >= 0 (the paper's
// biased variant).
void draw_radii(rng& r, unsigned d, bool resample, double* rho) {
    for (unsigned attempt = 0; attempt < max_resample_attempts; ++attempt) {
        double mean_w2 = 0.0;
        for (unsigned j = 0; j <= d; ++j) {
            rho[j] = r.chi(double(d) + 2.0);
            mean_w2 += double(d) / (rho[j] * rho[j]);
        }
        mean_w2 /= double(d + 1);
        if (!resample || mean_w2 <= 1.0) return;
    }
    throw std::invalid_argument("quadrature: radius resampling did not reach a0 >= 0");
}

}  // namespace

map_contents build_quadrature(const build_options& o) {
    check_gaussian_or_arccos(o, "quadrature");
    const unsigned d = o.input_dim;
    const bool gaussian = o.kernel.kind == format::kernel::gaussian;
    // Each rule gives d+1 points and two outputs per point (cos/sin, or f(a)/f(-a) for arccos);
    // the requested feature count is rounded to whole rules.
    const std::uint64_t per_rule = 2ull * (d + 1);
    const std::uint64_t rules64 = std::max<std::uint64_t>(1, (o.features + per_rule / 2) / per_rule);
    if (rules64 * per_rule > (1ull << 26))
        throw std::invalid_argument("quadrature: too many features (more than 2^26 outputs)");
    const unsigned rules = unsigned(rules64);
    if (o.haar_rotations && rules64 * (d + 1) * d > (1ull << 28))
        throw std::invalid_argument("quadrature: the dense Haar variant would exceed 1 GiB");
    const unsigned log2_d2 = butterfly_log2_size(d);
    const std::size_t d2 = std::size_t(1) << log2_d2;
    const std::size_t points = std::size_t(rules) * (d + 1);

    std::vector<float> cs, dense;
    std::vector<double> scales(points), weights(points);
    std::vector<std::uint32_t> perm;
    const auto simplex = simplex_matrix(d);
    std::vector<double> rho(d + 1);
    double sum_w2 = 0.0;
    for (unsigned k = 0; k < rules; ++k) {
        rng angles(derive(o.seed, 3 * k)), order(derive(o.seed, 3 * k + 1)), radii(derive(o.seed, 3 * k + 2));
        if (o.haar_rotations) {
            // Rows of the dense projection are the points Q v_j (radii go to the feature scales).
            const auto q = haar_orthogonal_rows(d, angles);
            for (unsigned j = 0; j <= d; ++j)
                for (unsigned r = 0; r < d; ++r) {
                    double point = 0.0;
                    for (unsigned c = 0; c < d; ++c) point += q[std::size_t(r) * d + c] * simplex[std::size_t(c) * (d + 1) + j];
                    dense.push_back(float(point));
                }
        } else {
            const auto rule_cs = butterfly_cos_sin(d, angles);
            const auto rule_perm = random_permutation(d, order);
            cs.insert(cs.end(), rule_cs.begin(), rule_cs.end());
            perm.insert(perm.end(), rule_perm.begin(), rule_perm.end());
        }
        draw_radii(radii, d, o.resample_radii, rho.data());
        for (unsigned j = 0; j <= d; ++j) {
            const std::size_t p = std::size_t(k) * (d + 1) + j;
            const double w = std::sqrt(double(d)) / rho[j];
            sum_w2 += w * w;
            scales[p] = gaussian ? rho[j] / o.kernel.sigma : rho[j];
            // Gaussian: mean over the points of w^2 cos(.)cos(.) + w^2 sin(.)sin(.). Arccos: 2 * mean over
            // the 2*points (reflections included) of w^2 f f, i.e. w^2 f f / points per pair.
            weights[p] = w / std::sqrt(double(points));
        }
    }
    const double a0 = 1.0 - sum_w2 / double(points);
    // The constant term: a0 * g(0) with g(0) = 1 (gaussian), 2 f(0)^2 = 1/2 (arccos 0, f(0) = 1/2 as the
    // reference), 0 (arccos 1 and 2: no feature).
    const double constant_term = gaussian ? a0 : (o.kernel.order == 0 ? 0.5 * a0 : 0.0);
    const bool has_constant = constant_term != 0.0;

    map_contents map;
    auto& m = map.meta;
    m.method = std::uint32_t(format::method::quadrature);
    m.kernel = std::uint32_t(o.kernel.kind);
    m.projection = std::uint32_t(o.haar_rotations ? format::projection::dense : format::projection::butterfly_simplex);
    m.input_dim = d;
    m.work_dim = d;
    m.projection_dim = std::uint32_t(points);
    m.output_dim = std::uint32_t(2 * points + (has_constant ? 1 : 0));
    m.negative_dim = has_constant && constant_term < 0.0 ? 1 : 0;
    m.output_convention = std::uint32_t(gaussian ? format::output_convention::paired_cos_sin
                                                 : format::output_convention::real);
    m.block_count = rules;
    m.block_size = o.haar_rotations ? 0 : std::uint32_t(d2);
    m.repeats = o.haar_rotations ? 0 : butterfly_repeats;
    m.kernel_order = gaussian ? 0 : o.kernel.order;
    m.method_flags = (o.resample_radii ? quadrature_flag_resampled_radii : 0) |
                     (o.haar_rotations ? quadrature_flag_haar : 0);
    m.kernel_sigma = gaussian ? o.kernel.sigma : 0.0;
    m.seed = o.seed;

    // Per-point radii and weights (radii folded into the weights for arccos); arccos also writes the
    // reflected points' features.
    const format::nonlinearity kind = gaussian ? format::nonlinearity::cos_sin : arccos_nonlinearity(o.kernel.order);
    format::feature_segment seg = make_segment(kind, 0, std::uint32_t(points), 0, 1.0f, 1.0f);
    if (!gaussian) seg.flags = format::segment_flag_reflect;
    const bool folded = fold_scales_into_weights(kind, scales, weights);
    float common_weight = 1.0f;
    const bool scalar_weight = folded && same_f32(weights, &common_weight);
    if (!folded) seg.scale_index = 0;
    if (scalar_weight) seg.weight = common_weight;
    else seg.weight_index = 0;

    auto to_f32 = [](const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); };
    map.sections.push_back(make_segments_section({seg}));
    if (!folded) map.sections.push_back(make_f32_section(format::tag::scales, to_f32(scales)));
    if (!scalar_weight) map.sections.push_back(make_f32_section(format::tag::weights, to_f32(weights)));
    if (o.haar_rotations) {
        map.sections.push_back(make_f32_section(format::tag::dense, dense));
    } else {
        map.sections.push_back(make_f32_section(format::tag::butterfly, cs));
        map.sections.push_back(make_u32_section(format::tag::permutation, perm));
    }
    if (has_constant)
        map.sections.push_back(
            make_f32_section(format::tag::constants, {float(std::sqrt(std::fabs(constant_term)))}));
    return map;
}

}  // namespace kfm::offline
