// SSF statistics: the per-point shifted radial rule is unbiased for E[cos(r a)], r ~ chi(2m) (the
// midpoint rule is not); the arc-cosine constant C_b stored in the map makes a Monte Carlo over uniform
// directions match the exact kernel, and the map's mean over seeds sits at its measured bias; the spread
// of the Gram estimate over seeds falls like 1/D as blocks are added (independent blocks).
#include <doctest/doctest.h>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common/stats_util.hpp"
#include "offline/sampling/random.hpp"
#include "runtime/map_state.hpp"

namespace fmt = kfm::format;
using namespace kfm::test;
using kfm::detail::section;

namespace {

kfm::offline::build_options ssf_options(unsigned d, unsigned features, fmt::kernel kernel, std::uint64_t seed) {
    kfm::offline::build_options o;
    o.method = fmt::method::ssf;
    o.kernel.kind = kernel;
    o.kernel.sigma = std::sqrt(d / 2.0);
    o.input_dim = d;
    o.features = features;
    o.seed = seed;
    o.sweeps = 3;
    return o;
}


}  // namespace

TEST_CASE("ssf shifted radial rule is unbiased; the midpoint rule is not") {
    const unsigned d = 10, radial = 2;  // chi(10), two points per direction
    const double sigma = std::sqrt(d / 2.0);
    // The map's SCAL section holds t_ij / sigma for j < M (row j), i < P: one independent shift per point,
    // so the P points of one map and the points of other seeds are all iid draws of the rule.
    for (double a : {0.4, 1.0, 1.7}) {
        std::vector<double> draws;
        for (std::uint64_t seed = 1; seed <= 8; ++seed) {
            auto o = ssf_options(d, 2 * radial * 256, fmt::kernel::gaussian, seed);
            o.radial_points = radial;
            o.radial_rule = kfm::offline::radial_rule_kind::shifted;
            o.sweeps = 0;
            const opened_map map = map_from_options(o);
        const auto& vs = map.state();
        const float* scales = vs.view<section::scales>().data;
            const std::uint32_t p = vs.meta->projection_dim;
            REQUIRE(vs.view<section::scales>().count == std::uint64_t(radial) * p);
            for (std::uint32_t i = 0; i < p; ++i) {
                double mean = 0.0;
                for (unsigned j = 0; j < radial; ++j) mean += std::cos(scales[std::size_t(j) * p + i] * sigma * a);
                draws.push_back(mean / radial);
            }
        }
        const double exact = chi_cos_mean(d, a);
        const mean_ci ci = mean_with_ci(draws, 0.999);
        MESSAGE("a " << a << ": shifted mean " << ci.mean << " +- " << ci.half_width << ", exact " << exact);
        CHECK(ci.contains(exact));

        auto o = ssf_options(d, 2 * radial * 256, fmt::kernel::gaussian, 1);
        o.radial_points = radial;
        o.sweeps = 0;
        const opened_map mid = map_from_options(o);
        double midpoint = 0.0;
        for (unsigned j = 0; j < radial; ++j) midpoint += std::cos(mid.state().view<section::segments>()[j].scale * sigma * a);
        midpoint /= radial;
        MESSAGE("a " << a << ": midpoint " << midpoint << " (bias " << midpoint - exact << ")");
        if (a >= 1.0) CHECK(std::abs(midpoint - exact) > ci.half_width);  // the interval can see the bias
    }
}

TEST_CASE("ssf arc-cosine constant C_b: Monte Carlo over uniform directions matches the exact kernel") {
    const unsigned d = 9;  // padded to 10: the points live on S^9
    const auto xs = random_points(2, d, 41, 1.5);
    const std::vector<float> x(xs.begin(), xs.begin() + d), y(xs.begin() + d, xs.end());
    for (unsigned order : {0u, 1u, 2u}) {
        auto o = ssf_options(d, 512, fmt::kernel::arccos, 3);
        o.kernel.order = order;
        const opened_map map = map_from_options(o);
        const auto& seg = map.state().view<section::segments>()[0];
        const unsigned w = map.state().meta->work_dim, p = map.state().meta->projection_dim;
        const double c_b = 2.0 * p * double(seg.weight) * seg.weight;  // weight = sqrt(C_b / (2P))
        auto theta = [&](double u) { return u <= 0.0 ? 0.0 : order == 0 ? 1.0 : std::pow(u, order); };
        kfm::offline::rng r(100 + order);
        std::vector<double> dir(w), draws;
        for (int k = 0; k < 100000; ++k) {
            r.unit_sphere(dir.data(), w);
            double px = 0.0, py = 0.0;
            for (unsigned j = 0; j < d; ++j) {
                px += dir[j] * x[j];
                py += dir[j] * y[j];
            }
            draws.push_back(0.5 * c_b * (theta(px) * theta(py) + theta(-px) * theta(-py)));
        }
        const double exact = kfm::test::exact(kfm::offline::kernel_spec_from_map(map.view()), x, y);
        const mean_ci ci = mean_with_ci(draws, 0.999);
        MESSAGE("order " << order << ": C_b " << c_b << " MC " << ci.mean << " +- " << ci.half_width << " exact " << exact);
        CHECK(ci.contains(exact));
    }
}

// The SSF map's own estimate, over 400 seeds at D = 512. Its points are structured, not uniform on the
// sphere, so the map is slightly biased; the bias was measured once with 20 000 seeds (mean - exact and
// its 99.9% interval): order 0 +0.0267 +- 0.0010, order 1 +0.0155 +- 0.00066, order 2 -0.0552 +- 0.0042,
// against per-seed standard deviations 0.0432, 0.0282, 0.180. The mean must lie within a 99.9% Student-t
// interval of exact + bias, widened by the bias's own interval: false-failure rate about 3e-3 for the three
// orders. A constant C_b wrong by a factor (d + 2) / d (20% at order 2) or a 2x variance inflation moves
// the mean or the interval far outside (the half-width is about 3% of the kernel value). The bias belongs to
// the layout it was measured with: 16 stacked blocks of the smallest FFT (n = 8), hence fft_size smallest.
TEST_CASE("ssf arc-cosine map: mean over seeds at its measured bias from the exact kernel") {
    const unsigned d = 9, seeds = 400;
    const auto xs = random_points(2, d, 41, 1.5);
    const std::vector<float> x(xs.begin(), xs.begin() + d), y(xs.begin() + d, xs.end());
    const double bias[3] = {0.0267, 0.0155, -0.0552}, bias_half_width[3] = {0.0010, 0.00066, 0.0042};
    const double sd_measured[3] = {0.0432, 0.0282, 0.180};
    for (unsigned order : {0u, 1u, 2u}) {
        std::vector<double> draws;
        double exact_value = 0.0;
        for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
            auto o = ssf_options(d, 512, fmt::kernel::arccos, seed);
            o.kernel.order = order;
            o.fft_size = kfm::offline::ssf_fft_size_smallest;
            const opened_map map = map_from_options(o);
            draws.push_back(estimate(map, x, y));
            exact_value = exact(kfm::offline::kernel_spec_from_map(map.view()), x, y);
        }
        const mean_ci ci = mean_with_ci(draws, 0.999);
        MESSAGE("order " << order << ": mean " << ci.mean << " +- " << ci.half_width << " (sd " << ci.stddev
                         << "), exact " << exact_value << " + bias " << bias[order]);
        CHECK(std::abs(ci.mean - (exact_value + bias[order])) <= ci.half_width + bias_half_width[order]);
        // The spread itself: log(s) has standard error sqrt((kurtosis - 1) / (4 n)) (delta method, kurtosis
        // from the sample); z = 3.29 (two-sided 1e-3), plus 0.025 for the rounded 20 000-seed measurement.
        // A 2x variance (log sd + 0.35) is then far outside (the window is about +-0.15).
        double m4 = 0.0;
        for (double v : draws) m4 += std::pow(v - ci.mean, 4) / seeds;
        const double kurtosis = m4 / std::pow(ci.stddev, 4);
        const double window = 3.29 * std::sqrt((kurtosis - 1.0) / (4.0 * seeds)) + 0.025;
        MESSAGE("order " << order << ": log(sd / measured) " << std::log(ci.stddev / sd_measured[order]) << ", window " << window);
        CHECK(std::abs(std::log(ci.stddev / sd_measured[order])) <= window);
    }
}

// The spread of the Gram estimate over seeds, V_B = E ||K^ - E K^||_F^2, with B FFT blocks (D = 128 B at
// d = 32: one block is 2n = 64 points). Blocks are independent given the index set Lambda, which all blocks
// of one map share, so V_B = a + b / B exactly: b / B from the blocks, a >= 0 from Lambda. Each V_B is
// estimated from 32 maps (seeds disjoint across B, so the five estimates are independent) as the mean of
// per-seed squared deviations, with its standard error from their spread. The weighted fit of a + b / B
// must pass a chi-squared goodness-of-fit test (3 degrees of freedom, false-failure rate 1e-3 per kernel),
// a must not be significantly negative (z = 3.09, 1e-3), and the shared part must stay below the block
// part at the largest D (a < b / 16; measured a 16 / b about 0.05), so the spread falls like 1 / D over
// the range. A last block repeating the one before (V_2 = V_1 instead of V_1 / 2) fails the fit.
TEST_CASE("ssf Gram spread over seeds falls like 1/D as blocks are added (gaussian shifted; arccos 1)") {
    const unsigned d = 32, n = 60, seeds = 32;
    const auto x = random_points(n, d, 5, std::sqrt(double(d)));
    const auto y = random_points(n, d, 6, std::sqrt(double(d)));
    const std::vector<double> blocks = {1, 2, 4, 8, 16};
    for (int variant = 0; variant < 2; ++variant) {
        std::vector<double> spread, se;
        for (double b : blocks) {
            std::vector<std::vector<double>> grams;
            for (std::uint64_t s = 0; s < seeds; ++s) {
                auto o = ssf_options(d, 128 * unsigned(b), variant == 0 ? fmt::kernel::gaussian : fmt::kernel::arccos,
                                     1000 * std::uint64_t(b) + s);
                o.kernel.order = 1;
                o.radial_rule = kfm::offline::radial_rule_kind::shifted;
                o.fft_size = kfm::offline::ssf_fft_size_smallest;  // stacked blocks, not the default one block
                const opened_map map = map_from_options(o);
                REQUIRE(map.state().meta->block_count == unsigned(b));
                grams.push_back(kfm::offline::approx_gram(map.view(), x.data(), n, y.data(), n, d));
            }
            std::vector<double> mean(n * n, 0.0), deviation;
            for (const auto& g : grams)
                for (std::size_t i = 0; i < g.size(); ++i) mean[i] += g[i] / seeds;
            for (const auto& g : grams) {
                double sq = 0.0;
                for (std::size_t i = 0; i < g.size(); ++i) sq += (g[i] - mean[i]) * (g[i] - mean[i]);
                deviation.push_back(sq * seeds / (seeds - 1.0));  // unbiased for V_B
            }
            const mean_ci ci = mean_with_ci(deviation);
            spread.push_back(ci.mean);
            se.push_back(ci.stddev / std::sqrt(double(seeds)));
        }
        // Weighted least squares for V_B = a + b u, u = 1 / B, weights 1 / se^2.
        double sw = 0, su = 0, suu = 0, sv = 0, suv = 0;
        for (std::size_t i = 0; i < blocks.size(); ++i) {
            const double w = 1.0 / (se[i] * se[i]), u = 1.0 / blocks[i];
            sw += w, su += w * u, suu += w * u * u, sv += w * spread[i], suv += w * u * spread[i];
        }
        const double det = sw * suu - su * su;
        const double a = (suu * sv - su * suv) / det, b = (sw * suv - su * sv) / det, se_a = std::sqrt(suu / det);
        double chi2 = 0;
        for (std::size_t i = 0; i < blocks.size(); ++i) chi2 += std::pow((spread[i] - a - b / blocks[i]) / se[i], 2);
        const double chi2_limit = boost::math::quantile(boost::math::chi_squared_distribution<double>(3), 0.999);
        const double z = boost::math::quantile(boost::math::normal_distribution<double>(), 0.999);
        std::string table;
        for (std::size_t i = 0; i < blocks.size(); ++i)
            table += " B=" + std::to_string(int(blocks[i])) + ": " + std::to_string(spread[i] * blocks[i]);
        MESSAGE(std::string(variant == 0 ? "gaussian shifted" : "arccos 1") << ": B V_B" << table << "; fit a " << a << " +- " << se_a
                                                                << ", b " << b << ", chi2 " << chi2 << " (limit " << chi2_limit << ")");
        CHECK(chi2 <= chi2_limit);
        CHECK(a >= -z * se_a);
        CHECK(a < b / blocks.back());
    }
}

// Multi-block SSF against numbers: D = 16d outputs is 4 FFT blocks of the smallest length at d = 16 (n = 16,
// 32 points per block; --fft-size smallest), so every block's signs and radii enter. With the shifted
// radial rule the estimate is unbiased, so the mean over 48 seeds must bracket the exact kernel: a 99.9%
// Student-t interval per pair, 3 pairs, fails
// falsely with probability about 3e-3. (An unsigned block stays unbiased: the sign loop is guarded by the
// offline test "ssf: every block, a single one included, carries random signs".)
TEST_CASE("ssf multi-block estimate (D = 16d, 4 FFT blocks) is unbiased for the gaussian kernel") {
    const unsigned d = 16;
    const auto pts = random_points(6, d, 77, std::sqrt(double(d)) * 0.6);
    for (unsigned pair = 0; pair < 3; ++pair) {
        const std::vector<float> x(pts.begin() + 2 * pair * d, pts.begin() + (2 * pair + 1) * d);
        const std::vector<float> y(pts.begin() + (2 * pair + 1) * d, pts.begin() + (2 * pair + 2) * d);
        const auto r = mean_estimate_over_seeds(x, y, 48, 0.999, [&](std::uint64_t seed) {
            auto o = ssf_options(d, 16 * d, fmt::kernel::gaussian, seed);
            o.radial_rule = kfm::offline::radial_rule_kind::shifted;
            o.sweeps = 1;
            o.fft_size = kfm::offline::ssf_fft_size_smallest;
            opened_map map = map_from_options(o);
            REQUIRE(map.state().meta->block_count == 4);
            return map;
        });
        MESSAGE("pair " << pair << ": mean " << r.ci.mean << " +- " << r.ci.half_width << " (sd " << r.ci.stddev
                        << "), exact " << r.exact);
        CHECK(r.ci.contains(r.exact));
    }
}

// The default layout (one FFT block for every direction, src/offline/methods/ssf/build_ssf.cpp) against the reference
// code's layout and against stacked blocks of the smallest FFT, d = 16, D = 8d and 16d, on Gram matrices of
// 200 x 200 random points, paired over 24 seeds (each seed builds all three maps). On the per-seed log
// ratios of the relative Frobenius errors, with 99.8% two-sided Student-t intervals (one-sided 1e-3):
//  - default / reference layout (--fft-size D/4 --radial-rule midpoint) must not be above 1.02, the issue's
//    bound: the interval's upper end <= log 1.02 (the arc-cosine default is that layout byte for byte;
//    gaussian takes antithetic radii, which win at d = 16);
//    measured here: gaussian 0.92 at 8d, 0.65 at 16d; arccos 1 exactly 1;
//  - stacked / default must be above 1 at D = 16d: the interval's lower end > 0 (measured here gaussian
//    1.14 (1.11-1.17), arccos 1 1.35 (1.31-1.40)). Stacked blocks as the default would give exactly 1.
TEST_CASE("ssf default layout: at most the reference layout's error, below stacked blocks at D = 16d") {
    const unsigned d = 16, n = 200, seeds = 24;
    // Norms 0.6-1.8 with sigma = 2.83: distances like rescaled LETTER's (a smooth kernel on the data, where the
    // midpoint radius's bias dominates and antithetic radii win; with norms about 4 the midpoint map of one
    // block was 1.33x better at d = 16). The arc-cosine kernel does not depend on the scale.
    const auto x = random_points(n, d, 31, 0.3 * std::sqrt(double(d)));
    const auto y = random_points(n, d, 32, 0.3 * std::sqrt(double(d)));
    for (fmt::kernel kernel : {fmt::kernel::gaussian, fmt::kernel::arccos}) {
        for (unsigned multiple : {8u, 16u}) {
            const unsigned features = multiple * d;
            std::vector<double> to_reference, stacked_over_default;
            for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
                auto o = ssf_options(d, features, kernel, seed);
                o.kernel.order = 1;
                o.sweeps = kfm::offline::build_options{}.sweeps;
                auto error = [&](const kfm::offline::build_options& options) {
                    return gram_error(map_from_options(options), x, n, y, n).rel_frobenius;
                };
                const double by_default = error(o);
                auto reference = o;
                reference.fft_size = features / 4;
                reference.radial_rule = kfm::offline::radial_rule_kind::midpoint;
                auto stacked = o;
                stacked.fft_size = kfm::offline::ssf_fft_size_smallest;
                to_reference.push_back(std::log(by_default / error(reference)));
                stacked_over_default.push_back(std::log(error(stacked) / by_default));
            }
            const mean_ci r = mean_with_ci(to_reference, 0.998), s = mean_with_ci(stacked_over_default, 0.998);
            MESSAGE((kernel == fmt::kernel::gaussian ? "gaussian" : "arccos 1")
                    << " D = " << multiple << "d: default / reference " << std::exp(r.mean) << " (" << std::exp(r.mean - r.half_width)
                    << "-" << std::exp(r.mean + r.half_width) << "), stacked / default " << std::exp(s.mean) << " ("
                    << std::exp(s.mean - s.half_width) << "-" << std::exp(s.mean + s.half_width) << ")");
            CHECK(r.mean + r.half_width <= std::log(1.02));
            if (multiple == 16) CHECK(s.mean - s.half_width > 0.0);
        }
    }
}
