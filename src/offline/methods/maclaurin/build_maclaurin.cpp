// Builder for Random Maclaurin features (Kar & Karnick 2012) of the polynomial kernel on the sphere,
// alpha (q + x.y)^p = sum_n a_n (x.y)^n with a_n = alpha C(p, n) q^(p-n). Feature j draws its order n
// with P(n) = 2^-(n+1) and n Rademacher rows; phi_j = sqrt(a_n 2^(n+1) / D) prod_rows (w.x). Runtime:
// dense projection onto all the rows (inputs normalised) and one `product` segment whose groups section
// lists each feature's rows; orders above p have a_n = 0 and get an empty group with weight 0.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "offline/methods/builders.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::offline {
namespace {

constexpr std::uint64_t max_outputs = std::uint64_t{1} << 26;
constexpr std::uint64_t max_parameter_bytes = std::uint64_t{1} << 30;
enum stream : std::uint64_t { stream_orders = 1, stream_rows = 2 };

void validate(const build_options& o) {
    if (o.method != format::method::maclaurin)
        throw std::invalid_argument(std::string("build_maclaurin: method '") + method_name(o.method) + "' is not maclaurin");
    const kernel_spec& k = o.kernel;
    if (k.kind != format::kernel::polynomial_sphere)
        throw std::invalid_argument(std::string("maclaurin: kernel '") + kernel_name(k.kind) +
                                    "' is not supported (polynomial-sphere)");
    if (o.input_dim == 0) throw std::invalid_argument("maclaurin: input dimension must be at least 1");
    if (o.features == 0) throw std::invalid_argument("maclaurin: features must be at least 1");
    if (o.features > max_outputs) throw std::invalid_argument("maclaurin: more than the limit of 2^26 outputs");
    if (k.degree < 1 || k.degree > format::max_polynomial_degree) throw std::invalid_argument("maclaurin: polynomial-sphere degree must be in 1..100");
    if (!(k.scale >= 2.0) || !std::isfinite(k.scale))
        throw std::invalid_argument("maclaurin: polynomial-sphere scale a must be finite and at least 2");
}

// Each feature's order n and weight sqrt(a_n 2^(n+1) / D), as the GRPS section (feature j multiplies rows
// groups[j]..groups[j+1]) and the weights.
struct feature_orders {
    std::vector<std::uint32_t> groups{0};
    std::vector<float> weights;
};

feature_orders sample_orders(const build_options& o) {
    const unsigned D = o.features, p = o.kernel.degree;
    const double q = o.kernel.scale * o.kernel.scale / 2.0 - 1.0;
    const double log_alpha = p * std::log(2.0 / (o.kernel.scale * o.kernel.scale));
    rng orders(derive(o.seed, stream_orders));
    feature_orders f;
    f.weights.resize(D);
    for (unsigned j = 0; j < D; ++j) {
        unsigned n = 0;
        while (orders.uniform() < 0.5) ++n;  // P(n) = 2^-(n+1)
        double w = 0.0;
        if (n <= p && (q > 0.0 || n == p)) {
            // log of a_n 2^(n+1) / D, a_n = alpha C(p,n) q^(p-n) (q^0 = 1 when q = 0)
            const double log_binomial = std::lgamma(p + 1.0) - std::lgamma(n + 1.0) - std::lgamma(p - n + 1.0);
            const double log_q = p == n ? 0.0 : (p - n) * std::log(q);
            w = std::exp(0.5 * (log_alpha + log_binomial + log_q + (n + 1) * std::log(2.0) - std::log(double(D))));
        } else {
            n = 0;  // a_n = 0: the feature is identically zero, so it spends no rows
        }
        f.weights[j] = static_cast<float>(w);
        f.groups.push_back(f.groups.back() + n);
    }
    return f;
}

// The Rademacher rows, rows x d.
std::vector<float> rademacher_rows(const build_options& o, std::uint32_t rows) {
    if (std::uint64_t{rows} * o.input_dim * sizeof(float) > max_parameter_bytes)
        throw std::invalid_argument("maclaurin: the Rademacher rows would need more than 1 GiB");
    rng signs(derive(o.seed, stream_rows));
    std::vector<float> dense(std::size_t(rows) * o.input_dim);
    for (float& v : dense) v = static_cast<float>(signs.rademacher());
    return dense;
}

format::map_meta maclaurin_meta(const build_options& o, std::uint32_t rows) {
    format::map_meta m{};
    m.method = static_cast<std::uint32_t>(format::method::maclaurin);
    m.kernel = static_cast<std::uint32_t>(format::kernel::polynomial_sphere);
    m.projection = static_cast<std::uint32_t>(format::projection::dense);
    m.flags = format::meta_flag_normalize_input;
    m.input_dim = o.input_dim;
    m.work_dim = o.input_dim;
    m.projection_dim = rows;
    m.output_dim = o.features;
    m.output_convention = static_cast<std::uint32_t>(format::output_convention::real);
    m.kernel_order = o.kernel.degree;
    m.kernel_scale = o.kernel.scale;
    m.seed = o.seed;
    return m;
}

}  // namespace

map_contents build_maclaurin(const build_options& o) {
    validate(o);
    const feature_orders f = sample_orders(o);
    // The projection needs at least one row even if every feature drew order 0.
    const std::uint32_t rows = std::max<std::uint32_t>(f.groups.back(), 1);
    const std::vector<float> dense = rademacher_rows(o, rows);

    // D products over groups of the `rows` projections, each with its own weight.
    format::feature_segment seg = make_segment(format::nonlinearity::product, 0, rows, 0, 1.0f, 1.0f);
    seg.arg_count = o.features;
    seg.weight_index = 0;
    seg.group_index = 0;

    map_contents map;
    map.meta = maclaurin_meta(o, rows);
    map.sections.push_back(make_segments_section({seg}));
    map.sections.push_back(make_f32_section(format::tag::dense, dense));
    map.sections.push_back(make_f32_section(format::tag::weights, f.weights));
    map.sections.push_back(make_u32_section(format::tag::groups, f.groups));
    return map;
}

}  // namespace kfm::offline
