// SSF default radial rule for the gaussian kernel (src/offline/methods/ssf/ssf_radii.hpp): "auto" takes antithetic
// radii (M = 2, u = U_i and 1 - U_i per direction) when 2m <= 32 and those directions fill a whole FFT
// block, the midpoint radius otherwise. Checked here: the antithetic radii are unbiased for E[cos(r a)] and the
// whole map's estimate is unbiased; below one block the default is the midpoint map byte for byte; at
// D = 16d the Gram error is at least 2x below the midpoint rule's floor on synthetic data. Matérn and
// rational-quadratic maps: their per-direction radii follow the kernel's radial law.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "common/stats_util.hpp"
#include "kfm/offline.hpp"
#include "offline/sampling/radial_laws.hpp"
#include "offline/sampling/random.hpp"
#include "runtime/map_state.hpp"

namespace fmt = kfm::format;
using namespace kfm::test;
using kfm::detail::section;

namespace {

kfm::offline::build_options gaussian_ssf(unsigned d, unsigned features, std::uint64_t seed) {
    kfm::offline::build_options o;
    o.method = fmt::method::ssf;
    o.kernel.kind = fmt::kernel::gaussian;
    o.kernel.sigma = std::sqrt(d / 2.0);
    o.input_dim = d;
    o.features = features;
    o.seed = seed;
    o.sweeps = 3;
    return o;
}


}  // namespace

// Each direction's pair mean (cos(r_i0 a) + cos(r_i1 a)) / 2 is an iid draw (one U_i per direction, over
// 8 seeds x 128 directions): a 99.9% interval per a, 3 values of a, fails falsely with probability ~3e-3.
TEST_CASE("ssf antithetic radii: unbiased for E[cos(r a)], r ~ chi(2m)") {
    const unsigned d = 10;
    const double sigma = std::sqrt(d / 2.0);
    for (double a : {0.4, 1.0, 1.7}) {
        std::vector<double> draws;
        for (std::uint64_t seed = 1; seed <= 8; ++seed) {
            {
                auto o = gaussian_ssf(d, 4 * 128, seed);
                o.radial_rule = kfm::offline::radial_rule_kind::antithetic;
                o.sweeps = 0;
                const opened_map map = map_from_options(o);
                const auto& vs = map.state();
                const float* scales = vs.view<section::scales>().data;
                const std::uint32_t p = vs.meta->projection_dim;
                REQUIRE(vs.view<section::scales>().count == 2ull * p);
                for (std::uint32_t i = 0; i < p; ++i)
                    draws.push_back(0.5 * (std::cos(scales[i] * sigma * a) + std::cos(scales[p + i] * sigma * a)));
            }
        }
        const double exact = chi_cos_mean(d, a);
        const mean_ci ci = mean_with_ci(draws, 0.999);
        MESSAGE("a " << a << ": antithetic " << ci.mean << " +- " << ci.half_width << ", exact " << exact);
        CHECK(ci.contains(exact));
    }
}

TEST_CASE("ssf default radial rule: midpoint below one block of antithetic directions, antithetic from there") {
    const unsigned d = 16;  // m = 8, n = 16: a block holds 32 directions
    for (unsigned features : {16u, 32u, 64u, 124u}) {  // D / 4 < 32 directions: midpoint, M = 1
        const auto mid = [&] { auto o = gaussian_ssf(d, features, 3); o.radial_rule = kfm::offline::radial_rule_kind::midpoint; o.radial_points = 1; return o; }();
        CHECK(kfm::offline::serialize(kfm::offline::build_map(gaussian_ssf(d, features, 3))) == kfm::offline::serialize(kfm::offline::build_map(mid)));
    }
    for (unsigned features : {128u, 256u, 1024u}) {  // from 8d on: antithetic
        const auto map = kfm::offline::build_map(gaussian_ssf(d, features, 3));
        CHECK(map.meta.radial_points == 2);
        CHECK(map.meta.method_flags == fmt::method_flag_ssf_antithetic_radii);
        const auto explicit_rule = [&] { auto o = gaussian_ssf(d, features, 3); o.radial_rule = kfm::offline::radial_rule_kind::antithetic; return o; }();
        CHECK(kfm::offline::serialize(map) == kfm::offline::serialize(kfm::offline::build_map(explicit_rule)));
    }
    // 2m = 34 > 32: midpoint at every D, one radius per direction.
    const auto wide = kfm::offline::build_map(gaussian_ssf(33, 16 * 33, 3));
    CHECK(wide.meta.radial_points == 1);
    CHECK(wide.meta.method_flags == 0);
}

// The default map at d = 16, D = 16d: 64 directions x 2 radii in one FFT block of n = 32 (the default
// layout, 2x the smallest length): the mean estimate over 48 seeds brackets the exact kernel, a 99.9%
// Student-t interval per pair, 3 pairs: false failure ~3e-3.
TEST_CASE("ssf default (antithetic) estimate at D = 16d is unbiased for the gaussian kernel") {
    const unsigned d = 16;
    const auto pts = random_points(6, d, 78, std::sqrt(double(d)) * 0.6);
    for (unsigned pair = 0; pair < 3; ++pair) {
        const std::vector<float> x(pts.begin() + 2 * pair * d, pts.begin() + (2 * pair + 1) * d);
        const std::vector<float> y(pts.begin() + (2 * pair + 1) * d, pts.begin() + (2 * pair + 2) * d);
        const auto r = mean_estimate_over_seeds(x, y, 48, 0.999, [&](std::uint64_t seed) {
            auto o = gaussian_ssf(d, 16 * d, seed);
            o.sweeps = 1;
            opened_map map = map_from_options(o);
            REQUIRE(map.state().meta->method_flags == fmt::method_flag_ssf_antithetic_radii);
            REQUIRE(map.state().meta->block_count == 1);
            REQUIRE(map.state().meta->block_size == 32);
            return map;
        });
        MESSAGE("pair " << pair << ": mean " << r.ci.mean << " +- " << r.ci.half_width << " (sd " << r.ci.stddev
                        << "), exact " << r.exact);
        CHECK(r.ci.contains(r.exact));
    }
}

// The radius floor: at D = 16d the midpoint rule's error is its bias, the default keeps falling. Synthetic
// points in [0, 1]^16 (like the rescaled LETTER), sigma^2 = d/2, 10 fixed seeds (deterministic); measured
// ratio 2.03 here (3.8 on LETTER itself), the check asks for 1.5x on the mean over seeds.
TEST_CASE("ssf default radial rule at D = 16d: Gram error well below the midpoint rule's floor") {
    const unsigned d = 16, n = 200;
    auto cube = [&](std::uint64_t seed) {
        kfm::offline::rng r(seed);
        std::vector<float> v(std::size_t(n) * d);
        for (float& x : v) x = static_cast<float>(r.uniform());
        return v;
    };
    const auto x = cube(11), y = cube(12);
    double by_rule[2] = {0.0, 0.0};
    for (int rule = 0; rule < 2; ++rule)
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
            auto o = gaussian_ssf(d, 16 * d, seed);
            if (rule == 1) o.radial_rule = kfm::offline::radial_rule_kind::midpoint;
            by_rule[rule] += gram_error(map_from_options(o), x, n, y, n).rel_frobenius / 10.0;
        }
    MESSAGE("D = 16d: default " << by_rule[0] << ", midpoint " << by_rule[1] << ", ratio " << by_rule[1] / by_rule[0]);
    CHECK(by_rule[0] * 1.5 < by_rule[1]);
}

// Matérn and rational quadratic: `auto` takes the stratified rule with one radius per direction,
// u_k = (pi(k) + U_k) / P, so the stored radii times the length are a Latin sample of ||w|| in 2m dimensions
// from the kernel's radial law (src/offline/sampling/radial_laws.hpp; the quantile function itself is checked
// against closed forms and integrated densities in tests/offline/radial_laws_test.cpp). Here: the builder
// uses that law with the right dimension (d = 9 pads to 2m = 10), length and parameter, and stratifies.
// Each radius alone is a draw of the law: over all seeds, for each of five probabilities q the count of
// radii at or below F^{-1}(q) is within 3.89 binomial sd + 1 of n q (two-sided 1e-4 for independent
// draws; stratification only narrows it). A map built for d = 9 instead of 10, or for nu 1.5 instead of
// 2.5, moves the counts by 9-30 sd (both tried). Stratified: within each map of P radii the count is
// P q rounded down or up (at most one radius in the stratum that holds F^{-1}(q) can fall either side);
// independent radii (the shifted rule) miss that by about sqrt(P q (1 - q)) = 8 at P = 256, q = 0.5.
TEST_CASE("ssf matern and rational-quadratic radii follow the kernel's radial law in 2m dimensions") {
    const unsigned d = 9, work_dim = 10;
    const double length = 1.7;
    std::vector<kfm::offline::kernel_spec> kernels(3);
    kernels[0].kind = kernels[1].kind = fmt::kernel::matern;
    kernels[0].nu = 1.5;
    kernels[1].nu = 2.5;
    kernels[2].kind = fmt::kernel::rational_quadratic;
    kernels[2].alpha = 1.5;
    for (auto& k : kernels) {
        k.sigma = length;
        std::vector<double> radii;  // ||w|| at unit length
        // the rational-quadratic quantile is a numerical inversion (about 1 ms): fewer draws there
        const std::uint64_t seeds = k.kind == fmt::kernel::rational_quadratic ? 8 : 32;
        for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
            auto o = gaussian_ssf(d, 4 * 256, seed);
            o.kernel = k;
            o.sweeps = 0;
            const opened_map map = map_from_options(o);
            const auto& vs = map.state();
            const float* scales = vs.view<section::scales>().data;
            REQUIRE(vs.meta->work_dim == work_dim);
            REQUIRE(vs.meta->method_flags == fmt::method_flag_ssf_stratified_radii);
            REQUIRE(vs.view<section::scales>().count == vs.meta->projection_dim);
            const std::size_t first = radii.size();
            for (std::uint32_t i = 0; i < vs.view<section::scales>().count; ++i) radii.push_back(double(scales[i]) * length);
            const double p = double(vs.view<section::scales>().count);
            for (double q : {0.1, 0.3, 0.5, 0.7, 0.9}) {
                const double cut = double(float(kfm::offline::radial_quantile(k, work_dim, q) / length)) * length;
                double below = 0;
                for (std::size_t i = first; i < radii.size(); ++i) below += radii[i] <= cut ? 1.0 : 0.0;
                CAPTURE(seed);
                CAPTURE(q);
                CHECK(std::fabs(below - p * q) <= 1.0);
            }
        }
        const double n = double(radii.size());
        for (double q : {0.1, 0.3, 0.5, 0.7, 0.9}) {
            // the float radii: compare against the quantile rounded the same way
            const double cut = double(float(kfm::offline::radial_quantile(k, work_dim, q) / length)) * length;
            double below = 0;
            for (double r : radii) below += r <= cut ? 1.0 : 0.0;
            const double sd = std::sqrt(n * q * (1.0 - q));
            CAPTURE(int(k.kind));
            CAPTURE(k.nu);
            CAPTURE(q);
            CAPTURE(below / n);
            CHECK(std::fabs(below - n * q) <= 3.89 * sd + 1.0);
        }
    }
}
