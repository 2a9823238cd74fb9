// Shared option checks for the quadrature-family builders (see the header).
#include "offline/methods/spectral_options.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "offline/sampling/fourier_kernels.hpp"

namespace kfm::offline {

void check_gaussian_or_arccos(const build_options& o, const char* method) {
    const std::string m(method);
    if (o.input_dim == 0) throw std::invalid_argument(m + ": input dimension must be at least 1");
    if (o.features == 0) throw std::invalid_argument(m + ": feature count must be at least 1");
    const auto& k = o.kernel;
    if (k.kind == format::kernel::gaussian) {
        if (!(k.sigma > 0.0) || !std::isfinite(k.sigma))
            throw std::invalid_argument(m + ": gaussian sigma must be finite and > 0");
    } else if (k.kind == format::kernel::arccos) {
        if (k.order > 2) throw std::invalid_argument(m + ": arccos order must be 0, 1 or 2");
    } else {
        throw std::invalid_argument(m + ": kernel '" + kernel_name(k.kind) +
                                    "' is not supported (gaussian or arccos only)");
    }
}

void check_fourier_or_arccos(const build_options& o, const char* method) {
    if (o.kernel.kind == format::kernel::gaussian || !fourier_kernel(o.kernel.kind))
        return check_gaussian_or_arccos(o, method);
    const std::string m(method);
    if (o.input_dim == 0) throw std::invalid_argument(m + ": input dimension must be at least 1");
    if (o.features == 0) throw std::invalid_argument(m + ": feature count must be at least 1");
    check_method_supports(o.method, o.kernel.kind);
    check_fourier_kernel(o.kernel, m);
}

bool reflected_arccos(const build_options& o, const char* method) {
    if (choice_name(o.arccos_pairs) == nullptr)
        throw std::invalid_argument(std::string(method) + ": unknown arccos pairs value " +
                                    std::to_string(static_cast<int>(o.arccos_pairs)) + " (reflected or plain)");
    return o.kernel.kind == format::kernel::arccos && o.arccos_pairs == arccos_pairs_kind::reflected;
}

std::uint32_t projections_for_features(const build_options& o, const char* method) {
    if (o.features > (1u << 26))
        throw std::invalid_argument(std::string(method) + ": too many features (more than 2^26 outputs)");
    if (fourier_kernel(o.kernel.kind)) return std::max(1u, o.features / 2);
    if (reflected_arccos(o, method)) return (o.features + 1) / 2;
    return o.features;
}

format::nonlinearity arccos_nonlinearity(unsigned order) {
    switch (order) {
        case 0: return format::nonlinearity::step;
        case 1: return format::nonlinearity::relu;
        case 2: return format::nonlinearity::relu2;
        default: break;
    }
    throw std::invalid_argument("arccos order must be 0, 1 or 2");
}

namespace {
std::uint32_t outputs(const build_options& o, std::uint32_t p, bool random_phase) {
    const bool two_per_projection = fourier_kernel(o.kernel.kind) ? !random_phase
                                                                              : reflected_arccos(o, "build");
    return two_per_projection ? 2 * p : p;
}
}  // namespace

format::map_meta one_feature_per_projection_meta(const build_options& o, format::projection kind,
                                                 std::uint32_t work_dim, std::uint32_t p, bool random_phase) {
    const bool gaussian = fourier_kernel(o.kernel.kind);
    format::map_meta m{};
    m.method = static_cast<std::uint32_t>(o.method);
    m.kernel = static_cast<std::uint32_t>(o.kernel.kind);
    m.projection = static_cast<std::uint32_t>(kind);
    m.input_dim = o.input_dim;
    m.work_dim = work_dim;
    m.projection_dim = p;
    m.output_dim = outputs(o, p, random_phase);
    m.output_convention = static_cast<std::uint32_t>(
        !gaussian ? format::output_convention::real
                  : random_phase ? format::output_convention::cos_phase : format::output_convention::paired_cos_sin);
    m.kernel_order = gaussian ? 0 : o.kernel.order;
    m.kernel_sigma = gaussian ? o.kernel.sigma : 0.0;
    if (o.kernel.kind == format::kernel::matern) m.kernel_scale = o.kernel.nu;
    if (o.kernel.kind == format::kernel::rational_quadratic) m.kernel_scale = o.kernel.alpha;
    m.seed = o.seed;
    return m;
}

format::feature_segment one_feature_per_projection_segment(const build_options& o, std::uint32_t p, float scale,
                                                           bool random_phase) {
    const bool gaussian = fourier_kernel(o.kernel.kind);
    const format::nonlinearity kind = !gaussian      ? arccos_nonlinearity(o.kernel.order)
                                      : random_phase ? format::nonlinearity::cos_phase
                                                     : format::nonlinearity::cos_sin;
    format::feature_segment seg =
        make_segment(kind, 0, p, 0, scale, static_cast<float>(std::sqrt(2.0 / outputs(o, p, random_phase))));
    if (kind == format::nonlinearity::cos_phase) seg.phase_index = 0;
    if (reflected_arccos(o, "build")) seg.flags = format::segment_flag_reflect;
    return seg;
}

}  // namespace kfm::offline
