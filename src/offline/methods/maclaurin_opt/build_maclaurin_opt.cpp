// Builder for maclaurin-opt, data-optimised Maclaurin features of the gaussian and polynomial-sphere
// kernels (after Wacker, Kanagawa and Filippone, "Improved random features for dot-product kernels", with
// the constant and linear terms exact). Gaussian: with x' = (x - mean) / sigma (the mean of --data, stored
// as PREP),
//   k(x, y) = exp(-|x'|^2/2) exp(-|y'|^2/2) exp(x'.y'),   exp(z) = sum_k z^k / k!,
// and phi(x) = exp(-|x'|^2/2) [H D x' (d2 values, degree 1: exact, H D orthogonal), degree-k sketches for
// k = 2..K, 1 (degree 0)]. The degree-k features come in passes of up to d2; each pass multiplies k blocks
// B_l = H D_l with independent signs, and its feature j is sqrt(1 / (k! D_k)) prod_{l < k} sqrt(d2)
// (B_l x')_{(j + l) mod d2} (rotated rows: format.hpp's segment_flag_block_product says why): the sign flip
// makes E[d2 (B x)_r (B y)_r] = x.y for every row r, and a pass's blocks are independent, so each feature's
// product is unbiased for (x'.y')^k. The gaussian's passes are one chain of blocks: pass p (over every
// degree, in order) reads blocks p, ..., p + k - 1, block 0 being the linear terms' (exact whatever its
// signs, so sharing it costs nothing). Consecutive passes then share k - 1 blocks, which correlates their
// features by about (x'.y')^2 over |x'|^2 |y'|^2, small on centred rows: a degree-2 feature costs 1/d2
// Walsh-Hadamard transforms instead of 2/d2 (sorf: 1.5/d2 per output), at the same error within the
// seeds' noise (docs/results-maclaurin.md). The degrees kept and D_k come from the data
// (degree_allocation.hpp); degrees above K are dropped, the method's bias.
//
// Polynomial-sphere: a dot-product kernel, not shift invariant, so no centring (no PREP); x' = x / |x| (the
// runtime's meta_flag_normalize_input, as srf and gorf) and k = sum_{k <= p} c_k (x'.y')^k exactly
// (degree_allocation.hpp), so the features are sqrt(c_0), sqrt(c_1) H D x' and sqrt(c_k / D_k) times the
// products, with no prefactor; degrees above p have c_k = 0, and with every degree 2..p kept the map is
// unbiased. Uncentred unit rows have large x'.y', so here every pass has k blocks of its own after block 0
// (TensorSRHT with fresh randomness per pass; the chain measured 6 % more error on USPS at D = 4d).
//
// Runtime: the hadamard projection (gaussian: passes + K - 1 blocks of d2, polynomial-sphere: 1 + sum_k k
// passes_k; block 0 gives the linear terms), an identity segment, one block product segment per pass
// (segment_flag_block_product: factor l reads block l of the pass's range, contiguous rows; the ranges of
// chained passes overlap), the constant in CNST, and (gaussian) meta_flag_gaussian_prefactor for
// exp(-|x'|^2/2). One Walsh-Hadamard transform per block (repeats = 1).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "format/bits.hpp"
#include "kfm/build_registry.hpp"
#include "offline/methods/builders.hpp"
#include "offline/methods/maclaurin_opt/degree_allocation.hpp"
#include "offline/methods/sections.hpp"
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

// log2 through the portable log: the same on every architecture.
double portable_log2(double v) { return portable::log(v) / 0.6931471805599453; }

bool is_gaussian(const build_options& o) { return o.kernel.kind == format::kernel::gaussian; }

std::string number_text(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
}

// The largest degree whose products stay within the runtime's finite-output bound (runtime/output_bound.cpp),
// given x_two, log2 of the largest |x'|_2 the runtime may compute: a product of k factors sqrt(d2) t, |t| <=
// d2 |x'|_2, must stay below 2^124 (2^126, the bound's limit, with a margin for the weight and the float
// roundings).
unsigned largest_degree_in_contract(std::uint32_t input_dim, double x_two) {
    const double d2 = double(std::uint64_t(1) << detail::ceil_log2(input_dim));
    const double factor = std::max(1.0, x_two + 1.5 * portable_log2(d2));
    return unsigned(std::floor(124.0 / factor));
}

void check_polynomial(const build_options& o, const std::string& where) {
    const kernel_spec& k = o.kernel;
    if (k.degree < 1 || k.degree > format::max_polynomial_degree)
        throw std::invalid_argument(where + "polynomial-sphere degree must be in 1..100");
    if (!(k.scale >= 2.0) || !std::isfinite(k.scale))
        throw std::invalid_argument(where + "polynomial-sphere scale a must be finite and at least 2");
    // Unit inputs: |x'|_2 <= 1.
    const unsigned largest = largest_degree_in_contract(o.input_dim, 0.0);
    if (k.degree > largest)
        throw std::invalid_argument(where + "polynomial-sphere degree " + std::to_string(k.degree) + " is above " +
                                    std::to_string(largest) + ", the most product factors the runtime's finite-output " +
                                    "bound allows at input dimension " + std::to_string(o.input_dim));
}

void check_options(const build_options& o) {
    const std::string where = "maclaurin-opt: ";
    if (o.kernel.kind != format::kernel::gaussian && o.kernel.kind != format::kernel::polynomial_sphere)
        throw std::invalid_argument(where + "kernel '" + kernel_name(o.kernel.kind) +
                                    "' is not supported (gaussian or polynomial-sphere)");
    if (o.input_dim == 0 || o.input_dim > format::max_dim)
        throw std::invalid_argument(where + "input dimension must be in 1..2^24");
    if (is_gaussian(o) && (!(o.kernel.sigma > 0.0) || !std::isfinite(o.kernel.sigma)))
        throw std::invalid_argument(where + "sigma must be positive and finite");
    if (is_gaussian(o) && float(1.0 / o.kernel.sigma) == 0.0f)
        throw std::invalid_argument(where + option_name(o, option::sigma) + " " + number_text(o.kernel.sigma) +
                                    " is too large: its inverse, the map's input scale (PREP), is 0 in float32");
    if (!is_gaussian(o)) check_polynomial(o, where);
    if (o.data_rows == 0 || o.data.size() != o.data_rows * std::size_t(o.input_dim))
        throw std::invalid_argument(where + "needs the training rows, " + option_name(o, option::data) +
                                    (o.option_names == spelling::command_line ? " X.npy" : "") + ", with " +
                                    std::to_string(o.input_dim) + " columns (it " +
                                    (is_gaussian(o) ? "centres on their mean and fits" : "fits") + " the degrees to them)");
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

// The x' of up to allocation_rows evenly spaced rows, as the runtime computes it, in double: centred and
// scaled by the float PREP values (gaussian), or unit-normalised (polynomial-sphere; zero stays zero).
std::vector<double> allocation_sample(const build_options& o, const std::vector<float>& shift, float scale) {
    const std::size_t d = o.input_dim, n = std::min(o.data_rows, allocation_rows);
    std::vector<double> rows(n * d);
    for (std::size_t r = 0; r < n; ++r) {
        const std::size_t source = r * o.data_rows / n;
        double* x = rows.data() + r * d;
        if (is_gaussian(o)) {
            for (std::size_t i = 0; i < d; ++i) x[i] = double(float((o.data[source * d + i] - shift[i]) * scale));
            continue;
        }
        double squares = 0.0;
        for (std::size_t i = 0; i < d; ++i) squares += double(o.data[source * d + i]) * double(o.data[source * d + i]);
        const double inverse_norm = squares > 0.0 ? 1.0 / std::sqrt(squares) : 0.0;
        for (std::size_t i = 0; i < d; ++i) x[i] = double(float(double(o.data[source * d + i]) * inverse_norm));
    }
    return rows;
}

// log2 of the largest |x'|_2 of the gaussian's PREP, |x'_i| <= (2^20 + |shift_i|) / sigma.
double gaussian_input_log2_bound(const build_options& o, const std::vector<float>& shift, float scale) {
    double largest_shift = 0.0;
    for (float s : shift) largest_shift = std::max(largest_shift, double(std::fabs(s)));
    return portable_log2(double(format::max_input_abs) + largest_shift) + portable_log2(std::fabs(double(scale))) +
           0.5 * portable_log2(double(o.input_dim));
}

// The gaussian map gives a row x, in expectation, k(x, x) = exp(-|x'|^2) sum_{k <= K} |x'|^2k / k! (the
// degrees above K dropped) instead of 1: the Poisson(|x'|^2) probability of at most K. For a row far from
// the mean relative to sigma (|x'|^2 above about 115 at K = 8) that is below float's normal range: every
// feature of the row is 0 or nearly. A map that is so on most of its own rows (the sample, x' as the
// runtime computes it) is refused, naming sigma: a small sigma, or a few huge rows that move the mean.
void check_rows_represented(const build_options& o, const std::vector<double>& sample, unsigned largest_degree) {
    const std::size_t d = o.input_dim, n = sample.size() / d;
    std::size_t lost = 0;
    double farthest = 0.0;
    for (std::size_t r = 0; r < n; ++r) {
        double squared = 0.0;
        for (std::size_t i = 0; i < d; ++i) squared += sample[r * d + i] * sample[r * d + i];
        double term = portable::exp(-squared), diagonal = term;
        for (unsigned k = 1; k <= largest_degree; ++k) diagonal += (term *= squared / double(k));
        if (diagonal < double(std::numeric_limits<float>::min())) ++lost;
        farthest = std::max(farthest, std::sqrt(squared));
    }
    if (2 * lost <= n) return;
    const std::string sigma = option_name(o, option::sigma);
    throw std::invalid_argument("maclaurin-opt: " + std::to_string(lost) + " of the " + std::to_string(n) + " rows of " +
                                option_name(o, option::data) + " checked are so far from their mean, relative to " + sigma +
                                " " + number_text(o.kernel.sigma) + " (|x - mean| / sigma up to " + number_text(farthest) +
                                "), that the map gives them k(x, x) below 1.2e-38 instead of 1; raise " + sigma +
                                ", or drop the outlying rows that move the mean");
}

// The sketched degrees' segments, degree k = i + 2 for features[i] > 0 features of weight
// sqrt(coefficients[i] / features[i]) (the kernel's Maclaurin coefficient a_k over the degree's count), as
// block product passes from out_begin on. Chained (the gaussian): one chain of blocks whose block 0 is the
// linear terms', the sketch's pass p (over every degree, in order) reading blocks p, ..., p + k - 1.
// Otherwise every pass reads k blocks of its own after block 0. Returns the blocks the map needs.
std::uint32_t append_sketch_segments(const std::vector<double>& coefficients, const std::vector<std::uint32_t>& features,
                                     std::uint32_t d2, bool chained, std::uint32_t out_begin,
                                     std::vector<format::feature_segment>& segments) {
    const pass_blocks sharing = chained ? pass_blocks::chained : pass_blocks::own;
    std::uint32_t next_block = chained ? 0 : 1, blocks = 1, out = out_begin;
    for (std::size_t i = 0; i < features.size(); ++i) {
        if (features[i] == 0) continue;
        const std::uint32_t degree = std::uint32_t(i) + 2, step = chained ? 1 : degree;
        const float weight = float(std::sqrt(coefficients[i] / double(features[i])));
        next_block += append_block_product_passes(features[i], degree, d2, weight, next_block, out, segments, sharing);
        blocks = std::max(blocks, next_block - step + degree);  // the last pass's blocks
        out += features[i];
    }
    return blocks;
}

}  // namespace

map_contents build_maclaurin_opt(const build_options& o) {
    check_options(o);
    const std::uint32_t d = o.input_dim, d2 = std::uint32_t(1) << detail::ceil_log2(d);

    // Gaussian: PREP x' = (x - mean) / sigma, degrees up to largest_degree_considered within the bound.
    // Polynomial-sphere: no PREP (x' = x / |x|), every degree up to p (check_options kept it in the bound).
    std::vector<float> shift, prep;
    float scale = 1.0f;
    dot_product_series series;
    unsigned max_degree = o.kernel.degree;
    if (is_gaussian(o)) {
        const std::vector<double> mean = column_means(o);
        shift.assign(mean.begin(), mean.end());
        scale = float(1.0 / o.kernel.sigma);
        prep = shift;
        prep.insert(prep.end(), d, scale);
        series = gaussian_series(largest_degree_considered);
        const unsigned bound = largest_degree_in_contract(d, gaussian_input_log2_bound(o, shift, scale));
        max_degree = std::min(largest_degree_considered, bound);
    } else {
        series = polynomial_sphere_series(o.kernel.degree, o.kernel.scale);
    }

    // The degrees kept and their feature counts, fitted to the data. Polynomial-sphere p = 1 is exact with
    // the constant and the linear terms: D rounds down to those d2 + 1 (no degree would take the rest).
    const std::uint32_t output_dim = !is_gaussian(o) && o.kernel.degree == 1 ? d2 + 1 : o.features;
    const std::uint32_t budget = output_dim - d2 - 1;
    const std::vector<double> sample = allocation_sample(o, shift, scale);
    const degree_allocation allocation = allocate_degrees(sample, d, series, budget, max_degree);
    if (budget > 0 && allocation.features.empty()) {
        double largest_mean = 0.0;
        for (float v : shift) largest_mean = std::max(largest_mean, double(std::fabs(v)));
        throw std::invalid_argument("maclaurin-opt: the data's mean (up to " + number_text(largest_mean) + " in magnitude) over " +
                                    option_name(o, option::sigma) + " " + number_text(o.kernel.sigma) +
                                    " leaves no degree 2 within the finite-output bound (an input with |x_i| <= 2^20 "
                                    "could give Inf features); raise " + option_name(o, option::sigma) + " or centre the data");
    }
    if (is_gaussian(o)) check_rows_represented(o, sample, allocation.largest_degree());

    // Segments: the d2 linear terms (block 0), then the sketched degrees' passes; the constant last.
    const std::vector<double> coefficients(series.coefficients.begin() + 2,
                                           series.coefficients.begin() + 2 + std::ptrdiff_t(allocation.features.size()));
    std::vector<format::feature_segment> segments{
        make_segment(format::nonlinearity::identity, 0, d2, 0, 1.0f, float(std::sqrt(series.coefficients[1])))};
    const std::uint32_t blocks = append_sketch_segments(coefficients, allocation.features, d2, is_gaussian(o), d2, segments);
    if (std::uint64_t(blocks) * d2 > format::max_dim)
        throw std::invalid_argument("maclaurin-opt: the sketches need " + std::to_string(std::uint64_t(blocks) * d2) +
                                    " projections, more than the limit of 2^24 (use fewer " + option_name(o, option::features) + ")");

    // Every block's signs, independent.
    rng signs_rng(derive(o.seed, stream_signs));
    const std::vector<bool> signs = random_block_signs(std::uint64_t(blocks) * hadamard_stages, d2, signs_rng);

    map_contents map;
    format::map_meta& m = map.meta;
    m.method = static_cast<std::uint32_t>(format::method::maclaurin_opt);
    m.kernel = static_cast<std::uint32_t>(o.kernel.kind);
    m.projection = static_cast<std::uint32_t>(format::projection::hadamard);
    m.flags = is_gaussian(o) ? format::meta_flag_gaussian_prefactor : format::meta_flag_normalize_input;
    m.input_dim = d;
    m.work_dim = d2;
    m.projection_dim = blocks * d2;
    m.output_dim = output_dim;
    m.output_convention = static_cast<std::uint32_t>(format::output_convention::real);
    m.block_count = blocks;
    m.block_size = d2;
    m.repeats = hadamard_stages;
    if (is_gaussian(o)) {
        m.kernel_sigma = o.kernel.sigma;
    } else {
        m.kernel_order = o.kernel.degree;
        m.kernel_scale = o.kernel.scale;
    }
    m.seed = o.seed;
    map.sections.push_back(make_segments_section(segments));
    map.sections.push_back(make_bits_section(format::tag::signs, signs));
    map.sections.push_back(make_f32_section(format::tag::constants, {float(std::sqrt(series.coefficients[0]))}));
    if (!prep.empty()) map.sections.push_back(make_f32_section(format::tag::preprocess, prep));
    return map;
}

}  // namespace kfm::offline
