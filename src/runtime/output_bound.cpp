// Worst-case magnitudes of a transform's intermediates (see the header). Every bound is a log2 in double,
// so no product of stored values can overflow while it is computed; log2(0) = -inf stays ordered.
#include "runtime/output_bound.hpp"

#include <cmath>

namespace kfm::detail {
namespace {

namespace fmt = kfm::format;

double log2_abs(double v) { return std::log2(std::fabs(v)); }

double larger(double a, double b) { return a > b ? a : b; }

// log2 of |a| + |b| from log2 |a| and log2 |b| (a bound on any sum of the two).
double log2_sum(double la, double lb) {
    const double hi = larger(la, lb), lo = la > lb ? lb : la;
    if (hi == -INFINITY) return hi;
    return hi + std::log2(1.0 + std::exp2(lo - hi));
}

// log2 of max |v_i| over n floats (-inf for none).
double log2_max_abs(const float* v, std::uint64_t n) {
    float m = 0.0f;
    for (std::uint64_t i = 0; i < n; ++i) {
        const float a = std::fabs(v[i]);
        if (a > m) m = a;
    }
    return log2_abs(m);
}

// The pre-processed input's norms: its largest entry, 1-norm and 2-norm.
struct input_norms {
    double inf, one, two;
};

// log2 of the largest |x'_i| = |x_i - shift_i| |scale_i| a model's PREP can make of |x_i| <= max_input_abs
// (max_input_abs itself without PREP).
double scaled_input_bound(const map_state& map) {
    const double raw = double(fmt::max_input_abs);
    if (map.prep == nullptr) return std::log2(raw);
    const std::uint32_t d = map.meta->input_dim;
    double worst = -INFINITY;
    for (std::uint32_t i = 0; i < d; ++i)
        worst = larger(worst, std::log2(raw + std::fabs(double(map.prep[i]))) + log2_abs(map.prep[d + i]));
    return worst;
}

input_norms input_bound(const map_state& map) {
    const fmt::map_meta& m = *map.meta;
    const double d = m.input_dim, append = log2_abs(m.input_append);
    input_norms n{};
    if ((m.flags & fmt::meta_flag_normalize_input) != 0) {  // unit norm (or zero)
        n = {0.0, 0.5 * std::log2(d), 0.0};
    } else {
        const double x = scaled_input_bound(map);
        n = {x, x + std::log2(d), x + 0.5 * std::log2(d)};
    }
    return {log2_sum(n.inf, append), log2_sum(n.one, append), log2_sum(n.two, append)};
}

// log2 of the largest |t_j| and of any intermediate of the projection stage.
double projection_bound(const map_state& map, const input_norms& x) {
    const fmt::map_meta& m = *map.meta;
    const double log2_n = std::log2(double(m.block_size > 0 ? m.block_size : 1));
    switch (static_cast<fmt::projection>(m.projection)) {
#if KFM_PROJECTION_DENSE
        case fmt::projection::dense:  // every partial sum of W x is at most max |W| |x|_1
            return log2_max_abs(map.dense, map.dense_count) + x.one;
#endif
#if KFM_PROJECTION_HADAMARD
        case fmt::projection::hadamard:  // unnormalised passes: at most sqrt(d2) |x|_2 between the scalings
            return x.two + log2_n;
#endif
#if KFM_PROJECTION_BUTTERFLY_BLOCKS
        case fmt::projection::butterfly_blocks:  // rotations (verified to 2^-20): the 2-norm is kept
            return x.two + 1.0;
#endif
#if KFM_PROJECTION_BUTTERFLY_SIMPLEX
        case fmt::projection::butterfly_simplex:  // then running sums of d + 1 entries with coefficients <= 2
            return x.two + 2.0 + std::log2(double(m.work_dim) + 1.0);
#endif
#if KFM_PROJECTION_SSF_FFT
        case fmt::projection::ssf_fft:  // |twiddles| <= 1 (verified): every FFT partial sum is <= |x|_1
            return x.one + 1.0;
#endif
#if KFM_PROJECTION_FASTFOOD
        case fmt::projection::fastfood:  // H B x keeps |x|_2, Pi too, G scales it by max |G|, then as hadamard
            return x.two + log2_max_abs(map.gaussian_diagonal, map.gaussian_diagonal_count) + log2_n;
#endif
#if KFM_PROJECTION_KERNEL_LANDMARKS
        case fmt::projection::kernel_landmarks: {
            // x.l_j (<= max |L| |x|_1), |x|^2 + |l_j|^2, then k in [0, 1] and every partial sum of M k <= m max |M|.
            const double dots = log2_max_abs(map.dense, map.dense_count) + x.one;
            const double squares = log2_sum(2.0 * x.two, log2_max_abs(map.landmark_norms, map.landmark_norm_count));
            const double t = log2_max_abs(map.kernel_inverse_root, map.kernel_inverse_root_count) +
                             std::log2(double(m.projection_dim));
            return larger(larger(dots + 1.0, squares + 1.0), t);
        }
#endif
#if KFM_PROJECTION_COUNT_SKETCH_FFT
        case fmt::projection::count_sketch_fft: {
            // Each sketch's spectrum is <= |x|_1; their product over block_count sketches, summed over n bins.
            const double one = larger(x.one, 0.0);
            return one * m.block_count + log2_n;
        }
#endif
        default: break;  // a kind this build leaves out (projection_registry.cpp): open refuses its maps
    }
    return INFINITY;  // unreachable: verify_map refuses unknown projections
}

// log2 of the largest |v| over the n entries of an optional per-argument array times its scalar.
double log2_factor(float scalar, const float* array, std::uint32_t index, std::uint64_t n) {
    const double s = log2_abs(scalar);
    return index == fmt::no_index ? s : s + log2_max_abs(array + index, n);
}

// log2 of the largest intermediate of a segment's features after the weight w_i w is formed, given
// |s t| <= 2^arg and |w_i w| <= 2^weight.
double feature_bound(const map_state& map, const fmt::feature_segment& s, double arg, double weight) {
    switch (static_cast<fmt::nonlinearity>(s.nonlinearity)) {
        case fmt::nonlinearity::cos_sin:
        case fmt::nonlinearity::step: return larger(arg, weight);  // |cos|, |sin| <= 1 for every finite argument
        case fmt::nonlinearity::cos_phase:
            return larger(log2_sum(arg, log2_max_abs(map.phases + s.phase_index, s.arg_count)), weight);
        case fmt::nonlinearity::relu:
        case fmt::nonlinearity::identity: return larger(arg, weight + arg);
        case fmt::nonlinearity::relu2: return larger(larger(arg, 2 * arg), weight + 2 * arg);
        case fmt::nonlinearity::product: {
            // The longest group multiplies that many arguments (in double, then weighted and rounded).
            const std::uint32_t* g = map.groups + s.group_index;
            std::uint32_t longest = 0;
            for (std::uint32_t j = 0; j < s.arg_count; ++j) longest = g[j + 1] - g[j] > longest ? g[j + 1] - g[j] : longest;
            const double p = larger(arg, 0.0) * longest;
            return larger(p, weight + p);
        }
    }
    return INFINITY;  // unreachable: verify_map refuses unknown nonlinearities
}

// log2 of the largest intermediate of a segment's features, given |t| <= 2^t. The kernels form the weight
// w_i w before they apply it (kernels/features.hpp), so it is an intermediate of its own: a huge weight on
// tiny arguments gives small features, but w_i w alone may not fit a float.
double segment_bound(const map_state& map, const fmt::feature_segment& s, double t) {
    const bool product = static_cast<fmt::nonlinearity>(s.nonlinearity) == fmt::nonlinearity::product;
    const double scale = log2_factor(s.scale, map.scales, s.scale_index, product ? s.proj_count : s.arg_count);
    const double weight = log2_factor(s.weight, map.weights, s.weight_index, s.arg_count);
    return larger(weight, feature_bound(map, s, scale + t, weight));
}

}  // namespace

double log2_magnitude_bound(const map_state& map) noexcept {
    const input_norms x = input_bound(map);
    const double t = projection_bound(map, x);
    double features = -INFINITY;
    for (std::uint32_t i = 0; i < map.segment_count; ++i) features = larger(features, segment_bound(map, map.segments[i], t));
    features = larger(features, log2_max_abs(map.constants, map.constant_count));
    double bound = larger(larger(x.one, t), features);
    if (map.head != nullptr) {  // a model's scores: every partial sum of W phi + b is <= D max|W| max|phi| + max|b|
        const double scores = std::log2(double(map.meta->output_dim)) + log2_max_abs(map.head, map.head_count) + features;
        bound = larger(bound, log2_sum(scores, log2_max_abs(map.bias, map.bias_count)));
    }
    return bound;
}

}  // namespace kfm::detail
