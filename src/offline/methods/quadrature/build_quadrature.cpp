// Builder for the SR(3,3) quadrature features with butterfly orthogonal matrices (Munkhoeva et al. 2018;
// docs/methods.md, "Quadrature"). Each rule k draws a butterfly network M_k (angles + permutation, uniform
// or blocked) and a radius
// rho_j per simplex vertex from the size-biased radial law (chi(d+2) for the gaussian; radial_laws.hpp for
// matern and rational-quadratic); the points are rho_j Q_k v_j with Q_k = M_k^T, the weights
// sqrt(m2)/rho_j with m2 = E||w||^2 (d for the gaussian), and the constant a0 = 1 - mean_j w_j^2 becomes a
// constant feature whose signature follows its sign, which keeps the estimator unbiased. The haar_rotations option replaces the butterflies
// by dense Haar Q_k (dense projection) to measure what the butterflies cost in accuracy.
// Arccos kinds are positively homogeneous, w f(rho t) = (w rho^b) f(t): the radii are folded into the
// weights (no scales section), and for order 1, where w rho = sqrt(d / points) for every point, into one
// scalar weight, so the feature stage reads only its projections.
// The builder follows the paper: options -> sizes (rules of d+1 points) -> per rule the rotation Q_k and the
// radii rho_j -> weights w_j and the constant a0 -> segment and sections. Below, `gaussian` covers the other
// scale-mixture kernels (matern, rational-quadratic) too: they share its cos/sin features.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kfm/build_registry.hpp"
#include "offline/methods/builders.hpp"
#include "offline/sampling/butterfly_angles.hpp"
#include "offline/sampling/fourier_kernels.hpp"
#include "offline/sampling/radial_laws.hpp"
#include "offline/sampling/random.hpp"
#include "offline/methods/sections.hpp"
#include "offline/methods/quadrature/simplex.hpp"
#include "offline/methods/spectral_options.hpp"
#include "format/bits.hpp"

namespace kfm::offline {

namespace {

constexpr unsigned max_resample_attempts = 10000;
// The random stream of the stratified radii, apart from the per-rule streams 3k, 3k + 1, 3k + 2.
constexpr std::uint64_t stream_stratified_radii = std::uint64_t(1) << 40;

struct quadrature_sizes {
    unsigned d = 0;
    unsigned rules = 0;       // K rules of d+1 points each
    std::size_t points = 0;   // K (d+1), or with partial_rule features / 2 (the last rule truncated)
    std::uint32_t d2 = 0;     // butterfly size: the smallest power of two >= d
};

// Each rule gives d+1 points and two outputs per point (cos/sin, or f(a)/f(-a) for arccos); the requested
// feature count is rounded to whole rules, or with partial_rule kept exact: features / 2 points, the last
// rule keeping only its first points (docs/kernels.md: still unbiased, the estimator being the mean over
// the kept points).
quadrature_sizes sizes(const build_options& o) {
    quadrature_sizes z;
    z.d = o.input_dim;
    const std::uint64_t per_rule = 2ull * (z.d + 1);
    if (o.partial_rule && (o.features < 2 || o.features % 2 != 0))
        throw std::invalid_argument("quadrature: " + option_name(o, option::partial_rule) + " needs an even number of features (two outputs per "
                                    "point), got " + std::to_string(o.features));
    const std::uint64_t rules = o.partial_rule ? (o.features + per_rule - 1) / per_rule
                                               : std::max<std::uint64_t>(1, (o.features + per_rule / 2) / per_rule);
    if (rules * per_rule > (1ull << 26))
        throw std::invalid_argument("quadrature: too many features (more than 2^26 outputs)");
    if (o.permutation == permutation_kind::blocked && (o.haar_rotations || z.d % 8 != 0))
        throw std::invalid_argument("quadrature: " + option_name(o, option::permutation) + " blocked needs " +
                                    (o.haar_rotations ? "butterfly rotations (a dense Haar rotation has no permutation)"
                                                      : "d a multiple of 8, got " + std::to_string(z.d)));
    if (o.haar_rotations && rules * (z.d + 1) * z.d > (1ull << 28))
        throw std::invalid_argument("quadrature: the dense Haar variant would exceed 1 GiB");
    z.rules = unsigned(rules);
    z.points = o.partial_rule ? std::size_t(o.features / 2) : std::size_t(z.rules) * (z.d + 1);
    z.d2 = std::uint32_t(1) << detail::ceil_log2(z.d);
    return z;
}

// Whether the rules' gather permutations are blocked (--permutation blocked, random_blocked_permutation). The
// runtime's AVX2 and AVX-512 paths then gather eight floats with one lane permute; the Gram error is slightly
// higher than with uniform ones (docs/results-quadrature.md, "Blocked permutations").
bool blocked_permutations(const build_options& o) { return o.permutation == permutation_kind::blocked; }

// The rotations Q_k of every rule: butterfly networks (angles and permutation, applied by the runtime), or
// with haar_rotations dense Haar Q_k whose rows are the points Q_k v_j (radii go to the feature scales).
struct rotations {
    std::vector<float> cos_sin;
    std::vector<std::uint32_t> permutation;
    std::vector<float> dense;
};

rotations sample_rotations(const build_options& o, const quadrature_sizes& z) {
    const unsigned d = z.d;
    const auto simplex = simplex_matrix(d);
    rotations q;
    for (unsigned k = 0; k < z.rules; ++k) {
        rng angles(derive(o.seed, 3 * k)), order(derive(o.seed, 3 * k + 1));
        if (o.haar_rotations) {
            const auto rows = haar_orthogonal_rows(d, angles);
            for (unsigned j = 0; j <= d && std::size_t(k) * (d + 1) + j < z.points; ++j)
                for (unsigned r = 0; r < d; ++r) {
                    double point = 0.0;
                    for (unsigned c = 0; c < d; ++c) point += rows[std::size_t(r) * d + c] * simplex[std::size_t(c) * (d + 1) + j];
                    q.dense.push_back(float(point));
                }
        } else {
            const auto rule_cs = butterfly_cos_sin(d, angles);
            const auto rule_perm = blocked_permutations(o) ? random_blocked_permutation(d, order)
                                                           : random_permutation(d, order);
            q.cos_sin.insert(q.cos_sin.end(), rule_cs.begin(), rule_cs.end());
            q.permutation.insert(q.permutation.end(), rule_perm.begin(), rule_perm.end());
        }
    }
    return q;
}

// The radial law the rule integrates against: the kernel's own for the gaussian, matern and
// rational-quadratic, the gaussian's for arccos (its features are of gaussian projections).
kernel_spec radial_law(const build_options& o) {
    return scale_mixture_kernel(o.kernel.kind) ? o.kernel : kernel_spec{};
}

// Matern nu <= 1: E||w||^2 is infinite, so the weights m2 / rho^2 are undefined. Rational quadratic
// alpha <= 1: m2 is finite (the rule is unbiased) but the weights' variance, m2 E||w||^{-2}, is not
// (E[1/G] diverges for G ~ Gamma(alpha <= 1)), so the error does not fall as 1/sqrt(D).
void check_radial_moments(const build_options& o) {
    const std::string others = "; build it with rff, rff-phase, orf, qmc, sorf, ssf or fastfood";
    if (o.kernel.kind == format::kernel::matern && !(o.kernel.nu > 1.0))
        throw std::invalid_argument("quadrature: matern needs nu > 1 (the stochastic radial rule weights each radius "
                                    "by E||w||^2 / rho^2, and E||w||^2 is infinite for nu <= 1)" + others);
    if (o.kernel.kind == format::kernel::rational_quadratic && !(o.kernel.alpha > 1.0))
        throw std::invalid_argument("quadrature: rational-quadratic needs alpha > 1 (the stochastic radial rule's "
                                    "weights E||w||^2 / rho^2 have infinite variance for alpha <= 1, since "
                                    "E||w||^-2 is infinite)" + others);
}

// The radial rule (--radial-rule): `shifted`, one independent size-biased radius per point (the paper's;
// auto for the gaussian and arccos), or `stratified`, a Latin sample of the size-biased law over all the
// map's points, rho_p = G^{-1}(u_p) with one u_p in each interval [i/P, (i+1)/P) (auto for matern and
// rational-quadratic, whose heavy-tailed size-biased laws make the weights m2 / rho^2 vary most). Each rho_p
// alone keeps the size-biased law and is independent of its point's direction, so the rule stays unbiased.
bool stratified_radii(const build_options& o) {
    if (o.radial_rule == radial_rule_kind::automatic)
        return (o.kernel.kind == format::kernel::matern || o.kernel.kind == format::kernel::rational_quadratic) &&
               !o.resample_radii;
    if (o.radial_rule == radial_rule_kind::shifted) return false;
    if (o.radial_rule == radial_rule_kind::stratified) {
        if (o.resample_radii)
            throw std::invalid_argument("quadrature: " + option_name(o, option::resample_radii) +
                                        " redraws a rule's radii, which the stratified radial rule cannot do; use " +
                                        option_name(o, option::radial_rule) + " shifted");
        return true;
    }
    const char* rule = choice_name(o.radial_rule);
    throw std::invalid_argument(std::string("quadrature: radial rule '") + (rule != nullptr ? rule : "?") +
                                "' is not auto, shifted or stratified");
}

// Draws the d+1 radii of one rule from the size-biased law; with `resample` redraws them until the rule's
// a0 >= 0 (the paper's biased variant).
void draw_radii(rng& r, const kernel_spec& law, unsigned d, bool resample, double* rho) {
    const double m2 = radial_second_moment(law, d);
    for (unsigned attempt = 0; attempt < max_resample_attempts; ++attempt) {
        double mean_w2 = 0.0;
        for (unsigned j = 0; j <= d; ++j) {
            rho[j] = size_biased_radius(law, d, r);
            mean_w2 += m2 / (rho[j] * rho[j]);
        }
        mean_w2 /= double(d + 1);
        if (!resample || mean_w2 <= 1.0) return;
    }
    throw std::invalid_argument("quadrature: radius resampling did not reach a0 >= 0");
}

// Per point: the scale rho_j (/ sigma for the gaussian and the other scale mixtures) and the weight
// w_j / sqrt(points), w_j = sqrt(m2) / rho_j; and the rule's constant a0 = 1 - mean w_j^2.
struct point_radii {
    std::vector<double> scales, weights;
    double a0 = 0.0;
};

point_radii sample_radii(const build_options& o, const quadrature_sizes& z) {
    const unsigned d = z.d;
    const bool gaussian = scale_mixture_kernel(o.kernel.kind);
    const kernel_spec law = radial_law(o);
    const double m2 = radial_second_moment(law, d);
    point_radii out;
    out.scales.resize(z.points);
    out.weights.resize(z.points);
    std::vector<double> rho(d + 1), strata;
    if (stratified_radii(o)) {
        rng draws(derive(o.seed, stream_stratified_radii));
        strata = stratified_uniforms(z.points, draws);
    }
    double sum_w2 = 0.0;
    for (unsigned k = 0; k < z.rules; ++k) {
        if (strata.empty()) {
            rng radii(derive(o.seed, 3 * k + 2));
            draw_radii(radii, law, d, o.resample_radii, rho.data());
        }
        for (unsigned j = 0; j <= d && std::size_t(k) * (d + 1) + j < z.points; ++j) {
            const std::size_t p = std::size_t(k) * (d + 1) + j;
            if (!strata.empty()) rho[j] = size_biased_quantile(law, d, strata[p]);
            const double w = std::sqrt(m2) / rho[j];
            sum_w2 += w * w;
            out.scales[p] = gaussian ? rho[j] / o.kernel.sigma : rho[j];
            // Gaussian: mean over the points of w^2 cos(.)cos(.) + w^2 sin(.)sin(.). Arccos: 2 * mean over
            // the 2*points (reflections included) of w^2 f f, i.e. w^2 f f / points per pair.
            out.weights[p] = w / std::sqrt(double(z.points));
        }
    }
    out.a0 = 1.0 - sum_w2 / double(z.points);
    return out;
}

// The constant feature's value squared: a0 * g(0) with g(0) = 1 (gaussian), 2 f(0)^2 = 1/2 (arccos 0,
// f(0) = 1/2 as the reference), 0 (arccos 1 and 2: no feature). Its sign is the feature's signature.
double constant_term(const build_options& o, double a0) {
    if (scale_mixture_kernel(o.kernel.kind)) return a0;
    return o.kernel.order == 0 ? 0.5 * a0 : 0.0;
}

format::map_meta quadrature_meta(const build_options& o, const quadrature_sizes& z, double constant) {
    const bool gaussian = scale_mixture_kernel(o.kernel.kind);
    const bool has_constant = constant != 0.0;
    format::map_meta m{};
    m.method = std::uint32_t(format::method::quadrature);
    m.kernel = std::uint32_t(o.kernel.kind);
    m.projection = std::uint32_t(o.haar_rotations ? format::projection::dense : format::projection::butterfly_simplex);
    m.input_dim = z.d;
    m.work_dim = z.d;
    m.projection_dim = std::uint32_t(z.points);
    m.output_dim = std::uint32_t(2 * z.points + (has_constant ? 1 : 0));
    m.negative_dim = has_constant && constant < 0.0 ? 1 : 0;
    m.output_convention = std::uint32_t(gaussian ? format::output_convention::paired_cos_sin
                                                 : format::output_convention::real);
    m.block_count = z.rules;
    m.block_size = o.haar_rotations ? 0 : z.d2;
    m.repeats = o.haar_rotations ? 0 : butterfly_repeats;
    m.kernel_order = gaussian ? 0 : o.kernel.order;
    m.method_flags = (o.resample_radii ? format::method_flag_quadrature_resampled_radii : 0) |
                     (o.haar_rotations ? format::method_flag_quadrature_haar : 0) |
                     (stratified_radii(o) ? format::method_flag_quadrature_stratified_radii : 0) |
                     (blocked_permutations(o) ? format::method_flag_quadrature_blocked_permutation : 0);
    m.kernel_sigma = gaussian ? o.kernel.sigma : 0.0;
    if (o.kernel.kind == format::kernel::matern) m.kernel_scale = o.kernel.nu;
    if (o.kernel.kind == format::kernel::rational_quadratic) m.kernel_scale = o.kernel.alpha;
    m.seed = o.seed;
    return m;
}

// One segment over all points with per-point radii and weights; arccos also writes the reflected points'
// features, and its radii fold into the weights (into one scalar weight when they are all equal).
void add_feature_sections(std::vector<section>& sections, const build_options& o, std::size_t points,
                          point_radii radii) {
    const bool gaussian = scale_mixture_kernel(o.kernel.kind);
    const format::nonlinearity kind = gaussian ? format::nonlinearity::cos_sin : arccos_nonlinearity(o.kernel.order);
    format::feature_segment seg = make_segment(kind, 0, std::uint32_t(points), 0, 1.0f, 1.0f);
    if (!gaussian) seg.flags = format::segment_flag_reflect;
    const bool folded = fold_scales_into_weights(kind, radii.scales, radii.weights);
    float common_weight = 1.0f;
    const bool scalar_weight = folded && same_f32(radii.weights, &common_weight);
    if (!folded) seg.scale_index = 0;
    if (scalar_weight) seg.weight = common_weight;
    else seg.weight_index = 0;

    auto to_f32 = [](const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); };
    sections.push_back(make_segments_section({seg}));
    if (!folded) sections.push_back(make_f32_section(format::tag::scales, to_f32(radii.scales)));
    if (!scalar_weight) sections.push_back(make_f32_section(format::tag::weights, to_f32(radii.weights)));
}

}  // namespace

map_contents build_quadrature(const build_options& o) {
    check_fourier_or_arccos(o, "quadrature");
    check_radial_moments(o);
    const quadrature_sizes z = sizes(o);
    const rotations q = sample_rotations(o, z);
    point_radii radii = sample_radii(o, z);
    const double constant = constant_term(o, radii.a0);

    map_contents map;
    map.meta = quadrature_meta(o, z, constant);
    add_feature_sections(map.sections, o, z.points, std::move(radii));
    if (o.haar_rotations) {
        map.sections.push_back(make_f32_section(format::tag::dense, q.dense));
    } else {
        map.sections.push_back(make_f32_section(format::tag::butterfly, q.cos_sin));
        map.sections.push_back(make_u32_section(format::tag::permutation, q.permutation));
    }
    if (constant != 0.0)
        map.sections.push_back(make_f32_section(format::tag::constants, {float(std::sqrt(std::fabs(constant)))}));
    return map;
}

}  // namespace kfm::offline

namespace kfm::offline {

// Whole rules of 2 (d + 1) outputs, at least one (--partial-rule: D as requested).
std::uint64_t quadrature_least_output_dim(const build_options& o) {
    const std::uint64_t f = o.features;
    if (o.partial_rule) return f;
    const std::uint64_t per_rule = 2 * (std::uint64_t{o.input_dim} + 1);
    return std::max<std::uint64_t>(1, (f + per_rule / 2) / per_rule) * per_rule;
}

}  // namespace kfm::offline
