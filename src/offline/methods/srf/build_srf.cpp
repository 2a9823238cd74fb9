// Builder for SRF, spherical random features for the polynomial kernel on the sphere (Pennington et al.
// 2015): radii from the fitted positive-projected surrogate (srf_fit.hpp) by inverse CDF, directions
// uniform on the sphere, phases uniform; phi = sqrt(2 K^(0) / D) cos(r u.x + b) on unit-normalised x
// (the K^(0) factor makes the estimator unbiased for the surrogate K^ rather than for K^ / K^(0)).
// --directions hadamard|butterfly replaces the dense directions by stacked H D1 H D2 H D3 blocks or
// butterfly networks (O(D log d)).
// The fit depends only on (d, p, a) and takes seconds, so it is cached for the life of the process.
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <numbers>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "kfm/build_registry.hpp"
#include "offline/methods/builders.hpp"
#include "offline/sampling/random.hpp"
#include "offline/methods/srf/srf_fit.hpp"
#include "offline/sampling/structured_directions.hpp"

namespace kfm::offline {
namespace {

constexpr std::uint64_t max_outputs = std::uint64_t{1} << 26;
constexpr std::uint64_t max_parameter_bytes = std::uint64_t{1} << 30;
enum stream : std::uint64_t { stream_directions = 1, stream_radii = 2, stream_phases = 3 };

const srf_surrogate& cached_surrogate(unsigned d, unsigned p, double a) {
    static std::mutex mutex;
    static std::map<std::tuple<unsigned, unsigned, double>, srf_surrogate> cache;
    const std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_tuple(d, p, a);
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, fit_srf_surrogate(d, p, a)).first;
    return it->second;
}

void validate(const build_options& o) {
    if (o.method != format::method::srf)
        throw std::invalid_argument(std::string("build_srf: method '") + method_name(o.method) + "' is not srf");
    const kernel_spec& k = o.kernel;
    if (k.kind != format::kernel::polynomial_sphere)
        throw std::invalid_argument(std::string("srf: kernel '") + kernel_name(k.kind) +
                                    "' is not supported (polynomial-sphere)");
    if (o.input_dim < 2) throw std::invalid_argument("srf: input dimension must be at least 2 (points on a sphere)");
    if (o.features == 0) throw std::invalid_argument("srf: features must be at least 1");
    if (o.features > max_outputs) throw std::invalid_argument("srf: more than the limit of 2^26 outputs");
    if (std::uint64_t{o.features} * o.input_dim * sizeof(float) > max_parameter_bytes)
        throw std::invalid_argument("srf: the projection matrix would need more than 1 GiB");
    if (k.degree < 1 || k.degree > format::max_polynomial_degree) throw std::invalid_argument("srf: polynomial-sphere degree must be in 1..100");
    if (!(k.scale >= 2.0) || !std::isfinite(k.scale))
        throw std::invalid_argument("srf: polynomial-sphere scale a must be finite and at least 2");
    if (choice_name(o.directions) == nullptr)
        throw std::invalid_argument("srf: directions " + std::to_string(static_cast<int>(o.directions)) +
                                    " are not available (dense, hadamard or butterfly)");
}

// The D radii r_i, drawn from the surrogate's radial density by inverse CDF.
std::vector<double> sample_radii(const build_options& o, const srf_surrogate& fit) {
    const tabulated_density law = fit.radius_law();
    rng r(derive(o.seed, stream_radii));
    std::vector<double> radii(o.features);
    for (double& v : radii) v = law.sample(r);
    return radii;
}

// The D phases b_i, uniform on [0, 2 pi).
std::vector<float> sample_phases(const build_options& o) {
    rng r(derive(o.seed, stream_phases));
    std::vector<float> phases(o.features);
    for (float& b : phases) b = static_cast<float>(2.0 * std::numbers::pi * r.uniform());
    return phases;
}

format::map_meta srf_meta(const build_options& o, const direction_rows& rows) {
    format::map_meta m{};
    m.method = static_cast<std::uint32_t>(format::method::srf);
    m.kernel = static_cast<std::uint32_t>(format::kernel::polynomial_sphere);
    m.projection = static_cast<std::uint32_t>(format::projection::dense);
    m.flags = format::meta_flag_normalize_input;
    m.input_dim = o.input_dim;
    m.work_dim = o.input_dim;
    m.projection_dim = o.features;
    m.output_dim = o.features;
    m.output_convention = static_cast<std::uint32_t>(format::output_convention::cos_phase);
    m.kernel_order = o.kernel.degree;
    m.kernel_scale = o.kernel.scale;
    m.seed = o.seed;
    set_direction_rows_projection(m, rows, o.input_dim);
    return m;
}

// The fitted surrogate, or the options named when no finite fit exists (a huge --scale, about 1e200).
const srf_surrogate& surrogate_of(const build_options& o) {
    try {
        return cached_surrogate(o.input_dim, o.kernel.degree, o.kernel.scale);
    } catch (const std::runtime_error& e) {
        char scale[32];
        std::snprintf(scale, sizeof scale, "%g", o.kernel.scale);
        throw std::invalid_argument(std::string(e.what()) + " for " + option_name(o, option::scale) + " " + scale +
                                    " with " + option_name(o, option::degree) + " " + std::to_string(o.kernel.degree) +
                                    " and " + option_name(o, option::input_dim) + " " + std::to_string(o.input_dim) +
                                    " (no finite least-squares fit; a smaller scale fits)");
    }
}

}  // namespace

map_contents build_srf(const build_options& o) {
    validate(o);
    const srf_surrogate& fit = surrogate_of(o);
    const std::vector<double> radii = sample_radii(o, fit);
    const std::vector<float> phases = sample_phases(o);
    const direction_rows rows =
        make_direction_rows(o.directions, o.input_dim, radii, false, derive(o.seed, stream_directions));

    // phi_i = sqrt(2 K^(0) / D) cos(r_i u_i.x + b_i).
    const unsigned D = o.features;
    format::feature_segment seg = make_segment(format::nonlinearity::cos_phase, 0, D, 0, 1.0f,
                                               static_cast<float>(std::sqrt(2.0 * fit.mass / D)));
    seg.phase_index = 0;
    if (rows.structured) seg.scale_index = 0;  // per-feature radii

    map_contents map;
    map.meta = srf_meta(o, rows);
    map.sections.push_back(make_segments_section({seg}));
    add_direction_rows_sections(map.sections, rows);
    map.sections.push_back(make_f32_section(format::tag::phases, phases));
    return map;
}

}  // namespace kfm::offline

