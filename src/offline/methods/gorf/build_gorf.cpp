// Builder for GORF and GRFF: signed random Fourier features for indefinite stationary kernels.
// The kernel is split (Jordan) into positive_mass k_+ - negative_mass k_-; s rows W_+ and s rows W_- give
//   phi = s^{-1/2} [sqrt(m+) cos(W+ x), sqrt(m+) sin(W+ x) | sqrt(m-) cos(W- x), sqrt(m-) sin(W- x)]
// with the last 2s outputs of signature -1 (negative_dim), so D = 4s. GRFF draws directions iid;
// GORF takes all 2s directions from shared Haar-orthogonal d x d blocks (rows of W+ first, then W-),
// or with --directions hadamard|butterfly from stacked H D1 H D2 H D3 blocks or butterfly networks
// (structured_directions.hpp).
// Radii: delta-gaussian and the signed-mixture model are Gaussian mixtures split by coefficient sign
// (component chosen by |c_i|, radius chi(d)/sigma_i); bessel-1d samples the paper's tabulated density.
// The builder: options -> the signed spectral law (k_+, k_-) -> 2s radii -> 2s directions -> two segments.
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "offline/methods/builders.hpp"
#include "offline/sampling/random.hpp"
#include "offline/sampling/spectral_signed.hpp"
#include "offline/sampling/structured_directions.hpp"

namespace kfm::offline {
namespace {

constexpr std::uint64_t max_outputs = std::uint64_t{1} << 26;
constexpr std::uint64_t max_parameter_bytes = std::uint64_t{1} << 30;
constexpr std::uint32_t gorf_flag_signed_mixture = 1u << 0;

enum stream : std::uint64_t { stream_directions = 1, stream_radii_positive = 2, stream_radii_negative = 3 };

// One signed part of the spectral measure as a law of ||w||: a Gaussian mixture (components with their
// |weights| and sigmas) or a tabulated density.
struct radial_law {
    std::vector<double> weights, sigmas;  // mixture form
    std::unique_ptr<tabulated_density> table;

    double mass() const {
        double m = 0.0;
        for (double w : weights) m += w;
        return m;
    }
    double sample(rng& r, unsigned d) const {
        if (table) return table->sample(r);
        double u = r.uniform() * mass();
        std::size_t i = 0;
        while (i + 1 < weights.size() && u >= weights[i]) u -= weights[i++];
        return r.chi(d) / sigmas[i];
    }
};

struct signed_law {
    radial_law positive, negative;
    double positive_mass = 0.0, negative_mass = 0.0;
};

signed_law split_mixture(const std::vector<double>& c, const std::vector<double>& sigma) {
    signed_law law;
    for (std::size_t i = 0; i < c.size(); ++i) {
        radial_law& part = c[i] > 0 ? law.positive : law.negative;
        if (c[i] == 0.0) continue;
        part.weights.push_back(std::fabs(c[i]));
        part.sigmas.push_back(sigma[i]);
    }
    law.positive_mass = law.positive.mass();
    law.negative_mass = law.negative.mass();
    // An empty part keeps a unit-width law so the map keeps its shape; its block gets weight 0.
    for (radial_law* part : {&law.positive, &law.negative})
        if (part->weights.empty()) {
            part->weights.push_back(1.0);
            part->sigmas.push_back(1.0);
        }
    return law;
}

void validate(const build_options& o) {
    const std::string name = method_name(o.method);
    if (o.input_dim == 0) throw std::invalid_argument(name + ": input dimension must be at least 1");
    if (o.features == 0) throw std::invalid_argument(name + ": features must be at least 1");
    if (o.features > max_outputs) throw std::invalid_argument(name + ": more than the limit of 2^26 outputs");
    if (std::uint64_t{o.features / 2} * o.input_dim * sizeof(float) > max_parameter_bytes)
        throw std::invalid_argument(name + ": the projection matrix would need more than 1 GiB");
    const kernel_spec& k = o.kernel;
    switch (k.kind) {
        case format::kernel::delta_gaussian: {
            if (k.weights.empty() || k.weights.size() != k.sigmas.size())
                throw std::invalid_argument(name + ": delta-gaussian needs as many weights as sigmas (at least one)");
            bool any = false;
            for (std::size_t i = 0; i < k.weights.size(); ++i) {
                if (!std::isfinite(k.weights[i]) || !std::isfinite(k.sigmas[i]) || !(k.sigmas[i] > 0.0))
                    throw std::invalid_argument(name + ": delta-gaussian weights must be finite and sigmas positive");
                any = any || k.weights[i] != 0.0;
            }
            if (!any) throw std::invalid_argument(name + ": delta-gaussian weights are all zero");
            break;
        }
        case format::kernel::polynomial_sphere:
            if (k.degree < 1 || k.degree > format::max_polynomial_degree)
                throw std::invalid_argument(name + ": polynomial-sphere degree must be in 1..100");
            if (!(k.scale >= 2.0) || !std::isfinite(k.scale))
                throw std::invalid_argument(name + ": polynomial-sphere scale a must be finite and at least 2");
            if (choice_name(o.spectral) == nullptr)
                throw std::invalid_argument(name + ": unknown spectral model " +
                                            std::to_string(static_cast<int>(o.spectral)) + " (bessel-1d or signed-mixture)");
            break;
        default:
            throw std::invalid_argument(name + ": kernel '" + kernel_name(k.kind) +
                                        "' is not supported (delta-gaussian or polynomial-sphere)");
    }
    const bool structured = o.directions == directions_kind::hadamard || o.directions == directions_kind::butterfly;
    if (o.directions != directions_kind::dense && !(structured && o.method == format::method::gorf))
        throw std::invalid_argument(name + ": directions '" + (structured ? choice_name(o.directions) : "?") +
                                    "' are not available (" +
                                    (o.method == format::method::gorf ? "dense, hadamard or butterfly"
                                                                      : "dense: GRFF is iid") + ")");
}

signed_law spectral_law(const build_options& o) {
    const kernel_spec& k = o.kernel;
    if (k.kind == format::kernel::delta_gaussian) return split_mixture(k.weights, k.sigmas);
    if (o.spectral == spectral_kind::signed_mixture) {
        const signed_mixture_fit fit = fit_signed_mixture(k.degree, k.scale);
        return split_mixture(fit.weights, fit.sigmas);
    }
    signed_radial_model model = bessel_1d_model(o.input_dim, k.degree, k.scale);
    signed_law law;
    law.positive.table = std::make_unique<tabulated_density>(std::move(model.positive));
    law.negative.table = std::make_unique<tabulated_density>(std::move(model.negative));
    law.positive_mass = model.positive_mass;
    law.negative_mass = model.negative_mass;
    return law;
}

// The 2s radii: the first s from the positive law, the rest from the negative law.
std::vector<double> sample_radii(const build_options& o, const signed_law& law, unsigned s) {
    rng positive(derive(o.seed, stream_radii_positive));
    rng negative(derive(o.seed, stream_radii_negative));
    std::vector<double> radii(2 * s);
    for (unsigned i = 0; i < 2 * s; ++i)
        radii[i] = i < s ? law.positive.sample(positive, o.input_dim) : law.negative.sample(negative, o.input_dim);
    return radii;
}

format::map_meta gorf_meta(const build_options& o, const direction_rows& rows, unsigned s) {
    format::map_meta m{};
    m.method = static_cast<std::uint32_t>(o.method);
    m.kernel = static_cast<std::uint32_t>(o.kernel.kind);
    m.projection = static_cast<std::uint32_t>(format::projection::dense);
    m.input_dim = o.input_dim;
    m.work_dim = o.input_dim;
    m.projection_dim = 2 * s;
    m.output_dim = 4 * s;
    m.negative_dim = 2 * s;
    m.output_convention = static_cast<std::uint32_t>(format::output_convention::paired_cos_sin);
    m.seed = o.seed;
    if (o.kernel.kind == format::kernel::polynomial_sphere) {
        m.flags = format::meta_flag_normalize_input;
        m.kernel_order = o.kernel.degree;
        m.kernel_scale = o.kernel.scale;
        if (o.spectral == spectral_kind::signed_mixture) m.method_flags = format::method_flag_gorf_signed_mixture;
    } else {
        m.mixture_count = static_cast<std::uint32_t>(o.kernel.weights.size());
    }
    set_direction_rows_projection(m, rows, o.input_dim);
    return m;
}

// Delta-gaussian: the KPAR section (c_1..c_n, sigma_1..sigma_n); empty for the polynomial kernel.
std::vector<double> kernel_params(const kernel_spec& k) {
    if (k.kind != format::kernel::delta_gaussian) return {};
    std::vector<double> params = k.weights;
    params.insert(params.end(), k.sigmas.begin(), k.sigmas.end());
    return params;
}

format::feature_segment cos_sin_segment(unsigned proj_begin, unsigned count, unsigned out_begin, double weight) {
    return make_segment(format::nonlinearity::cos_sin, proj_begin, count, out_begin, 1.0f,
                        static_cast<float>(weight));
}

}  // namespace

map_contents build_gorf(const build_options& o) {
    if (o.method != format::method::gorf && o.method != format::method::grff)
        throw std::invalid_argument(std::string("build_gorf: method '") + method_name(o.method) + "' is not gorf or grff");
    validate(o);
    // Cos/sin pairs in a positive and a negative block: D rounds down to a multiple of 4, and up to 4.
    const unsigned s = std::max(1u, o.features / 4);
    const signed_law law = spectral_law(o);
    const std::vector<double> radii = sample_radii(o, law, s);
    const direction_rows rows = make_direction_rows(o.directions, o.input_dim, radii, o.method == format::method::gorf,
                                                    derive(o.seed, stream_directions));

    // The positive block sqrt(m+ / s) [cos | sin](W+ x), then the negative block (signature -1).
    std::vector<format::feature_segment> segments = {
        cos_sin_segment(0, s, 0, std::sqrt(law.positive_mass / s)),
        cos_sin_segment(s, s, 2 * s, std::sqrt(law.negative_mass / s))};
    if (rows.structured) {
        segments[0].scale_index = 0;  // per-row radii
        segments[1].scale_index = s;
    }

    map_contents map;
    map.meta = gorf_meta(o, rows, s);
    map.sections.push_back(make_segments_section(segments));
    const std::vector<double> params = kernel_params(o.kernel);
    if (!params.empty()) map.sections.push_back(make_f64_section(format::tag::kernel_params, params));
    add_direction_rows_sections(map.sections, rows);
    return map;
}

}  // namespace kfm::offline
