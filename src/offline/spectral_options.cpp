// Shared option checks for the quadrature-family builders (see the header).
#include "offline/spectral_options.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

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

std::uint32_t projections_for_features(const build_options& o, const char* method) {
    if (o.features > (1u << 26))
        throw std::invalid_argument(std::string(method) + ": too many features (more than 2^26 outputs)");
    if (o.kernel.kind == format::kernel::gaussian) return std::max(1u, o.features / 2);
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

}  // namespace kfm::offline
