// Builder for maclaurin-opt, data-optimised Maclaurin features of the gaussian kernel (after Wacker,
// Kanagawa and Filippone, "Improved random features for dot-product kernels", with the constant and linear
// terms exact on centred inputs). With x' = (x - mean) / sigma (the mean of --data, stored as PREP),
//   k(x, y) = exp(-|x'|^2/2) exp(-|y'|^2/2) exp(x'.y'),   exp(z) = sum_k z^k / k!,
// and phi(x) = exp(-|x'|^2/2) [H D x' (d2 values, degree 1: exact, H D orthogonal), degree-k sketches for
// k = 2..K, 1 (degree 0)]. The degree-k features come in passes of up to d2; each pass has k blocks B_l = H D_l
// of its own (fresh independent signs, TensorSRHT with fresh randomness per pass), and its feature j is
// sqrt(1 / (k! D_k)) prod_{l < k} sqrt(d2) (B_l x')_j: the sign flip makes E[d2 (B x)_j (B y)_j] = x.y for
// every row j, and the blocks are independent, so each feature's product is unbiased for (x'.y')^k. The
// degrees kept and D_k come from the data (degree_allocation.hpp); degrees above K are dropped, the
// method's bias.
//
// Runtime: the hadamard projection (1 + sum_k k passes_k blocks of d2; block 0 gives the linear terms), an
// identity segment, one block product segment per pass (segment_flag_block_product: factor l reads the
// pass's block l, contiguous rows), the constant in CNST, and meta_flag_gaussian_prefactor for
// exp(-|x'|^2/2). One Walsh-Hadamard transform per block (repeats = 1).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "format/bits.hpp"
#include "kfm/build_registry.hpp"
#include "offline/methods/builders.hpp"
#include "offline/methods/maclaurin_opt/degree_allocation.hpp"
#include "offline/sampling/portable_math.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::offline {
namespace {

enum stream : std::uint64_t { stream_signs = 1 };
constexpr std::uint32_t hadamard_stages = 1;  // the hadamard projection with repeats = 1: H D blocks
// The allocation reads at most this many rows of --data (evenly spaced, so it does not depend on the seed).
constexpr std::size_t allocation_rows = 400;
// Degrees above this are not considered: 1/k! is below 1e-5 from k = 9.
constexpr unsigned largest_degree_considered = 8;

void check_options(const build_options& o) {
    const std::string where = "maclaurin-opt: ";
    if (o.kernel.kind != format::kernel::gaussian)
        throw std::invalid_argument(where + "kernel '" + kernel_name(o.kernel.kind) + "' is not supported (gaussian only)");
    if (!(o.kernel.sigma > 0.0) || !std::isfinite(o.kernel.sigma))
        throw std::invalid_argument(where + "sigma must be positive and finite");
    if (o.input_dim == 0 || o.input_dim > format::max_dim)
        throw std::invalid_argument(where + "input dimension must be in 1..2^24");
    if (o.data_rows == 0 || o.data.size() != o.data_rows * std::size_t(o.input_dim))
        throw std::invalid_argument(where + "needs the training rows, " + option_name(o, option::data) +
                                    (o.option_names == spelling::command_line ? " X.npy" : "") + ", with " +
                                    std::to_string(o.input_dim) + " columns (it centres on their mean and fits the degrees to them)");
    for (std::size_t i = 0; i < o.data.size(); ++i)
        if (!std::isfinite(o.data[i]))
            throw std::invalid_argument(where + "the data's row " + std::to_string(i / o.input_dim) + ", column " +
                                        std::to_string(i % o.input_dim) + " is not finite");
    const std::uint64_t d2 = std::uint64_t(1) << detail::ceil_log2(o.input_dim);
    if (o.features < d2 + 1)
        throw std::invalid_argument(where + option_name(o, option::features) + " must be at least " + std::to_string(d2 + 1) +
                                    " (the constant and the " + std::to_string(d2) + " exact linear terms of the padded input)");
    if (o.features > format::max_dim) throw std::invalid_argument(where + "more than the limit of 2^24 outputs");
}

std::vector<double> column_means(const build_options& o) {
    const std::size_t d = o.input_dim;
    std::vector<double> mean(d, 0.0);
    for (std::size_t r = 0; r < o.data_rows; ++r)
        for (std::size_t i = 0; i < d; ++i) mean[i] += o.data[r * d + i];
    for (double& m : mean) m /= double(o.data_rows);
    return mean;
}

// The centred, scaled x' of up to allocation_rows evenly spaced rows, as the runtime computes it (float
// PREP values), in double.
std::vector<double> allocation_sample(const build_options& o, const std::vector<float>& shift, float scale) {
    const std::size_t d = o.input_dim, n = std::min(o.data_rows, allocation_rows);
    std::vector<double> rows(n * d);
    for (std::size_t r = 0; r < n; ++r) {
        const std::size_t source = r * o.data_rows / n;
        for (std::size_t i = 0; i < d; ++i)
            rows[r * d + i] = double(float((o.data[source * d + i] - shift[i]) * scale));
    }
    return rows;
}

// The largest degree whose products stay within the runtime's finite-output bound (runtime/output_bound.cpp):
// a product of k factors sqrt(d2) t, |t| <= d2 |x'|_2, with |x'_i| <= (2^20 + |shift_i|) / sigma, must stay
// below 2^124 (2^126, the bound's limit, with a margin for the weight and the float roundings).
unsigned largest_degree_in_contract(const build_options& o, const std::vector<float>& shift, float scale) {
    double largest_shift = 0.0;
    for (float s : shift) largest_shift = std::max(largest_shift, double(std::fabs(s)));
    const double d2 = double(std::uint64_t(1) << detail::ceil_log2(o.input_dim));
    const auto log2 = [](double v) { return portable::log(v) / 0.6931471805599453; };  // the same on every architecture
    const double x_two = log2(double(format::max_input_abs) + largest_shift) + log2(std::fabs(double(scale))) +
                         0.5 * log2(double(o.input_dim));
    const double factor = std::max(1.0, x_two + 1.5 * log2(d2));
    return unsigned(std::floor(124.0 / factor));
}

double factorial(unsigned k) {
    double f = 1.0;
    for (unsigned i = 2; i <= k; ++i) f *= i;
    return f;
}

// The sketched degrees' segments, degree k = i + 2 for features[i] > 0 features of weight
// sqrt(coefficients[i] / features[i]) (the kernel's Maclaurin coefficient a_k over the degree's count): one
// block product segment per pass of up to d2 features, its k factors the next k blocks of the projection from
// first_block, its outputs from out_begin on. Returns the blocks they read.
std::uint32_t append_sketch_segments(const std::vector<double>& coefficients, const std::vector<std::uint32_t>& features,
                                     std::uint32_t d2, std::uint32_t first_block, std::uint32_t out_begin,
                                     std::vector<format::feature_segment>& segments) {
    std::uint32_t block = first_block, out = out_begin;
    for (std::size_t i = 0; i < features.size(); ++i) {
        const std::uint32_t degree = std::uint32_t(i) + 2;
        const float weight = features[i] == 0 ? 0.0f : float(std::sqrt(coefficients[i] / double(features[i])));
        for (std::uint32_t done = 0; done < features[i]; done += d2) {
            const std::uint32_t count = std::min(d2, features[i] - done);
            format::feature_segment s = make_segment(format::nonlinearity::product, block * d2, degree * d2, out,
                                                     float(std::sqrt(double(d2))), weight);
            s.arg_count = count;
            s.flags = format::segment_flag_block_product;
            segments.push_back(s);
            block += degree;
            out += count;
        }
    }
    return block - first_block;
}

}  // namespace

map_contents build_maclaurin_opt(const build_options& o) {
    check_options(o);
    const std::uint32_t d = o.input_dim, d2 = std::uint32_t(1) << detail::ceil_log2(d);

    // PREP: x' = (x - mean) / sigma.
    const std::vector<double> mean = column_means(o);
    std::vector<float> shift(mean.begin(), mean.end());
    const float scale = float(1.0 / o.kernel.sigma);
    std::vector<float> prep(shift);
    prep.insert(prep.end(), d, scale);

    // The degrees kept and their feature counts, fitted to the data.
    const std::uint32_t budget = o.features - d2 - 1;
    const unsigned max_degree = std::min(largest_degree_considered, largest_degree_in_contract(o, shift, scale));
    const degree_allocation allocation = allocate_degrees(allocation_sample(o, shift, scale), d, budget, max_degree);
    if (budget > 0 && allocation.features.empty())
        throw std::invalid_argument("maclaurin-opt: the inputs' range leaves no degree 2 within the finite-output bound");

    // Segments: the d2 linear terms (block 0), then the sketched degrees' passes; the constant last.
    std::vector<double> coefficients;
    for (std::size_t i = 0; i < allocation.features.size(); ++i) coefficients.push_back(1.0 / factorial(unsigned(i) + 2));
    std::vector<format::feature_segment> segments{make_segment(format::nonlinearity::identity, 0, d2, 0, 1.0f, 1.0f)};
    const std::uint32_t blocks = 1 + append_sketch_segments(coefficients, allocation.features, d2, 1, d2, segments);
    if (std::uint64_t(blocks) * d2 > format::max_dim)
        throw std::invalid_argument("maclaurin-opt: the sketches need " + std::to_string(std::uint64_t(blocks) * d2) +
                                    " projections, more than the limit of 2^24 (use fewer " + option_name(o, option::features) + ")");

    // Every block's signs, independent.
    rng signs_rng(derive(o.seed, stream_signs));
    const std::uint32_t stride = format::hadamard_sign_stride(d2);
    std::vector<bool> signs(std::size_t(blocks) * hadamard_stages * stride, false);
    for (std::uint32_t b = 0; b < blocks * hadamard_stages; ++b)
        for (std::uint32_t j = 0; j < d2; ++j) signs[std::size_t(b) * stride + j] = signs_rng.rademacher() < 0;

    map_contents map;
    format::map_meta& m = map.meta;
    m.method = static_cast<std::uint32_t>(format::method::maclaurin_opt);
    m.kernel = static_cast<std::uint32_t>(format::kernel::gaussian);
    m.projection = static_cast<std::uint32_t>(format::projection::hadamard);
    m.flags = format::meta_flag_gaussian_prefactor;
    m.input_dim = d;
    m.work_dim = d2;
    m.projection_dim = blocks * d2;
    m.output_dim = o.features;
    m.output_convention = static_cast<std::uint32_t>(format::output_convention::real);
    m.block_count = blocks;
    m.block_size = d2;
    m.repeats = hadamard_stages;
    m.kernel_sigma = o.kernel.sigma;
    m.seed = o.seed;
    map.sections.push_back(make_segments_section(segments));
    map.sections.push_back(make_bits_section(format::tag::signs, signs));
    map.sections.push_back(make_f32_section(format::tag::constants, {1.0f}));
    map.sections.push_back(make_f32_section(format::tag::preprocess, prep));
    return map;
}

}  // namespace kfm::offline
