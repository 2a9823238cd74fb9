// Builder for TensorSketch (Pham & Pagh 2013) of the polynomial kernel on the sphere,
// (1 - |x-y|^2/a^2)^p = alpha (q + x.y)^p with q = a^2/2 - 1, alpha = (2/a^2)^p: the runtime normalises
// x, appends sqrt(q), takes p independent count sketches into D = 2^k buckets, multiplies their FFTs and
// inverts (projection count_sketch_fft); one identity segment scales by sqrt(alpha). Requested features
// are rounded up to a power of two (at least 2, at most 65536, the FFT kernel's limit).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "format/fft_twiddles.hpp"
#include "offline/methods/builders.hpp"
#include "offline/sampling/random.hpp"
#include "format/bits.hpp"

namespace kfm::offline {
namespace {

constexpr unsigned max_log2_sketch = 16;
enum stream : std::uint64_t { stream_hashes = 1, stream_signs = 2 };

void validate(const build_options& o) {
    if (o.method != format::method::tensorsketch)
        throw std::invalid_argument(std::string("build_tensorsketch: method '") + method_name(o.method) + "' is not tensorsketch");
    const kernel_spec& k = o.kernel;
    if (k.kind != format::kernel::polynomial_sphere)
        throw std::invalid_argument(std::string("tensorsketch: kernel '") + kernel_name(k.kind) +
                                    "' is not supported (polynomial-sphere)");
    if (o.input_dim == 0) throw std::invalid_argument("tensorsketch: input dimension must be at least 1");
    if (o.input_dim >= (1u << 24)) throw std::invalid_argument("tensorsketch: input dimension is too large");
    if (o.features == 0) throw std::invalid_argument("tensorsketch: features must be at least 1");
    if (k.degree < 1 || k.degree > format::max_polynomial_degree) throw std::invalid_argument("tensorsketch: polynomial-sphere degree must be in 1..100");
    if (!(k.scale >= 2.0) || !std::isfinite(k.scale))
        throw std::invalid_argument("tensorsketch: polynomial-sphere scale a must be finite and at least 2");
}

// log2 of the sketch size D = 2^k: features rounded up to a power of two, at least 2.
unsigned log2_sketch_size(unsigned features) {
    const unsigned log2 = std::max(1u, detail::ceil_log2(features));
    if (log2 > max_log2_sketch) throw std::invalid_argument("tensorsketch: at most 65536 features (the FFT limit)");
    return log2;
}

// The p count sketches of the work vector (x, sqrt(q)): a bucket h(i) and a sign s(i) per coordinate.
struct count_sketches {
    std::vector<std::uint32_t> buckets;
    std::vector<bool> signs;
};

// The appended constant sqrt(q) gets a bucket of its own in each sketch (the input coordinates hash
// uniformly into the other D - 1): the estimate stays unbiased (the random signs alone make every
// cross term vanish in expectation, whatever the buckets), and the constant, usually the largest
// coordinate, no longer collides with input coordinates, whose cross terms sqrt(q) s_i s_j x_j would
// shift a whole row of the Gram matrix at once.
count_sketches sample_sketches(const build_options& o, std::uint32_t sketch) {
    rng hashes(derive(o.seed, stream_hashes));
    rng signs(derive(o.seed, stream_signs));
    const std::size_t work = std::size_t(o.input_dim) + 1;
    count_sketches c;
    c.buckets.resize(std::size_t(o.kernel.degree) * work);
    c.signs.resize(c.buckets.size());
    for (std::size_t k = 0; k < o.kernel.degree; ++k) {
        const auto constant = static_cast<std::uint32_t>(hashes.below(sketch));
        c.buckets[k * work + o.input_dim] = constant;
        for (std::size_t i = 0; i < o.input_dim; ++i) {
            const auto h = static_cast<std::uint32_t>(hashes.below(sketch - 1));
            c.buckets[k * work + i] = h < constant ? h : h + 1;
        }
    }
    for (std::size_t i = 0; i < c.signs.size(); ++i) c.signs[i] = signs.rademacher() < 0;
    return c;
}

format::map_meta tensorsketch_meta(const build_options& o, std::uint32_t sketch) {
    const double q = o.kernel.scale * o.kernel.scale / 2.0 - 1.0;
    format::map_meta m{};
    m.method = static_cast<std::uint32_t>(format::method::tensorsketch);
    m.kernel = static_cast<std::uint32_t>(format::kernel::polynomial_sphere);
    m.projection = static_cast<std::uint32_t>(format::projection::count_sketch_fft);
    m.flags = format::meta_flag_normalize_input;
    m.input_dim = o.input_dim;
    m.work_dim = o.input_dim + 1;
    m.projection_dim = sketch;
    m.output_dim = sketch;
    m.output_convention = static_cast<std::uint32_t>(format::output_convention::real);
    m.block_count = o.kernel.degree;
    m.block_size = sketch;
    m.kernel_order = o.kernel.degree;
    m.kernel_scale = o.kernel.scale;
    m.input_append = std::sqrt(q);
    m.seed = o.seed;
    return m;
}

}  // namespace

map_contents build_tensorsketch(const build_options& o) {
    validate(o);
    const unsigned log2 = log2_sketch_size(o.features);
    const std::uint32_t sketch = 1u << log2;
    const count_sketches c = sample_sketches(o, sketch);
    std::vector<float> twiddles(kfm::detail::fft_twiddle_floats(log2));
    kfm::detail::fft_make_twiddles(log2, twiddles.data());
    const double alpha = std::pow(2.0 / (o.kernel.scale * o.kernel.scale), double(o.kernel.degree));
    const format::feature_segment seg = make_segment(format::nonlinearity::identity, 0, sketch, 0, 1.0f,
                                                     static_cast<float>(std::sqrt(alpha)));

    map_contents map;
    map.meta = tensorsketch_meta(o, sketch);
    map.sections.push_back(make_segments_section({seg}));
    map.sections.push_back(make_u32_section(format::tag::indices, c.buckets));
    map.sections.push_back(make_bits_section(format::tag::signs, c.signs));
    map.sections.push_back(make_f32_section(format::tag::twiddles, twiddles));
    return map;
}

}  // namespace kfm::offline
