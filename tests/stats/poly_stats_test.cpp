// Unbiasedness and spread over many seeds of the polynomial / indefinite maps, through the real file path
// (build_map -> serialize -> open -> transform -> kernel_estimate): GORF and GRFF with the delta-gaussian
// kernel (exact Jordan split) and with the signed-mixture model (unbiased for its fitted surrogate),
// TensorSketch and Random Maclaurin (unbiased for the polynomial kernel), SRF at a = 4 and a = 3
// (unbiased for its positive-projected surrogate, which is within its fit error of the kernel). GORF with
// butterfly directions is only approximately unbiased (the butterfly network is not Haar): the test
// centres it on its measured bias.
//
// Each map family's per-seed standard deviation at each pair (and the butterfly's bias) was measured once
// with many seeds disjoint from the test's (the skipped case "poly stats: measure ..." at the end
// re-measures them). The test then checks, per family and pair, (a) the mean over the test's seeds lies in
// a Student-t interval around target + measured bias, widened by the bias's own margin, and (b) log(sample
// sd / measured sd) lies within z standard errors from the sample kurtosis (delta method), widened by the
// measurement's own margin. So a map whose estimate is mis-scaled or shifted fails (a), and one whose
// variance changed by a factor 2 (log sd 0.35) fails (b): the windows are about +-0.04 (4000 seeds) and
// +-0.13 (400 seeds). False-failure rate: 8 families x 3 pairs x 2 checks = 48 checks at two-sided 2e-4
// each (z = 3.72), so under 1% for the file.
#include <doctest/doctest.h>

#include <array>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "common/pair_estimates.hpp"
#include "common/stats_util.hpp"
#include "offline/sampling/spectral_signed.hpp"
#include "offline/methods/srf/srf_fit.hpp"

namespace {

using kfm::offline::build_options;
using target_fn = std::function<double(const std::vector<float>&, const std::vector<float>&)>;
constexpr unsigned dim = 6;
constexpr std::uint64_t test_first_seed = 1000;         // the test's maps: seeds 1000, 1001, ...
constexpr std::uint64_t measure_first_seed = 10000000;  // the measurement's: disjoint from the test's
constexpr double per_check_false_failure = 2e-4;
const double z_check = boost::math::quantile(boost::math::normal_distribution<double>(), 1.0 - per_check_false_failure / 2);
// Allowed ratio of structured to dense mean error (last test case; measured ratios in its comments).
constexpr double structured_dense_factor = 1.25;
constexpr double padded_hadamard_factor = 1.6;

// Three unit-norm pairs at different distances.
kfm::test::point_pairs unit_pairs() {
    kfm::test::point_pairs pairs =
        kfm::test::pairs_of_rows(kfm::test::random_points(6, dim, 77, 1.0, true), dim, {{0, 1}, {2, 3}, {4, 5}});
    // a close pair: x and a small perturbation of it, renormalised
    std::vector<float> near = pairs.xs[0];
    double norm = 0;
    for (unsigned j = 0; j < dim; ++j) {
        near[j] += j % 2 ? 0.15f : -0.1f;
        norm += double(near[j]) * near[j];
    }
    for (float& v : near) v = static_cast<float>(v / std::sqrt(norm));
    pairs.ys[0] = near;
    return pairs;
}

double distance(const std::vector<float>& x, const std::vector<float>& y) {
    double s = 0;
    for (std::size_t j = 0; j < x.size(); ++j) s += (double(x[j]) - y[j]) * (double(x[j]) - y[j]);
    return std::sqrt(s);
}

// One family's behaviour at one pair, measured once (see the comments of each case).
struct pair_figures {
    double bias = 0.0;           // mean - target; 0 where the map is unbiased by construction
    double bias_margin = 0.0;    // z_check standard errors of the measured bias (0 when not measured)
    double sd = 0.0;             // per-seed standard deviation of the estimate
    double log_sd_margin = 0.0;  // z_check standard errors of the measured log(sd)
};

struct map_case {
    std::string label;
    build_options options;
    target_fn target;
    int seeds = 0;          // the test's seed count
    int measure_seeds = 0;  // the measurement's
    std::array<pair_figures, 3> figures;
};

// The estimates at the pairs of c's maps with seeds first, first + 1, ..., first + count - 1.
std::vector<std::vector<double>> case_estimates(const map_case& c, const kfm::test::point_pairs& pairs,
                                                std::uint64_t first, int count) {
    return kfm::test::estimates_over_seeds(pairs, first, std::uint64_t(count),
                                           [o = c.options](std::uint64_t seed) mutable {
                                               o.seed = seed;
                                               return kfm::test::map_from_options(o);
                                           });
}

void check_case(const map_case& c) {
    const auto pairs = unit_pairs();
    const auto estimates = case_estimates(c, pairs, test_first_seed, c.seeds);
    for (int pair = 0; pair < 3; ++pair) {
        const auto& x = pairs.xs[pair];
        const auto& y = pairs.ys[pair];
        const pair_figures& f = c.figures[pair];
        const auto ci = kfm::test::mean_with_ci(estimates[pair], 1.0 - per_check_false_failure);
        const double want = c.target(x, y) + f.bias;
        const double log_sd_ratio = std::log(ci.stddev / f.sd);
        const double window = z_check * kfm::test::log_sd_standard_error(estimates[pair]) + f.log_sd_margin;
        INFO(c.label << " pair " << pair << " |x-y| = " << distance(x, y) << ": mean " << ci.mean << " +- "
                     << ci.half_width << ", target + bias " << want << " (+- " << f.bias_margin << "); sd "
                     << ci.stddev << ", measured " << f.sd << ", log ratio " << log_sd_ratio << ", window +-" << window);
        CHECK(std::fabs(ci.mean - want) <= ci.half_width + f.bias_margin);
        CHECK(std::fabs(log_sd_ratio) <= window);
    }
}

build_options poly_options(kfm::format::method m, unsigned features, unsigned p, double a) {
    build_options o;
    o.method = m;
    o.kernel.kind = kfm::format::kernel::polynomial_sphere;
    o.kernel.degree = p;
    o.kernel.scale = a;
    o.input_dim = dim;
    o.features = features;
    return o;
}

build_options delta_gaussian_options(kfm::format::method m, const char* directions) {
    build_options o;
    o.method = m;
    o.directions = kfm::offline::choice_named<kfm::offline::directions_kind>(directions);
    o.kernel.kind = kfm::format::kernel::delta_gaussian;
    o.kernel.weights = {1.0, -1.0};
    o.kernel.sigmas = {1.0, 10.0};
    o.input_dim = dim;
    o.features = 24;  // s = 6 = d: one full orthogonal (or butterfly) block per sign
    return o;
}

target_fn exact_target(const build_options& o) {
    return [kernel = o.kernel](const auto& x, const auto& y) { return kfm::test::exact(kernel, x, y); };
}

// Cheap maps (about 40 us each): 4000 test seeds, figures from 1 000 000 seeds (10 000 000+). The figures
// are {bias, bias margin, per-seed sd, log-sd margin} per pair, margins at z = 3.72. The maps that are
// unbiased by construction measured mean - target within their margins (e.g. dense GORF -0.000006 +-
// 0.000060, +0.000018 +- 0.00055, +0.00031 +- 0.00076), so their bias is 0. The 4000-seed windows are then
// about 0.06 per-seed sd for the mean and +-0.05 for log(sd).
map_case gorf_delta_gaussian(kfm::format::method m) {
    const build_options o = delta_gaussian_options(m, "dense");
    if (m == kfm::format::method::gorf)
        return {"gorf delta-gaussian", o, exact_target(o), 4000, 1000000, {{{0, 0, 0.01604, 0.0033}, {0, 0, 0.14827, 0.0026}, {0, 0, 0.20301, 0.0027}}}};
    return {"grff delta-gaussian", o, exact_target(o), 4000, 1000000, {{{0, 0, 0.02659, 0.0035}, {0, 0, 0.25213, 0.0026}, {0, 0, 0.27915, 0.0025}}}};
}

// Butterfly directions: bias measured -0.000019 +- 0.000059, +0.00109 +- 0.00055, +0.00126 +- 0.00075
// (the old fixed allowance was 0.003); per-seed sd within 1% of dense GORF's.
map_case gorf_butterfly() {
    const build_options o = delta_gaussian_options(kfm::format::method::gorf, "butterfly");
    return {"gorf butterfly delta-gaussian", o, exact_target(o), 4000, 1000000, {{{-0.000019, 0.000059, 0.01589, 0.0033}, {+0.001090, 0.000550, 0.14789, 0.0026}, {+0.001256, 0.000750, 0.20177, 0.0027}}}};
}

map_case polynomial(kfm::format::method m) {
    const build_options o = poly_options(m, 64, 3, 3.0);
    if (m == kfm::format::method::tensorsketch)
        return {"tensorsketch", o, exact_target(o), 4000, 1000000, {{{0, 0, 0.13120, 0.0033}, {0, 0, 0.07706, 0.0029}, {0, 0, 0.06869, 0.0030}}}};
    return {"maclaurin", o, exact_target(o), 4000, 1000000, {{{0, 0, 0.14826, 0.0028}, {0, 0, 0.11663, 0.0027}, {0, 0, 0.16388, 0.0027}}}};
}

// Maps with a fitted spectral model (about 5 ms each, the fit's tables): 400 test seeds, figures from
// 20 000 seeds. Measured mean - target, all within their margins (unbiased): signed-mixture +0.00008 +-
// 0.00043, -0.0003 +- 0.0040, -0.0002 +- 0.0052; SRF a = 4 +0.0010 +- 0.0023, +0.0001 +- 0.0026, +0.0002
// +- 0.0029; SRF a = 3 +0.0012 +- 0.0023, +0.0001 +- 0.0029, +0.0004 +- 0.0032. The 400-seed windows are
// about 0.19 per-seed sd for the mean and +-0.15 for log(sd).
map_case gorf_signed_mixture() {
    build_options o = poly_options(kfm::format::method::gorf, 24, 3, 3.0);
    o.spectral = kfm::offline::spectral_kind::signed_mixture;
    const auto fit = kfm::offline::fit_signed_mixture(3, 3.0);
    target_fn target = [fit, kernel = o.kernel](const auto& x, const auto& y) {
        const double z = distance(x, y);
        double k = 0.0;
        for (std::size_t i = 0; i < fit.weights.size(); ++i)
            k += fit.weights[i] * std::exp(-z * z / (2 * fit.sigmas[i] * fit.sigmas[i]));
        CHECK(std::fabs(k - kfm::test::exact(kernel, x, y)) <= fit.max_abs_error + 1e-9);
        return k;
    };
    return {"gorf signed-mixture", o, target, 400, 20000, {{{0, 0, 0.01629, 0.0222}, {0, 0, 0.15149, 0.0183}, {0, 0, 0.19585, 0.0188}}}};
}

map_case srf(double a) {
    const build_options o = poly_options(kfm::format::method::srf, 64, 3, a);
    const auto fit = kfm::offline::fit_srf_surrogate(dim, 3, a);
    target_fn target = [fit, kernel = o.kernel](const auto& x, const auto& y) {
        const double k = kfm::offline::srf_surrogate_kernel(fit, distance(x, y));
        CHECK(std::fabs(k - kfm::test::exact(kernel, x, y)) <= fit.max_abs_error + 2e-3);
        return k;
    };
    if (a == 4.0)
        return {"srf a = 4", o, target, 400, 20000, {{{0, 0, 0.08759, 0.0182}, {0, 0, 0.09883, 0.0184}, {0, 0, 0.10847, 0.0184}}}};
    return {"srf a = 3", o, target, 400, 20000, {{{0, 0, 0.08780, 0.0182}, {0, 0, 0.10953, 0.0183}, {0, 0, 0.12062, 0.0184}}}};
}

}  // namespace

TEST_CASE("gorf and grff: delta-gaussian estimates are unbiased over seeds, with their measured spread") {
    check_case(gorf_delta_gaussian(kfm::format::method::gorf));
    check_case(gorf_delta_gaussian(kfm::format::method::grff));
}

TEST_CASE("gorf: signed-mixture estimates are unbiased for the fitted mixture, close to the kernel") {
    check_case(gorf_signed_mixture());
}

TEST_CASE("tensorsketch and maclaurin: unbiased for the polynomial kernel, with their measured spread") {
    check_case(polynomial(kfm::format::method::tensorsketch));
    check_case(polynomial(kfm::format::method::maclaurin));
}

TEST_CASE("srf at a = 4 and a = 3: unbiased for its surrogate, which is within the fit error of the kernel") {
    check_case(srf(4.0));
    check_case(srf(3.0));
}

TEST_CASE("gorf: delta-gaussian with butterfly directions, centred on the butterfly's measured bias") {
    check_case(gorf_butterfly());
}

// Re-measures the figures above (skipped by default; run with
// `kfm_test_stats -tc="poly stats: measure*" --no-skip`, one family with -sc="<label>"). Prints, per pair,
// mean - target with z_check standard errors, the per-seed sd, and z_check standard errors of log(sd)
// from the sample kurtosis.
TEST_CASE("poly stats: measure each family's bias and per-seed sd" * doctest::skip()) {
    const auto pairs = unit_pairs();
    for (const map_case& c : {gorf_delta_gaussian(kfm::format::method::gorf), gorf_delta_gaussian(kfm::format::method::grff),
                              gorf_signed_mixture(), polynomial(kfm::format::method::tensorsketch),
                              polynomial(kfm::format::method::maclaurin), srf(4.0), srf(3.0), gorf_butterfly()}) {
        SUBCASE(c.label.c_str()) {
            const auto estimates = case_estimates(c, pairs, measure_first_seed, c.measure_seeds);
            for (int pair = 0; pair < 3; ++pair) {
                const auto ci = kfm::test::mean_with_ci(estimates[pair], 0.5);
                const double target = c.target(pairs.xs[pair], pairs.ys[pair]);
                const double se = ci.stddev / std::sqrt(double(estimates[pair].size()));
                const double se_log_sd = kfm::test::log_sd_standard_error(estimates[pair]);
                std::printf("%s (%d seeds) pair %d: target %.5f, bias %+.6f +- %.6f, sd %.5f, log-sd margin %.4f\n",
                            c.label.c_str(), c.measure_seeds, pair, target, ci.mean - target, z_check * se, ci.stddev,
                            z_check * se_log_sd);
            }
        }
    }
}

// Structured directions must not cost accuracy against dense orthogonal ones: relative Frobenius error of
// K^(X, Y) on random unit points, mean over paired seeds (the same points and seed for every variant). A
// broken structured path (wrong radius scale, rows not orthonormal, missing signs, repeated blocks) gives
// errors several times the dense ones; the factors allow the seed-to-seed noise and, for hadamard at
// d = 24 (padded to 32, so its rows restricted to R^24 are neither unit nor orthogonal), that padding.
// Measured (hadamard / butterfly over dense): srf 0.88 / 0.89 (d = 16), 0.89 / 0.91 (d = 24); gorf
// signed-mixture 1.02 / 1.01, 1.33 / 1.00; gorf delta-gaussian 1.01 / 1.02, 1.22 / 1.01.
TEST_CASE("srf and gorf: structured directions within a stated factor of dense orthogonal directions") {
    constexpr int structured_seeds = 12;
    constexpr std::size_t n = 60;
    struct kernel_case {
        const char* label;
        kfm::format::method method;
        bool delta;
    };
    // GORF's polynomial case uses signed-mixture: bessel-1d's bias (about 0.25 relative here) would hide a
    // structured path's error.
    const kernel_case cases[] = {{"srf polynomial", kfm::format::method::srf, false},
                                 {"gorf polynomial signed-mixture", kfm::format::method::gorf, false},
                                 {"gorf delta-gaussian", kfm::format::method::gorf, true}};
    for (unsigned d : {16u, 24u}) {
        for (const auto& kc : cases) {
            double mean_error[3] = {0, 0, 0};  // dense, hadamard, butterfly
            const char* directions[3] = {"dense", "hadamard", "butterfly"};
            for (int s = 0; s < structured_seeds; ++s) {
                const auto x = kfm::test::random_points(n, d, 500 + 2 * s, 1.0, true);
                const auto y = kfm::test::random_points(n, d, 501 + 2 * s, 1.0, true);
                for (int v = 0; v < 3; ++v) {
                    build_options o = poly_options(kc.method, 8 * d, 3, 4.0);
                    if (kc.delta) {
                        o.kernel.kind = kfm::format::kernel::delta_gaussian;
                        o.kernel.weights = {1.0, -1.0};
                        o.kernel.sigmas = {1.0, 10.0};
                    }
                    if (kc.method == kfm::format::method::gorf && !kc.delta) o.spectral = kfm::offline::spectral_kind::signed_mixture;
                    o.input_dim = d;
                    o.directions = kfm::offline::choice_named<kfm::offline::directions_kind>(directions[v]);
                    o.seed = 9000 + s;
                    const auto map = kfm::test::map_from_options(o);
                    mean_error[v] += kfm::test::gram_error(map, x, n, y, n).rel_frobenius / structured_seeds;
                }
            }
            MESSAGE(std::string(kc.label) << " d = " << d << ": rel. Frobenius dense " << mean_error[0] << ", hadamard "
                             << mean_error[1] << ", butterfly " << mean_error[2]);
            CAPTURE(d);
            CAPTURE(std::string(kc.label));
            CHECK(mean_error[2] < structured_dense_factor * mean_error[0]);
            CHECK(mean_error[1] < (d == 16 ? structured_dense_factor : padded_hadamard_factor) * mean_error[0]);
        }
    }
}
