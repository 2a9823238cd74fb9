// Builder for quffka's GQ baseline (Munkhoeva et al. 2018, quffka/gq.py generate_gq_weights): the
// d-dimensional tensor-product Gauss-Hermite rule with n nodes per coordinate has n^d points, so GQ
// subsamples it: each of the P points takes, in every coordinate independently, node xi_k with probability
// lambda_k (the normalised 1-D weight). The features are the paired cos/sin of w.x / sigma with weight
// 1 / sqrt(P) each, so the estimate is (1/P) sum_p cos(w_p.(x - y) / sigma): an unbiased estimate of the
// tensor rule applied to cos(w.z), prod_j sum_k lambda_k cos(xi_k z_j), which is not the gaussian kernel
// for finite n (for quffka's n = 2, xi = +-1: prod_j cos(z_j)). docs/kernels.md has the maths and how
// this differs from quffka for n > 2. Dense projection t = W x (W holds the nodes), one cos_sin segment
// with scale 1 / sigma.
#include <stdexcept>
#include <string>
#include <vector>

#include "kfm/build_registry.hpp"
#include "offline/methods/builders.hpp"
#include "offline/methods/gq/gauss_hermite.hpp"
#include "offline/sampling/random.hpp"
#include "offline/methods/spectral_options.hpp"

namespace kfm::offline {
namespace {

constexpr std::uint64_t max_parameter_bytes = std::uint64_t{1} << 30;
constexpr std::uint64_t stream_nodes = 1;

void validate(const build_options& o) {
    if (o.kernel.kind != format::kernel::gaussian)
        throw std::invalid_argument(std::string("gq: kernel '") + kernel_name(o.kernel.kind) +
                                    "' is not supported (gq is a Gauss-Hermite rule for the gaussian only)");
    check_gaussian_or_arccos(o, "gq");
    if (o.gq_nodes < 2 || o.gq_nodes > gauss_hermite_max_nodes)
        throw std::invalid_argument("gq: " + option_name(o, option::gq_nodes) + " " + std::to_string(o.gq_nodes) + " is outside 2.." +
                                    std::to_string(gauss_hermite_max_nodes) +
                                    " (one node is the constant rule w = 0)");
    if (std::uint64_t{o.features} / 2 * o.input_dim * sizeof(float) > max_parameter_bytes)
        throw std::invalid_argument("gq: " + std::to_string(o.features) + " features x " +
                                    std::to_string(o.input_dim) + " inputs needs more than 1 GiB of parameters");
}

// Index k with probability weights[k]: the first k whose cumulative weight exceeds u ~ U[0, 1).
unsigned draw_node(const std::vector<double>& cumulative, rng& r) {
    const double u = r.uniform();
    for (unsigned k = 0; k + 1 < cumulative.size(); ++k)
        if (u < cumulative[k]) return k;
    return unsigned(cumulative.size() - 1);
}

}  // namespace

map_contents build_gq(const build_options& o) {
    validate(o);
    const unsigned d = o.input_dim;
    const std::uint32_t p = projections_for_features(o, "gq");
    const gauss_hermite_rule rule = gauss_hermite_normal(o.gq_nodes);
    std::vector<double> cumulative;
    double sum = 0.0;
    for (double w : rule.weights) cumulative.push_back(sum += w);

    std::vector<float> dense(std::size_t(p) * d);
    rng nodes(derive(o.seed, stream_nodes));
    for (float& v : dense) v = float(rule.nodes[draw_node(cumulative, nodes)]);

    map_contents map;
    map.meta = one_feature_per_projection_meta(o, format::projection::dense, d, p);
    map.meta.radial_points = o.gq_nodes;
    map.sections.push_back(make_segments_section({one_feature_per_projection_segment(o, p, float(1.0 / o.kernel.sigma))}));
    map.sections.push_back(make_f32_section(format::tag::dense, dense));
    return map;
}

}  // namespace kfm::offline
