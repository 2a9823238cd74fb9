// Builder for SSF (spherical structured features, docs/methods.md, "SSF"): the log-energy index set, a sign
// diagonal per block, the FFT twiddles, and the radial rule (gaussian) or the arc-cosine constant.
// Below, "gaussian" covers matern and rational-quadratic too: the same cos/sin features, with the radial
// rule's quantiles taken from the kernel's own radial law of ||w|| (radial_laws.hpp).
// Storage is O(d) apart from the per-point radii of the shifted and antithetic rules.
//
// The builder follows the method: options -> sizes (m, n, points, blocks) -> the optimised index set
// Lambda -> a sign diagonal per block -> the radial rule (gaussian) or arc-cosine constant -> sections.
// Points live on S^{2m-1} with 2m = d rounded up to even, so the radial law is chi(2m) and the arc-cosine
// constants use 2m: the padded coordinate of x is zero, and r v with r ~ chi(2m), v uniform on S^{2m-1}
// is exactly N(0, I_2m).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "format/fft_twiddles.hpp"
#include "offline/methods/builders.hpp"
#include "offline/sampling/fourier_kernels.hpp"
#include "offline/sampling/radial_laws.hpp"
#include "offline/sampling/random.hpp"
#include "offline/methods/spectral_options.hpp"
#include "offline/methods/ssf/ssf_energy.hpp"
#include "offline/methods/ssf/ssf_radii.hpp"
#include "format/bits.hpp"

namespace kfm::offline {
namespace {

constexpr unsigned max_log2_fft = 16;  // the FFT kernel's limit
constexpr std::uint64_t max_outputs = std::uint64_t{1} << 26;

enum stream : std::uint64_t { stream_index_set = 1, stream_signs = 2, stream_radial_shift = 3 };

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument("ssf: " + what); }

void validate(const build_options& o) {
    if (o.method != format::method::ssf) fail("build_ssf called for another method");
    if (o.input_dim == 0) fail("input dimension must be at least 1");
    if (o.features == 0) fail("features must be at least 1");
    if (o.kernel.kind == format::kernel::gaussian) {
        if (!(o.kernel.sigma > 0.0) || !std::isfinite(o.kernel.sigma)) fail("gaussian sigma must be positive and finite");
    } else if (scale_mixture_kernel(o.kernel.kind)) {
        check_fourier_kernel(o.kernel, "ssf");
    } else if (o.kernel.kind == format::kernel::arccos) {
        if (o.kernel.order > 2) fail("arccos order must be 0, 1 or 2");
    } else {
        fail(std::string("kernel '") + kernel_name(o.kernel.kind) +
             "' is not supported (gaussian, matern, rational-quadratic or arccos)");
    }
}

struct ssf_sizes {
    unsigned work_dim = 0;      // 2m: d rounded up to even
    unsigned m = 0;             // points live on S^{2m-1}
    unsigned n = 0;             // FFT length, a power of two > m
    unsigned log2_n = 0;
    radial_rule_kind radial_rule = radial_rule_kind::midpoint;  // the resolved rule (gaussian): never auto
    unsigned radial = 1;        // M radial points per point (1 for arc-cosine)
    std::uint32_t points = 0;   // P
    std::uint64_t output_dim = 0;
    std::uint32_t blocks = 0;   // each FFT block gives 2n points
};

// The default FFT length: the smallest power of two that holds every one of the `points` directions in one
// block (2n >= P), as the SSF paper's code does, so that one jointly optimised index set spreads them all.
// Stacked blocks of the smallest length share one index set and differ only in their signs: 6-14% higher
// error at D = 16d (docs/results-accuracy.md). Capped at 8x the smallest length (every D <= 16d fits, and
// the twiddles keep storage O(d)) and at m n <= 2^19, the index-set optimiser's cost per candidate (at
// d = 784, D = 8192: two blocks of 1024, the file under 16 KiB, the build about twice the smallest's);
// past the cap, stacked blocks of the capped length.
unsigned one_block_fft_size(unsigned m, unsigned smallest, std::uint64_t points) {
    constexpr std::uint64_t max_optimiser_work = std::uint64_t{1} << 19;
    unsigned n = smallest;
    while (2ull * n < points && n < 8u * smallest && n < (1u << max_log2_fft) &&
           std::uint64_t{m} * 2 * n <= max_optimiser_work)
        n *= 2;
    return n;
}

ssf_sizes sizes(const build_options& o) {
    ssf_sizes z;
    z.work_dim = o.input_dim + (o.input_dim & 1u);
    z.m = z.work_dim / 2;
    const unsigned smallest = 1u << std::clamp(detail::ceil_log2(std::uint64_t{z.m} + 1), 1u, max_log2_fft);
    const unsigned requested = o.fft_size == ssf_fft_size_smallest ? smallest : o.fft_size;  // 0: default
    if (requested != 0) {
        if (requested < 2 || !detail::is_power_of_two(requested))
            fail("FFT size " + std::to_string(requested) + " is not a power of two >= 2");
        if (requested <= z.m) fail("FFT size " + std::to_string(requested) + " must exceed d/2 = " + std::to_string(z.m));
    }
    if (smallest <= z.m) fail("FFT size above 2^16 (input dimension too large)");

    // The output is 2 M P (gaussian cos/sin) or 2 P (arc-cosine with reflections), rounded up.
    if (scale_mixture_kernel(o.kernel.kind)) {
        // auto's choice is measured against blocks of the requested length, or of the smallest by default.
        const unsigned rule_n = requested != 0 ? requested : smallest;
        const ssf_radial_choice rule = ssf_choose_radial_rule(o.radial_rule, o.radial_points, z.work_dim, o.features, 2ull * rule_n, o.kernel.kind,
                                                              o.option_names);
        z.radial_rule = rule.rule;
        z.radial = rule.radial;
    }
    const std::uint64_t per_point = 2ull * z.radial;
    const std::uint64_t points = (std::uint64_t{o.features} + per_point - 1) / per_point;
    z.output_dim = points * per_point;
    if (z.output_dim > max_outputs) fail("too many features (limit 2^26 outputs)");
    z.points = static_cast<std::uint32_t>(points);
    z.n = requested != 0 ? requested : one_block_fft_size(z.m, smallest, points);
    z.log2_n = detail::ceil_log2(z.n);
    if (z.log2_n > max_log2_fft) fail("FFT size above 2^16");
    z.blocks = static_cast<std::uint32_t>((points + 2ull * z.n - 1) / (2ull * z.n));
    return z;
}

// The index set Lambda: optimised once and shared by every block, sorted (a permutation of the
// frequencies permutes the coordinates of every point alike, an isometry), so x_l goes to the l-th
// member: the runtime expands x into the FFT buffer a register at a time.
std::vector<std::uint32_t> index_set(const build_options& o, const ssf_sizes& z) {
    ssf_optimiser_options opt;
    opt.max_sweeps = o.sweeps;
    opt.show_progress = o.show_progress;
    std::vector<std::uint32_t> set = ssf_optimise_index_set(z.m, z.n, derive(o.seed, stream_index_set), opt).index_set;
    std::sort(set.begin(), set.end());
    return set;
}

// The sign of x_i in block b, stored in frequency order (bit b 2n + Lambda_i for the real part, i < m;
// b 2n + n + Lambda_{i-m} for the imaginary part): the runtime scatters x once and flips the signs of
// each block in one vector pass. blocks * 2n < points + 2n, far below 2^32: fits any size_t.
std::vector<bool> block_signs(const build_options& o, const ssf_sizes& z, const std::vector<std::uint32_t>& lambda) {
    const std::size_t block_bits = 2 * std::size_t(z.n);
    std::vector<bool> bits(std::size_t(z.blocks) * block_bits);
    rng signs(derive(o.seed, stream_signs));
    for (std::size_t b = 0; b < z.blocks; ++b)
        for (unsigned i = 0; i < z.work_dim; ++i) {
            const std::size_t frequency = i < z.m ? lambda[i] : z.n + lambda[i - z.m];
            bits[b * block_bits + frequency] = signs.rademacher() < 0;
        }
    return bits;
}

// The feature stage: its segments and, for the per-direction radial rules, the per-point radii.
struct ssf_features {
    std::vector<format::feature_segment> segments;
    std::vector<float> scales;
};

// Gaussian: radii r_j = F^{-1}(u_j) / sigma at the radial rule's points u_j, F the radial law of ||w|| in
// 2m dimensions (chi(2m) for the gaussian).
ssf_features gaussian_features(const build_options& o, const ssf_sizes& z) {
    auto radius = [&](double u) { return static_cast<float>(radial_quantile(o.kernel, z.work_dim, u) / o.kernel.sigma); };
    const std::uint32_t p = z.points;
    const unsigned radial = z.radial;
    const float weight = static_cast<float>(1.0 / std::sqrt(double(p) * radial));
    ssf_features f;
    if (z.radial_rule == radial_rule_kind::midpoint) {
        // u_j = (j + 1/2) / M: one segment per radial point with a scalar scale, no per-point storage.
        for (unsigned j = 0; j < radial; ++j)
            f.segments.push_back(
                make_segment(format::nonlinearity::cos_sin, 0, p, 2 * j * p, radius((j + 0.5) / radial), weight));
        return f;
    }
    const std::vector<double> u = ssf_radial_quantiles(z.radial_rule, p, radial, derive(o.seed, stream_radial_shift));
    f.scales.resize(u.size());
    for (std::size_t k = 0; k < u.size(); ++k) f.scales[k] = radius(u[k]);
    format::feature_segment s = make_segment(format::nonlinearity::cos_sin, 0, p, 0, 1.0f, weight);
    s.arg_count = radial * p;  // radial passes over the projections, each with its own scales
    s.scale_index = 0;
    f.segments.push_back(s);
    return f;
}

// Arc-cosine: phi = sqrt(C_b / (2P)) [Theta_b(p_i), Theta_b(-p_i)], C_b = 2 E[r^{2b}], r ~ chi(2m).
ssf_features arccos_features(const build_options& o, const ssf_sizes& z) {
    const double dd = z.work_dim;
    const double c_b = o.kernel.order == 0 ? 2.0 : o.kernel.order == 1 ? 2.0 * dd : 2.0 * dd * (dd + 2.0);
    format::feature_segment s = make_segment(arccos_nonlinearity(o.kernel.order), 0, z.points, 0, 1.0f,
                                             static_cast<float>(std::sqrt(c_b / (2.0 * double(z.points)))));
    s.flags = format::segment_flag_reflect;
    return {{s}, {}};
}

format::map_meta ssf_meta(const build_options& o, const ssf_sizes& z) {
    format::map_meta meta{};
    meta.method = static_cast<std::uint32_t>(format::method::ssf);
    meta.kernel = static_cast<std::uint32_t>(o.kernel.kind);
    meta.projection = static_cast<std::uint32_t>(format::projection::ssf_fft);
    meta.input_dim = o.input_dim;
    meta.work_dim = z.work_dim;
    meta.projection_dim = z.points;
    meta.output_dim = static_cast<std::uint32_t>(z.output_dim);
    meta.block_count = z.blocks;
    meta.block_size = z.n;
    meta.seed = o.seed;
    if (scale_mixture_kernel(o.kernel.kind)) {
        meta.output_convention = static_cast<std::uint32_t>(format::output_convention::paired_cos_sin);
        meta.kernel_sigma = o.kernel.sigma;
        if (o.kernel.kind == format::kernel::matern) meta.kernel_scale = o.kernel.nu;
        if (o.kernel.kind == format::kernel::rational_quadratic) meta.kernel_scale = o.kernel.alpha;
        meta.radial_points = z.radial;
        if (z.radial_rule == radial_rule_kind::shifted) meta.method_flags = format::method_flag_ssf_shifted_radii;
        if (z.radial_rule == radial_rule_kind::antithetic) meta.method_flags = format::method_flag_ssf_antithetic_radii;
        if (z.radial_rule == radial_rule_kind::stratified) meta.method_flags = format::method_flag_ssf_stratified_radii;
    } else {
        meta.output_convention = static_cast<std::uint32_t>(format::output_convention::real);
        meta.kernel_order = o.kernel.order;
    }
    return meta;
}

}  // namespace

map_contents build_ssf(const build_options& o) {
    validate(o);
    const ssf_sizes z = sizes(o);
    const std::vector<std::uint32_t> lambda = index_set(o, z);
    const std::vector<bool> signs = block_signs(o, z, lambda);
    const ssf_features features =
        scale_mixture_kernel(o.kernel.kind) ? gaussian_features(o, z) : arccos_features(o, z);

    map_contents map;
    map.meta = ssf_meta(o, z);
    map.sections.push_back(make_segments_section(features.segments));
    std::vector<bool> frequency_bits(z.n);  // FREQ: Lambda as n membership bits
    for (std::uint32_t f : lambda) frequency_bits[f] = true;
    map.sections.push_back(make_bits_section(format::tag::frequencies, frequency_bits));
    map.sections.push_back(make_bits_section(format::tag::signs, signs));
    std::vector<float> twiddles(detail::fft_twiddle_floats(z.log2_n));
    detail::fft_make_twiddles(z.log2_n, twiddles.data());
    map.sections.push_back(make_f32_section(format::tag::twiddles, twiddles));
    if (!features.scales.empty()) map.sections.push_back(make_f32_section(format::tag::scales, features.scales));
    return map;
}

}  // namespace kfm::offline

namespace kfm::offline {

// Whole points of 2 M outputs (gaussian and the other scale mixtures; M = --radial-points, unknown
// before the rule resolves it when 0) or 2 (arccos).
std::uint64_t ssf_least_output_dim(const build_options& o) {
    const std::uint64_t f = o.features;
    const std::uint64_t per_point = 2 * std::uint64_t{scale_mixture_kernel(o.kernel.kind) ? o.radial_points : 1u};
    return per_point == 0 ? f : (f + per_point - 1) / per_point * per_point;
}

}  // namespace kfm::offline
