// Builder for SRF, spherical random features for the polynomial kernel on the sphere (Pennington et al.
// 2015): radii from the fitted positive-projected surrogate (srf_fit.hpp) by inverse CDF, directions
// uniform on the sphere, phases uniform; phi = sqrt(2 K^(0) / D) cos(r u.x + b) on unit-normalised x
// (the K^(0) factor makes the estimator unbiased for the surrogate K^ rather than for K^ / K^(0)).
// --directions hadamard|butterfly replaces the dense directions by stacked H D1 H D2 H D3 blocks or
// butterfly networks (O(D log d)).
// The fit depends only on (d, p, a) and takes seconds, so it is cached for the life of the process.
#include <cmath>
#include <map>
#include <mutex>
#include <numbers>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "offline/builders.hpp"
#include "offline/random.hpp"
#include "offline/srf_fit.hpp"
#include "offline/structured_directions.hpp"

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

}  // namespace

map_contents build_srf(const build_options& o) {
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
    if (k.degree < 1 || k.degree > 100) throw std::invalid_argument("srf: polynomial-sphere degree must be in 1..100");
    if (!(k.scale >= 2.0) || !std::isfinite(k.scale))
        throw std::invalid_argument("srf: polynomial-sphere scale a must be finite and at least 2");
    if (o.directions != "dense" && o.directions != "hadamard" && o.directions != "butterfly")
        throw std::invalid_argument("srf: directions '" + o.directions +
                                    "' are not available (dense, hadamard or butterfly)");
    const unsigned d = o.input_dim, D = o.features;
    const srf_surrogate& fit = cached_surrogate(d, k.degree, k.scale);
    const tabulated_density radii = fit.radius_law();

    rng rad(derive(o.seed, stream_radii));
    rng ph(derive(o.seed, stream_phases));
    std::vector<double> r(D);
    std::vector<float> phases(D);
    for (unsigned i = 0; i < D; ++i) {
        r[i] = radii.sample(rad);
        phases[i] = static_cast<float>(2.0 * std::numbers::pi * ph.uniform());
    }
    const bool structured = o.directions != "dense";
    std::vector<float> dense, scales;
    structured_directions h;
    if (structured) {
        h = make_structured_directions(o.directions, d, D, derive(o.seed, stream_directions));
        for (double v : r) scales.push_back(static_cast<float>(v * h.row_scale()));
    } else {
        rng dirs(derive(o.seed, stream_directions));
        dense.resize(std::size_t(D) * d);
        std::vector<double> u(d);
        for (unsigned i = 0; i < D; ++i) {
            dirs.unit_sphere(u.data(), d);
            for (unsigned j = 0; j < d; ++j) dense[std::size_t(i) * d + j] = static_cast<float>(r[i] * u[j]);
        }
    }

    format::feature_segment seg = make_segment(format::nonlinearity::cos_phase, 0, D, 0, 1.0f,
                                               static_cast<float>(std::sqrt(2.0 * fit.mass / D)));
    seg.phase_index = 0;

    map_contents map;
    format::map_meta& m = map.meta;
    m.method = static_cast<std::uint32_t>(format::method::srf);
    m.kernel = static_cast<std::uint32_t>(format::kernel::polynomial_sphere);
    m.projection = static_cast<std::uint32_t>(format::projection::dense);
    m.flags = format::meta_flag_normalize_input;
    m.input_dim = d;
    m.work_dim = d;
    m.projection_dim = D;
    m.output_dim = D;
    m.output_convention = static_cast<std::uint32_t>(format::output_convention::cos_phase);
    m.kernel_order = k.degree;
    m.kernel_scale = k.scale;
    m.seed = o.seed;
    if (structured) {
        set_structured_projection(m, h, d, D);
        seg.scale_index = 0;  // per-feature radii
    }
    map.sections.push_back(make_segments_section({seg}));
    if (structured) {
        add_direction_sections(map.sections, h);
        map.sections.push_back(make_f32_section(format::tag::scales, scales));
    } else {
        map.sections.push_back(make_f32_section(format::tag::dense, dense));
    }
    map.sections.push_back(make_f32_section(format::tag::phases, phases));
    return map;
}

}  // namespace kfm::offline
