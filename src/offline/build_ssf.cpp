// Builder for SSF (spherical structured features, docs/methods.md): the log-energy index set, a sign
// diagonal per block, the FFT twiddles, and the radial rule (gaussian) or the arc-cosine constant.
// Storage is O(d) apart from the per-point radii of the shifted rule.
//
// Method flags (map_meta::method_flags): bit 0 set = shifted radial rule (else midpoint).
// Points live on S^{2m-1} with 2m = d rounded up to even, so the radial law is chi(2m) and the arc-cosine
// constants use 2m: the padded coordinate of x is zero, and r v with r ~ chi(2m), v uniform on S^{2m-1}
// is exactly N(0, I_2m).
#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/kernel_table.hpp"
#include "offline/builders.hpp"
#include "offline/random.hpp"
#include "offline/spectral_options.hpp"
#include "offline/ssf_energy.hpp"

namespace kfm::offline {
namespace {

constexpr std::uint32_t ssf_flag_shifted = 1u << 0;
constexpr unsigned max_log2_fft = 16;  // the FFT kernel's limit
constexpr std::uint64_t max_outputs = std::uint64_t{1} << 26;

enum stream : std::uint64_t { stream_index_set = 1, stream_signs = 2, stream_radial_shift = 3 };

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument("ssf: " + what); }

unsigned log2_exact(unsigned n) {
    unsigned l = 0;
    while ((1u << l) < n) ++l;
    return l;
}

}  // namespace

map_contents build_ssf(const build_options& o) {
    if (o.method != format::method::ssf) fail("build_ssf called for another method");
    if (o.input_dim == 0) fail("input dimension must be at least 1");
    if (o.features == 0) fail("features must be at least 1");
    const bool gaussian = o.kernel.kind == format::kernel::gaussian;
    if (gaussian) {
        if (!(o.kernel.sigma > 0.0) || !std::isfinite(o.kernel.sigma)) fail("gaussian sigma must be positive and finite");
        if (o.radial_points == 0) fail("--radial-points must be at least 1");
        if (o.radial_rule != "midpoint" && o.radial_rule != "shifted")
            fail("radial rule '" + o.radial_rule + "' is not midpoint or shifted");
    } else if (o.kernel.kind == format::kernel::arccos) {
        if (o.kernel.order > 2) fail("arccos order must be 0, 1 or 2");
    } else {
        fail(std::string("kernel '") + kernel_name(o.kernel.kind) + "' is not supported (gaussian or arccos)");
    }

    const unsigned work_dim = o.input_dim + (o.input_dim & 1u);
    const unsigned m = work_dim / 2;
    unsigned n = o.fft_size;
    if (n == 0) {
        n = 2;
        while (n <= m && n < (1u << max_log2_fft)) n *= 2;
    }
    if (n < 2 || (n & (n - 1)) != 0) fail("FFT size " + std::to_string(n) + " is not a power of two >= 2");
    if (n <= m) fail("FFT size " + std::to_string(n) + " must exceed d/2 = " + std::to_string(m));
    const unsigned log2_n = log2_exact(n);
    if (log2_n > max_log2_fft) fail("FFT size above 2^16 (input dimension too large)");

    // Points P; the output is 2 M P (gaussian cos/sin) or 2 P (arc-cosine with reflections), rounded up.
    const unsigned radial = gaussian ? o.radial_points : 1;
    const std::uint64_t per_point = 2ull * radial;
    const std::uint64_t points = (std::uint64_t{o.features} + per_point - 1) / per_point;
    const std::uint64_t output_dim = points * per_point;
    if (output_dim > max_outputs) fail("too many features (limit 2^26 outputs)");
    const std::uint64_t blocks = (points + 2ull * n - 1) / (2ull * n);

    // Index set: optimised once and shared by every block, sorted (a permutation of the frequencies
    // permutes the coordinates of every point alike, an isometry) and stored as n membership bits, so
    // x_l goes to the l-th set bit: the runtime expands x into the FFT buffer a register at a time.
    ssf_optimiser_options opt;
    opt.max_sweeps = o.sweeps;
    opt.show_progress = o.show_progress;
    std::vector<std::uint32_t> index_set = ssf_optimise_index_set(m, n, derive(o.seed, stream_index_set), opt).index_set;
    std::sort(index_set.begin(), index_set.end());

    // The sign of x_i in block b, stored in frequency order (bit b 2n + Lambda_i for the real part, i < m;
    // b 2n + n + Lambda_{i-m} for the imaginary part): the runtime scatters x once and flips the signs of
    // each block in one vector pass. blocks * 2n < points + 2n, far below 2^32: fits any size_t.
    const std::size_t block_bits = 2 * std::size_t(n);
    std::vector<bool> sign_bits(static_cast<std::size_t>(blocks) * block_bits);
    rng signs(derive(o.seed, stream_signs));
    for (std::size_t b = 0; b < blocks; ++b)
        for (unsigned i = 0; i < work_dim; ++i) {
            const std::size_t frequency = i < m ? index_set[i] : n + index_set[i - m];
            sign_bits[b * block_bits + frequency] = signs.rademacher() < 0;
        }

    std::vector<float> twiddles(detail::fft_twiddle_floats(log2_n));
    detail::fft_make_twiddles(log2_n, twiddles.data());

    map_contents map;
    format::map_meta& meta = map.meta;
    meta.method = static_cast<std::uint32_t>(format::method::ssf);
    meta.kernel = static_cast<std::uint32_t>(o.kernel.kind);
    meta.projection = static_cast<std::uint32_t>(format::projection::ssf_fft);
    meta.input_dim = o.input_dim;
    meta.work_dim = work_dim;
    meta.projection_dim = static_cast<std::uint32_t>(points);
    meta.output_dim = static_cast<std::uint32_t>(output_dim);
    meta.block_count = static_cast<std::uint32_t>(blocks);
    meta.block_size = n;
    meta.seed = o.seed;

    const auto p = static_cast<std::uint32_t>(points);
    std::vector<format::feature_segment> segments;
    std::vector<float> scales;
    if (gaussian) {
        meta.output_convention = static_cast<std::uint32_t>(format::output_convention::paired_cos_sin);
        meta.kernel_sigma = o.kernel.sigma;
        meta.radial_points = radial;
        const boost::math::chi_squared_distribution<double> chi2(work_dim);
        auto radius = [&](double u) { return std::sqrt(boost::math::quantile(chi2, u)); };
        const float weight = static_cast<float>(1.0 / std::sqrt(double(points) * radial));
        if (o.radial_rule == "midpoint") {
            // One segment per radial point with a scalar scale: no per-point storage.
            for (unsigned j = 0; j < radial; ++j) {
                segments.push_back(make_segment(format::nonlinearity::cos_sin, 0, p, 2 * j * p,
                                                static_cast<float>(radius((j + 0.5) / radial) / o.kernel.sigma),
                                                weight));
            }
        } else {
            // u_ij = (j + U_i) / M with one U_i per point: unbiased, and points stay independent.
            meta.method_flags = ssf_flag_shifted;
            rng shift(derive(o.seed, stream_radial_shift));
            scales.resize(std::size_t(radial) * p);
            for (std::uint32_t i = 0; i < p; ++i) {
                const double u = shift.uniform_open();
                for (unsigned j = 0; j < radial; ++j)
                    scales[std::size_t(j) * p + i] = static_cast<float>(radius((j + u) / radial) / o.kernel.sigma);
            }
            format::feature_segment s = make_segment(format::nonlinearity::cos_sin, 0, p, 0, 1.0f, weight);
            s.arg_count = radial * p;  // radial passes over the projections, each with its own scales
            s.scale_index = 0;
            segments.push_back(s);
        }
    } else {
        // phi = sqrt(C_b / (2P)) [Theta_b(p_i), Theta_b(-p_i)], C_b = 2 E[r^{2b}], r ~ chi(2m).
        meta.output_convention = static_cast<std::uint32_t>(format::output_convention::real);
        meta.kernel_order = o.kernel.order;
        const double dd = work_dim;
        const double c_b = o.kernel.order == 0 ? 2.0 : o.kernel.order == 1 ? 2.0 * dd : 2.0 * dd * (dd + 2.0);
        format::feature_segment s = make_segment(arccos_nonlinearity(o.kernel.order), 0, p, 0, 1.0f,
                                                 static_cast<float>(std::sqrt(c_b / (2.0 * double(points)))));
        s.flags = format::segment_flag_reflect;
        segments.push_back(s);
    }

    map.sections.push_back(make_segments_section(segments));
    std::vector<bool> frequency_bits(n);
    for (std::uint32_t f : index_set) frequency_bits[f] = true;
    map.sections.push_back(make_bits_section(format::tag::frequencies, frequency_bits));
    map.sections.push_back(make_bits_section(format::tag::signs, sign_bits));
    map.sections.push_back(make_f32_section(format::tag::twiddles, twiddles));
    if (!scales.empty()) map.sections.push_back(make_f32_section(format::tag::scales, scales));
    return map;
}

}  // namespace kfm::offline
