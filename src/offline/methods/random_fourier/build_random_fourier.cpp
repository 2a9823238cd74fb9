// Builder for the dense random-feature baselines: RFF (paired cos/sin), RFF with random phase, and ORF
// (Haar-orthogonal blocks with chi(d) row norms), for the gaussian and arc-cosine kernels (reflected
// pairs [f(w.x), f(-w.x)] by default, see build_options::arccos_pairs), the Matérn and rational-quadratic
// kernels (each row times its own draw of the kernel's frequency scale) and, for rff / rff-phase, the
// Laplacian (iid Cauchy entries). All use the dense projection t = W x with radii and 1/sigma folded into
// W, and one feature segment.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "offline/methods/builders.hpp"
#include "offline/sampling/fourier_kernels.hpp"
#include "offline/sampling/random.hpp"
#include "offline/methods/spectral_options.hpp"

namespace kfm::offline {

namespace {

constexpr std::uint64_t max_outputs = std::uint64_t{1} << 26;
constexpr std::uint64_t max_parameter_bytes = std::uint64_t{1} << 30;

// Independent substreams of the seed, one per random role, so roles never share draws.
enum stream : std::uint64_t { stream_directions = 1, stream_norms = 2, stream_phases = 3, stream_scales = 4 };

void validate(const build_options& o) {
    const char* name = method_name(o.method);
    if (o.input_dim == 0) throw std::invalid_argument(std::string(name) + ": input dimension must be at least 1");
    if (o.features == 0) throw std::invalid_argument(std::string(name) + ": features must be at least 1");
    switch (o.kernel.kind) {
        case format::kernel::gaussian:
            if (!(o.kernel.sigma > 0.0) || !std::isfinite(o.kernel.sigma))
                throw std::invalid_argument(std::string(name) + ": gaussian sigma must be positive and finite");
            break;
        case format::kernel::arccos:
            if (o.kernel.order > 2)
                throw std::invalid_argument(std::string(name) + ": arccos order must be 0, 1 or 2");
            if (o.method == format::method::rff_phase)
                throw std::invalid_argument(
                    "rff-phase: the arccos kernel has no random-phase form; use rff or orf");
            break;
        case format::kernel::matern:
        case format::kernel::rational_quadratic:
        case format::kernel::laplacian:
            check_method_supports(o.method, o.kernel.kind);
            check_fourier_kernel(o.kernel, name);
            break;
        default:
            throw std::invalid_argument(std::string(name) + ": kernel '" + kernel_name(o.kernel.kind) +
                                        "' is not supported (gaussian, matern, rational-quadratic, laplacian or "
                                        "arccos)");
    }
    if (o.features > max_outputs)
        throw std::invalid_argument(std::string(name) + ": " + std::to_string(o.features) +
                                    " features is more than the limit of 2^26 outputs");
    // The dense matrix dominates: at most `features` rows of input_dim floats.
    const std::uint64_t bytes = std::uint64_t{o.features} * o.input_dim * sizeof(float);
    if (bytes > max_parameter_bytes)
        throw std::invalid_argument(std::string(name) + ": " + std::to_string(o.features) + " features x " +
                                    std::to_string(o.input_dim) +
                                    " inputs needs more than 1 GiB of parameters");
}

// Rows of W (unscaled spectral samples for sigma = 1), rows x d row-major.
// iid: each row N(0, I). Orthogonal (ORF): stacked blocks S_k Q_k, Q_k Haar d x d, S_k iid chi(d),
// the last block truncated.
std::vector<double> sample_directions(unsigned rows, unsigned d, bool orthogonal, std::uint64_t seed) {
    std::vector<double> w(static_cast<std::size_t>(rows) * d);
    rng dirs(derive(seed, stream_directions));
    if (!orthogonal) {
        for (double& v : w) v = dirs.normal();
        return w;
    }
    rng norms(derive(seed, stream_norms));
    for (unsigned begin = 0; begin < rows; begin += d) {
        const Eigen::MatrixXd q = haar_orthogonal(d, dirs);
        const unsigned take = std::min(d, rows - begin);
        for (unsigned i = 0; i < take; ++i) {
            const double r = norms.chi(d);
            for (unsigned j = 0; j < d; ++j)
                w[static_cast<std::size_t>(begin + i) * d + j] = r * q(i, j);
        }
    }
    return w;
}

// The rows of W for the kernel: laplacian iid Cauchy(0, 1 / sigma) entries; otherwise the directions
// above times 1 / sigma (gaussian), a per-row draw of the kernel's frequency scale (matern,
// rational-quadratic) or 1 (arccos).
std::vector<double> spectral_rows(const build_options& o, unsigned rows, bool orthogonal) {
    const unsigned d = o.input_dim;
    if (o.kernel.kind == format::kernel::laplacian) {
        std::vector<double> w(static_cast<std::size_t>(rows) * d);
        rng dirs(derive(o.seed, stream_directions));
        for (double& v : w) v = standard_cauchy(dirs) / o.kernel.sigma;
        return w;
    }
    std::vector<double> w = sample_directions(rows, d, orthogonal, o.seed);
    if (o.kernel.kind == format::kernel::arccos) return w;
    if (o.kernel.kind == format::kernel::gaussian) {
        for (double& v : w) v *= 1.0 / o.kernel.sigma;
        return w;
    }
    rng scales(derive(o.seed, stream_scales));
    for (unsigned i = 0; i < rows; ++i) {
        const double s = frequency_scale(o.kernel, scales);
        for (unsigned j = 0; j < d; ++j) w[static_cast<std::size_t>(i) * d + j] *= s;
    }
    return w;
}

}  // namespace

map_contents build_random_fourier(const build_options& o) {
    if (o.method != format::method::rff && o.method != format::method::rff_phase &&
        o.method != format::method::orf)
        throw std::invalid_argument(std::string("build_random_fourier: method '") + method_name(o.method) +
                                    "' is not a dense random-feature baseline");
    validate(o);
    const unsigned d = o.input_dim;
    const bool gaussian = fourier_kernel(o.kernel.kind);
    const bool paired = gaussian ? o.method != format::method::rff_phase : reflected_arccos(o, method_name(o.method));
    // Paired cos/sin and reflected arccos pairs need an even D; every other form uses one projection per output.
    const unsigned output_dim = paired ? o.features + (o.features & 1u) : o.features;
    if (output_dim > max_outputs)
        throw std::invalid_argument(std::string(method_name(o.method)) + ": too many features");
    const unsigned projections = paired ? output_dim / 2 : output_dim;

    const std::vector<double> w = spectral_rows(o, projections, o.method == format::method::orf);
    std::vector<float> dense(w.begin(), w.end());

    const bool random_phase = gaussian && !paired;
    map_contents map;
    map.meta = one_feature_per_projection_meta(o, format::projection::dense, d, projections, random_phase);
    const format::feature_segment seg = one_feature_per_projection_segment(o, projections, 1.0f, random_phase);
    std::vector<float> phases;
    if (random_phase) {
        rng ph(derive(o.seed, stream_phases));
        phases.resize(projections);
        for (float& b : phases) b = static_cast<float>(2.0 * std::numbers::pi * ph.uniform());
    }

    map.sections.push_back(make_segments_section({seg}));
    map.sections.push_back(make_f32_section(format::tag::dense, dense));
    if (!phases.empty()) map.sections.push_back(make_f32_section(format::tag::phases, phases));
    return map;
}

}  // namespace kfm::offline
