// Builder for the QMC baseline (Avron et al. 2016): dense spectral rows w_j = sigma^{-1} Phi^{-1}(t_j)
// component-wise, t_j the shifted Halton points 1..P; paired cos/sin for the gaussian, Theta_b(w.x)
// features for arccos b. Matérn and rational quadratic: each row times its own draw of the kernel's
// frequency scale (an independent stream; the Halton points stay the Gaussian part); Laplacian: the
// Cauchy quantile sigma^{-1} tan(pi (t_j - 1/2)) component-wise. Uses the dense projection of the runtime.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <boost/math/special_functions/erf.hpp>

#include "offline/methods/builders.hpp"
#include "offline/sampling/fourier_kernels.hpp"
#include "offline/methods/qmc/halton.hpp"
#include "offline/sampling/random.hpp"
#include "offline/methods/spectral_options.hpp"

namespace kfm::offline {

map_contents build_qmc(const build_options& o) {
    check_fourier_or_arccos(o, "qmc");
    const unsigned d = o.input_dim;
    const bool gaussian = o.kernel.kind == format::kernel::gaussian;
    const bool mixture = scale_mixture_kernel(o.kernel.kind) && !gaussian;
    const bool laplacian = o.kernel.kind == format::kernel::laplacian;
    const std::uint32_t p = projections_for_features(o, "qmc");
    if (std::uint64_t(p) * d > (1ull << 28))
        throw std::invalid_argument("qmc: the dense matrix would exceed 1 GiB");

    rng r(derive(o.seed, 0));
    std::vector<double> shift(d), t(d);
    for (auto& s : shift) s = r.uniform();
    const auto primes = first_primes(d);
    const double inv_sigma = gaussian || laplacian ? 1.0 / o.kernel.sigma : 1.0;
    rng scales(derive(o.seed, 1));
    std::vector<float> w(std::size_t(p) * d);
    for (std::uint32_t j = 0; j < p; ++j) {
        shifted_halton_point(j + 1, primes, shift.data(), t.data());
        const double row_scale = mixture ? frequency_scale(o.kernel, scales) : inv_sigma;
        for (unsigned i = 0; i < d; ++i) {
            // A shifted coordinate can land exactly on 0; nudge it inside (0, 1) so the quantile is finite
            // (for the Cauchy quantile, whose tail is polynomial, finite in float too).
            const double u = std::min(std::max(t[i], laplacian ? 1e-16 : 1e-300), 1.0 - 1e-16);
            const double z = laplacian ? cauchy_quantile(u) : -std::sqrt(2.0) * boost::math::erfc_inv(2.0 * u);
            w[std::size_t(j) * d + i] = float(z * row_scale);
        }
    }

    map_contents map;
    map.meta = one_feature_per_projection_meta(o, format::projection::dense, d, p);
    const format::feature_segment seg = one_feature_per_projection_segment(o, p, 1.0f);

    map.sections.push_back(make_segments_section({seg}));
    map.sections.push_back(make_f32_section(format::tag::dense, w));
    return map;
}

}  // namespace kfm::offline
