// Exact kernel values (the reference every approximation is measured against), in double precision.
// Formulas as in docs/methods.md, "Exact kernels". Conventions for degenerate inputs:
//  - arccos: a zero vector gives k = 0 for every order (the integral form 2 E[Θ_b(w.x) Θ_b(w.y)] is 0
//    because Θ_b(0) = 0, matching the features: step(0) = relu(0) = 0).
//  - polynomial-sphere: inputs are scaled to unit norm, a zero vector stays zero (as the runtime does),
//    and the value is (1 - |x^ - y^|^2 / a^2)^p, the shift-invariant form the Fourier-type maps (SRF,
//    GORF) approximate. On the sphere it equals alpha (q + x^.y^)^p; only with a zero input do they differ.
#include <cmath>
#include <numbers>

#include <boost/math/policies/policy.hpp>
#include <boost/math/special_functions/bessel.hpp>
#include <stdexcept>
#include <string>

#include "kfm/offline.hpp"
#include "offline/sampling/fourier_kernels.hpp"

namespace kfm::offline {

namespace {

void require_positive_finite(double v, const char* what) {
    if (!(v > 0.0) || !std::isfinite(v))
        throw std::invalid_argument(std::string(what) + " must be positive and finite");
}

void validate(const kernel_spec& k) {
    switch (k.kind) {
        case format::kernel::gaussian:
            require_positive_finite(k.sigma, "gaussian sigma");
            return;
        case format::kernel::arccos:
            if (k.order > 2) throw std::invalid_argument("arccos order must be 0, 1 or 2");
            return;
        case format::kernel::polynomial_sphere:
            if (k.degree < 1) throw std::invalid_argument("polynomial-sphere degree must be at least 1");
            if (!(k.scale >= 2.0) || !std::isfinite(k.scale))
                throw std::invalid_argument("polynomial-sphere scale a must be finite and at least 2");
            return;
        case format::kernel::delta_gaussian:
            if (k.weights.empty() || k.weights.size() != k.sigmas.size())
                throw std::invalid_argument(
                    "delta-gaussian needs the same nonzero number of weights and sigmas");
            for (double c : k.weights)
                if (!std::isfinite(c)) throw std::invalid_argument("delta-gaussian weights must be finite");
            for (double s : k.sigmas) require_positive_finite(s, "delta-gaussian sigma");
            return;
        case format::kernel::matern:
        case format::kernel::rational_quadratic:
        case format::kernel::laplacian:
            check_fourier_kernel(k, "exact kernel");
            return;
    }
    throw std::invalid_argument("unknown kernel");
}

double squared_distance(const double* x, const double* y, unsigned d) {
    double s = 0.0;
    for (unsigned i = 0; i < d; ++i) {
        const double t = x[i] - y[i];
        s += t * t;
    }
    return s;
}

double dot(const double* x, const double* y, unsigned d) {
    double s = 0.0;
    for (unsigned i = 0; i < d; ++i) s += x[i] * y[i];
    return s;
}

double arccos_kernel(unsigned order, const double* x, const double* y, unsigned d) {
    const double nx = std::sqrt(dot(x, x, d));
    const double ny = std::sqrt(dot(y, y, d));
    if (nx == 0.0 || ny == 0.0) return 0.0;
    const double c = std::fmin(1.0, std::fmax(-1.0, dot(x, y, d) / (nx * ny)));
    const double theta = std::acos(c);
    const double s = std::sin(theta);
    const double pi = std::numbers::pi;
    double j = 0.0;
    switch (order) {
        case 0: j = pi - theta; break;
        case 1: j = s + (pi - theta) * c; break;
        default: j = 3.0 * s * c + (pi - theta) * (1.0 + 2.0 * c * c); break;
    }
    return std::pow(nx * ny, static_cast<double>(order)) * j / pi;
}

double polynomial_sphere_kernel(const kernel_spec& k, const double* x, const double* y, unsigned d) {
    const double nx = std::sqrt(dot(x, x, d));
    const double ny = std::sqrt(dot(y, y, d));
    const double sx = nx > 0.0 ? 1.0 / nx : 0.0;
    const double sy = ny > 0.0 ? 1.0 / ny : 0.0;
    double dist2 = 0.0;
    for (unsigned i = 0; i < d; ++i) {
        const double t = x[i] * sx - y[i] * sy;
        dist2 += t * t;
    }
    return std::pow(1.0 - dist2 / (k.scale * k.scale), static_cast<double>(k.degree));
}

// 2^(1-nu) / Gamma(nu) t^nu K_nu(t), t = sqrt(2 nu) r / l, in logarithms (Gamma(nu) and K_nu(t) overflow
// for large nu). K_nu(t) overflows a double only for nu > 2 at t < 0.06 (nu <= 100), or for nu <= 2 at
// t < 1e-150; there the series 1 - t^2/(4(nu-1)) + t^4/(32(nu-1)(nu-2)) (resp. 1) is exact to double.
double matern_kernel(double nu, double length, double r) {
    if (r == 0.0) return 1.0;
    const double t = std::sqrt(2.0 * nu) * r / length;
    using no_throw = boost::math::policies::policy<boost::math::policies::overflow_error<boost::math::policies::ignore_error>>;
    const double k = boost::math::cyl_bessel_k(nu, t, no_throw());
    if (k == 0.0) return 0.0;
    if (std::isinf(k)) {
        if (nu <= 2.0) return 1.0;
        const double t2 = t * t;
        return 1.0 - t2 / (4.0 * (nu - 1.0)) + t2 * t2 / (32.0 * (nu - 1.0) * (nu - 2.0));
    }
    return std::exp((1.0 - nu) * std::numbers::ln2 - std::lgamma(nu) + nu * std::log(t) + std::log(k));
}

double l1_distance(const double* x, const double* y, unsigned d) {
    double s = 0.0;
    for (unsigned i = 0; i < d; ++i) s += std::fabs(x[i] - y[i]);
    return s;
}

}  // namespace

double exact_kernel(const kernel_spec& kernel, const double* x, const double* y, unsigned d) {
    validate(kernel);
    switch (kernel.kind) {
        case format::kernel::gaussian:
            return std::exp(-squared_distance(x, y, d) / (2.0 * kernel.sigma * kernel.sigma));
        case format::kernel::arccos:
            return arccos_kernel(kernel.order, x, y, d);
        case format::kernel::polynomial_sphere:
            return polynomial_sphere_kernel(kernel, x, y, d);
        case format::kernel::delta_gaussian: {
            const double r2 = squared_distance(x, y, d);
            double sum = 0.0;
            for (std::size_t i = 0; i < kernel.weights.size(); ++i)
                sum += kernel.weights[i] * std::exp(-r2 / (2.0 * kernel.sigmas[i] * kernel.sigmas[i]));
            return sum;
        }
        case format::kernel::matern:
            return matern_kernel(kernel.nu, kernel.sigma, std::sqrt(squared_distance(x, y, d)));
        case format::kernel::rational_quadratic:
            return std::pow(1.0 + squared_distance(x, y, d) / (2.0 * kernel.alpha * kernel.sigma * kernel.sigma),
                            -kernel.alpha);
        case format::kernel::laplacian:
            return std::exp(-l1_distance(x, y, d) / kernel.sigma);
    }
    throw std::invalid_argument("unknown kernel");
}

}  // namespace kfm::offline
