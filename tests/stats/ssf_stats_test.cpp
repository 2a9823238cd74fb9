// SSF statistics: the per-point shifted radial rule is unbiased for E[cos(r a)], r ~ chi(2m) (the
// midpoint rule is not); the arc-cosine constant C_b stored in the map makes a Monte Carlo over uniform
// directions match the exact kernel; the Gram error falls with D (shifted rule like D^{-1/2}).
#include <doctest/doctest.h>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common/stats_util.hpp"
#include "offline/random.hpp"
#include "runtime/map_state.hpp"

namespace fmt = kfm::format;
using namespace kfm::test;

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

// E[cos(r a)] for r ~ chi(k): integrate cos(sqrt(q) a) against the chi-squared(k) density of q = r^2.
double chi_cos_mean(double k, double a) {
    const boost::math::chi_squared_distribution<double> chi2(k);
    auto f = [&](double q) { return std::cos(std::sqrt(q) * a) * boost::math::pdf(chi2, q); };
    const double hi = boost::math::quantile(boost::math::complement(chi2, 1e-16));
    return boost::math::quadrature::gauss_kronrod<double, 61>::integrate(f, 0.0, hi, 12, 1e-13);
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
            o.radial_rule = "shifted";
            o.sweeps = 0;
            const opened_map map = map_from_options(o);
        const auto& vs = map.state();
            const std::uint32_t p = vs.meta->projection_dim;
            REQUIRE(vs.scale_count == std::uint64_t(radial) * p);
            for (std::uint32_t i = 0; i < p; ++i) {
                double mean = 0.0;
                for (unsigned j = 0; j < radial; ++j) mean += std::cos(vs.scales[std::size_t(j) * p + i] * sigma * a);
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
        for (unsigned j = 0; j < radial; ++j) midpoint += std::cos(mid.state().segments[j].scale * sigma * a);
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
        const auto& seg = map.state().segments[0];
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
        // And the SSF map itself, whose points are structured rather than random.
        const double ssf = estimate(map, x, y);
        MESSAGE("order " << order << ": ssf map estimate " << ssf);
        CHECK(ssf == doctest::Approx(exact).epsilon(0.15));
    }
}

TEST_CASE("ssf Gram error falls with D (gaussian shifted like D^{-1/2}; arccos 1)") {
    const unsigned d = 32, n = 60;
    const auto x = random_points(n, d, 5, std::sqrt(double(d)));
    const auto y = random_points(n, d, 6, std::sqrt(double(d)));
    for (int variant = 0; variant < 2; ++variant) {
        std::vector<double> dims, errors;
        for (unsigned factor : {1u, 2u, 4u, 8u, 16u}) {
            const unsigned features = 2 * factor * d;
            std::vector<double> runs;
            for (std::uint64_t seed = 1; seed <= 8; ++seed) {
                auto o = ssf_options(d, features, variant == 0 ? fmt::kernel::gaussian : fmt::kernel::arccos, seed);
                o.kernel.order = 1;
                o.radial_rule = "shifted";
                const opened_map map = map_from_options(o);
                runs.push_back(gram_error(map, x, n, y, n).rel_frobenius);
            }
            dims.push_back(features);
            errors.push_back(mean_with_ci(runs).mean);
        }
        const double slope = loglog_slope(dims, errors);
        MESSAGE(std::string(variant == 0 ? "gaussian shifted" : "arccos 1") << ": errors " << errors[0] << " .. " << errors.back()
                                                               << ", log-log slope " << slope);
        CHECK(slope < -0.4);
        CHECK(slope > -1.2);
    }
}

// Multi-block SSF against numbers: D = 16d outputs is 4 FFT blocks at d = 16 (n = 16, 32 points per block),
// so every block's signs and radii enter. With the shifted radial rule the estimate is unbiased, so the
// mean over 48 seeds must bracket the exact kernel: a 99.9% Student-t interval per pair, 3 pairs, fails
// falsely with probability about 3e-3. (An unsigned block stays unbiased: the sign loop is guarded by the
// offline test "ssf: every block, a single one included, carries random signs".)
TEST_CASE("ssf multi-block estimate (D = 16d, 4 FFT blocks) is unbiased for the gaussian kernel") {
    const unsigned d = 16;
    const auto pts = random_points(6, d, 77, std::sqrt(double(d)) * 0.6);
    for (unsigned pair = 0; pair < 3; ++pair) {
        const std::vector<float> x(pts.begin() + 2 * pair * d, pts.begin() + (2 * pair + 1) * d);
        const std::vector<float> y(pts.begin() + (2 * pair + 1) * d, pts.begin() + (2 * pair + 2) * d);
        std::vector<double> draws;
        double exact_value = 0.0;
        for (std::uint64_t seed = 1; seed <= 48; ++seed) {
            auto o = ssf_options(d, 16 * d, fmt::kernel::gaussian, seed);
            o.radial_rule = "shifted";
            o.sweeps = 1;
            const opened_map map = map_from_options(o);
            REQUIRE(map.state().meta->block_count == 4);
            draws.push_back(estimate(map, x, y));
            exact_value = exact(kfm::offline::kernel_spec_from_map(map.view()), x, y);
        }
        const mean_ci ci = mean_with_ci(draws, 0.999);
        MESSAGE("pair " << pair << ": mean " << ci.mean << " +- " << ci.half_width << " (sd " << ci.stddev
                        << "), exact " << exact_value);
        CHECK(ci.contains(exact_value));
    }
}
