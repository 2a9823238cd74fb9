// Worst-case magnitudes of a transform's intermediates (see the header): the input and feature stages, and
// the projection stage through its projection's own bound (projection_ops). One implementation, instantiated
// twice over the arithmetic of runtime/output_bound_math.hpp: in double (the host) and in float (the firmware
// profile; runtime/output_bound.hpp states the margin that makes both decide alike).
#include "runtime/output_bound.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "runtime/kernel_selection.hpp"
#include "runtime/output_bound_math.hpp"
#include "runtime/projection.hpp"

namespace kfm::detail {

namespace fmt = kfm::format;

namespace {

// log2 |v| from the bits of a float: the exponent plus log2 of the mantissa m in [sqrt(1/2), sqrt(2)),
// as ln(m) / ln(2) with ln(m) = 2 atanh(s) = 2 (s + s^3/3 + ... + s^9/9), s = (m - 1) / (m + 1). |s| <= 0.1716,
// so the series' remainder is below 2 |s|^11 / 11 / (1 - s^2) < 1e-9; float rounding adds a few 1e-7. Exact
// (the exponent alone) for a power of two: m = 1 gives s = 0.
float portable_log2_of_parts(int exponent, float m) {
    if (m > 1.41421356f) {
        m *= 0.5f;
        ++exponent;
    }
    const float s = (m - 1.0f) / (m + 1.0f), s2 = s * s;
    const float series = s * (1.0f + s2 * (1.0f / 3 + s2 * (1.0f / 5 + s2 * (1.0f / 7 + s2 * (1.0f / 9)))));
    return float(exponent) + 2.0f * series * 1.44269504f;  // 1 / ln 2
}

// log2 |v| of a double without double arithmetic: its exponent, and its mantissa truncated to a float's 23
// bits (at most 2^-23 relative, 1.8e-7 in log2). Doubles beyond float's range keep their exponent.
float portable_log2_of_double(double v) {
    std::uint64_t u;
    std::memcpy(&u, &v, sizeof u);
    u &= 0x7fffffffffffffffull;
    if (u == 0) return -INFINITY;
    if (u >= 0x7ff0000000000000ull) return INFINITY;
    int exponent = int(u >> 52) - 1023;
    std::uint64_t mantissa = u & 0x000fffffffffffffull;
    if (exponent == -1023) {  // subnormal: normalise the mantissa
        int shift = 0;
        while ((mantissa & 0x0010000000000000ull) == 0) {
            mantissa <<= 1;
            ++shift;
        }
        exponent = -1022 - shift;
        mantissa &= 0x000fffffffffffffull;
    }
    const std::uint32_t mantissa_bits = std::uint32_t(mantissa >> 29) | 0x3f800000u;
    float m;
    std::memcpy(&m, &mantissa_bits, sizeof m);
    return portable_log2_of_parts(exponent, m);
}

}  // namespace

float portable_log2(float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    u &= 0x7fffffffu;
    if (u == 0) return -INFINITY;
    if (u >= 0x7f800000u) return INFINITY;  // never reached: open checks every stored float is finite
    int exponent = int(u >> 23) - 127;
    if (exponent == -127) {  // subnormal: scale by 2^24 into the normal range
        float n = float(u) * 0x1p-149f * 0x1p24f;
        std::memcpy(&u, &n, sizeof u);
        exponent = int(u >> 23) - 127 - 24;
    }
    const std::uint32_t mantissa_bits = (u & 0x007fffffu) | 0x3f800000u;
    float m;
    std::memcpy(&m, &mantissa_bits, sizeof m);
    return portable_log2_of_parts(exponent, m);
}

// 2^t for t <= 0: 2^k 2^f with k = t rounded to an integer and |f| <= 1/2, 2^f = e^(f ln 2) by its Taylor
// polynomial to degree 7 (remainder below 0.347^8 / 8! < 5e-9). Exact for an integer t (f = 0); 0 below
// 2^-100, where only 1 + 2^t is ever asked for.
float portable_exp2(float t) {
    if (!(t > -100.0f)) return 0.0f;
    const int k = int(t - 0.5f);  // t < 0.5: truncation rounds t - 0.5 up, to the nearest integer of t
    const float y = (t - float(k)) * 0.693147181f;
    const float tail = 1.0f / 24 + y * (1.0f / 120 + y * (1.0f / 720 + y * (1.0f / 5040)));
    const float e = 1.0f + y * (1.0f + y * (0.5f + y * (1.0f / 6 + y * tail)));
    const std::uint32_t scale_bits = std::uint32_t(k + 127) << 23;
    float scale;
    std::memcpy(&scale, &scale_bits, sizeof scale);
    return e * scale;
}

namespace {

// The arithmetic of the input and feature stages: the projections' (runtime/output_bound_math.hpp), and log2 |v|
// of a double (the input's appended value is one).
struct host_math : double_math {
    using double_math::log2_abs;
    static double log2_abs(double v) { return std::log2(std::fabs(v)); }
};
struct firmware_math : float_math {
    using float_math::log2_abs;
    static float log2_abs(double v) { return portable_log2_of_double(v); }
};

// The projection stage's bound: the map's projection's own (projection_ops), in double or in float. The
// firmware profile's projections have the float one alone.
#if !KFM_FIRMWARE
double projection_bound(const map_state& map, const input_norms<double>& x) {
    return map.ops->log2_output_bound(map, x);
}
#endif
float projection_bound(const map_state& map, const input_norms<float>& x) {
    return map.ops->log2_output_bound_float(map, x);
}

template <class M>
struct magnitude_bound : log2_magnitudes<M> {
    using base = log2_magnitudes<M>;
    using typename base::real;
    using base::larger;
    using base::log2_max_abs;
    static real log2_max_abs(const section_view<float>& v) { return base::log2_max_abs(v.data, v.count); }
    using base::log2_sum;

    // log2 of the largest head weight. The int8 head (|q| <= 2^7, times its output's scale) sums q phi
    // before scaling, so the bound covers both 2^7 and 2^7 max|scale|.
    static real log2_max_abs_head(const map_state& map) {
        if (map.view<section::head>().present()) return log2_max_abs(map.view<section::head>());
        return real(7) + larger(real(0), log2_max_abs(map.view<section::head_scales>()));
    }

    using norms = input_norms<real>;

    // log2 of the largest |x'_i| = |x_i - shift_i| |scale_i| a model's PREP can make of |x_i| <= max_input_abs
    // (max_input_abs itself without PREP).
    static real scaled_input_bound(const map_state& map) {
        const real raw = real(fmt::max_input_abs);
        const section_view<float> prep = map.view<section::preprocess>();
        if (!prep.present()) return M::log2(raw);
        const std::uint32_t d = map.meta->input_dim;
        real worst = -INFINITY;
        for (std::uint32_t i = 0; i < d; ++i)
            worst = larger(worst, M::log2(raw + std::fabs(real(prep[i]))) + M::log2_abs(prep[d + i]));
        return worst;
    }

    static norms input_bound(const map_state& map) {
        const fmt::map_meta& m = *map.meta;
        const real d = real(m.input_dim), append = M::log2_abs(m.input_append);
        norms n{};
        if ((m.flags & fmt::meta_flag_normalize_input) != 0) {  // unit norm (or zero)
            n = {real(0.5) * M::log2(d), real(0)};
        } else {
            const real x = scaled_input_bound(map);
            n = {x + M::log2(d), x + real(0.5) * M::log2(d)};
        }
        return {log2_sum(n.one, append), log2_sum(n.two, append)};
    }

    // log2 of the largest |v| over the n entries of an optional per-argument array times its scalar.
    static real log2_factor(float scalar, const float* array, std::uint32_t index, std::uint64_t n) {
        const real s = M::log2_abs(scalar);
        return index == fmt::no_index ? s : s + log2_max_abs(array + index, n);
    }

    // log2 of the largest intermediate of a segment's features after the weight w_i w is formed, given
    // |s t| <= 2^arg and |w_i w| <= 2^weight.
    static real feature_bound(const map_state& map, const fmt::feature_segment& s, real arg, real weight) {
        switch (static_cast<fmt::nonlinearity>(s.nonlinearity)) {
            case fmt::nonlinearity::cos_sin:
            case fmt::nonlinearity::step: return larger(arg, weight);  // |cos|, |sin| <= 1 for every finite argument
            case fmt::nonlinearity::cos_phase: {
                const real phases = log2_max_abs(map.view<section::phases>().data + s.phase_index, s.arg_count);
                return larger(log2_sum(arg, phases), weight);
            }
            case fmt::nonlinearity::relu:
            case fmt::nonlinearity::identity: return larger(arg, weight + arg);
            case fmt::nonlinearity::relu2: return larger(larger(arg, real(2) * arg), weight + real(2) * arg);
            case fmt::nonlinearity::product: {
                // The longest group multiplies that many arguments (then weighted and rounded); a block
                // product multiplies its degree's, proj_count / block_size.
                std::uint32_t longest = 0;
                if (block_products_kept() && (s.flags & fmt::segment_flag_complex_block_product) != 0) {
                    // proj_count / (2 block_size) complex factors s (u + i v) with |s u|, |s v| <= 2^arg, so
                    // |z| <= 2^(arg + 1/2); every partial product's parts, and each of the products of parts
                    // that form the next one (|ac| + |bd| <= |a + ib| |c + id|), are at most the product of
                    // the factors' moduli.
                    const real p = larger(arg + real(0.5), real(0)) * real(s.proj_count / (2 * map.meta->block_size));
                    return larger(p, weight + p);
                }
                if ((s.flags & fmt::segment_flag_block_product) != 0) {
                    longest = s.proj_count / map.meta->block_size;
                } else {
                    const std::uint32_t* g = map.view<section::groups>().data + s.group_index;
                    for (std::uint32_t j = 0; j < s.arg_count; ++j) longest = g[j + 1] - g[j] > longest ? g[j + 1] - g[j] : longest;
                }
                const real p = larger(arg, real(0)) * real(longest);
                return larger(p, weight + p);
            }
        }
        return INFINITY;  // unreachable: verify_map refuses unknown nonlinearities
    }

    // log2 of the largest intermediate of a segment's features, given |t| <= 2^t. The kernels form the weight
    // w_i w before they apply it (kernels/features.hpp), so it is an intermediate of its own: a huge weight on
    // tiny arguments gives small features, but w_i w alone may not fit a float.
    static real segment_bound(const map_state& map, const fmt::feature_segment& s, real t) {
        const bool product = static_cast<fmt::nonlinearity>(s.nonlinearity) == fmt::nonlinearity::product;
        const real scale =
            log2_factor(s.scale, map.view<section::scales>().data, s.scale_index, product ? s.proj_count : s.arg_count);
        const real weight = log2_factor(s.weight, map.view<section::weights>().data, s.weight_index, s.arg_count);
        return larger(weight, feature_bound(map, s, scale + t, weight));
    }

    static real log2_magnitude_bound(const map_state& map) {
        const norms x = input_bound(map);
        const real t = projection_bound(map, x);  // |t_j| and the projection's intermediates
        real features = -INFINITY;
        const section_view<fmt::feature_segment> segments = map.view<section::segments>();
        for (std::uint64_t i = 0; i < segments.count; ++i)
            features = larger(features, segment_bound(map, segments[i], t));
        features = larger(features, log2_max_abs(map.view<section::constants>()));
        real bound = larger(larger(x.one, t), features);
        // A map that normalises its input still computes PREP's x' = (x - shift) scale first: it must be
        // finite too (input_bound's norms are those after normalising; for other maps x.one covers it).
        if ((map.meta->flags & fmt::meta_flag_normalize_input) != 0) bound = larger(bound, scaled_input_bound(map));
        // The gaussian prefactor sums the squares of x' (the factor itself, at most 1, only shrinks outputs).
        if ((map.meta->flags & fmt::meta_flag_gaussian_prefactor) != 0) bound = larger(bound, real(2) * x.two);
        if (map.view<section::head>().present() || map.view<section::head_int8>().present()) {
            // A model's scores: every partial sum of W phi + b is <= D max|W| max|phi| + max|b|.
            const real scores = M::log2(real(map.meta->output_dim)) + log2_max_abs_head(map) + features;
            bound = larger(bound, log2_sum(scores, log2_max_abs(map.view<section::bias>())));
        }
        return bound;
    }
};

}  // namespace

#if !KFM_FIRMWARE
double log2_magnitude_bound(const map_state& map) noexcept {
    return magnitude_bound<host_math>::log2_magnitude_bound(map);
}
#endif

float log2_magnitude_bound_float(const map_state& map) noexcept {
    return magnitude_bound<firmware_math>::log2_magnitude_bound(map);
}

bool magnitudes_within_contract(const map_state& map) noexcept {
#if KFM_FIRMWARE
    return log2_magnitude_bound_float(map) <= float(max_log2_magnitude);
#else
    return log2_magnitude_bound(map) <= max_log2_magnitude;
#endif
}

}  // namespace kfm::detail
