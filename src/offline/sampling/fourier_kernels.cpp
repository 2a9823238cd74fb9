// Spectral laws of the shift-invariant kernels (see the header; docs/kernels.md has the maths).
#include "offline/sampling/fourier_kernels.hpp"

#include "kfm/build_registry.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace kfm::offline {

bool fourier_kernel(format::kernel k) {
    return scale_mixture_kernel(k) || k == format::kernel::laplacian;
}

bool scale_mixture_kernel(format::kernel k) {
    return k == format::kernel::gaussian || k == format::kernel::matern || k == format::kernel::rational_quadratic;
}

void check_fourier_kernel(const kernel_spec& k, const std::string& method) {
    const std::string name = kernel_name(k.kind);
    if (!fourier_kernel(k.kind)) throw std::invalid_argument(method + ": kernel '" + name + "' has no spectral law");
    const bool length = k.kind == format::kernel::matern || k.kind == format::kernel::rational_quadratic;
    if (!(k.sigma > 0.0) || !std::isfinite(k.sigma))
        throw std::invalid_argument(method + ": " + name + (length ? " length" : " sigma") +
                                    " must be positive and finite");
    if (k.kind == format::kernel::matern && !(k.nu > 0.0 && k.nu <= max_matern_nu))
        throw std::invalid_argument(method + ": matern nu must be in (0, 100]");
    if (k.kind == format::kernel::rational_quadratic && (!(k.alpha > 0.0) || !std::isfinite(k.alpha)))
        throw std::invalid_argument(method + ": rational-quadratic alpha must be positive and finite");
}

double frequency_scale(const kernel_spec& k, rng& r) {
    switch (k.kind) {
        case format::kernel::gaussian: return 1.0 / k.sigma;
        case format::kernel::matern: return std::sqrt(k.nu / r.gamma(k.nu)) / k.sigma;
        case format::kernel::rational_quadratic: return std::sqrt(r.gamma(k.alpha) / k.alpha) / k.sigma;
        default: break;
    }
    throw std::invalid_argument(std::string("kernel '") + kernel_name(k.kind) + "' is not a Gaussian scale mixture");
}

double cauchy_quantile(double u) { return std::tan(std::numbers::pi * (u - 0.5)); }

double standard_cauchy(rng& r) { return cauchy_quantile(r.uniform_open()); }

namespace {

// The methods of the registry that build `k`, in registry order.
std::vector<format::method> methods_for(format::kernel k) {
    std::vector<format::method> out;
    for (const method_row& m : method_table())
        if (m.kernels & kernel_bit(k)) out.push_back(m.id);
    return out;
}

}  // namespace

void check_method_supports(format::method m, format::kernel k) {
    if (k != format::kernel::matern && k != format::kernel::rational_quadratic && k != format::kernel::laplacian)
        return;
    const std::vector<format::method> methods = methods_for(k);
    std::string list;
    for (std::size_t i = 0; i < methods.size(); ++i) {
        if (methods[i] == m) return;
        list += (i == 0 ? "" : i + 1 == methods.size() ? " or " : ", ") + std::string(method_name(methods[i]));
    }
    std::string why;
    if (k == format::kernel::laplacian && (m == format::method::orf || m == format::method::sorf ||
                                           m == format::method::ssf || m == format::method::quadrature ||
                                           m == format::method::fastfood))
        why = " (its spectral law, independent Cauchy coordinates, is not rotation-invariant, so orthogonal "
              "directions with a radial law do not approximate it)";
    if (k == format::kernel::laplacian && m == format::method::nystroem)
        why = " (its L1 distance does not come from the dot products the runtime computes)";
    throw std::invalid_argument(std::string(method_name(m)) + ": kernel '" + kernel_name(k) +
                                "' is not supported by " + method_name(m) + why + "; build it with " + list);
}

}  // namespace kfm::offline
