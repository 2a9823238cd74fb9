// Matérn, rational-quadratic and Laplacian maps through the real file path (build_map -> serialize ->
// kfm::open -> transform): every supported (method, kernel) pair is unbiased over many seeds, and the
// relative Frobenius error at D = 4d is reported against RFF at the same D (docs/kernels.md).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/error_rate_checks.hpp"
#include "common/pair_estimates.hpp"
#include "common/stats_util.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/evaluate.hpp"

using kfm::format::kernel;
using kfm::format::method;
using kfm::offline::build_options;

namespace {

struct config {
    method m;
    kernel k;
    double shape;  // matern nu or rational-quadratic alpha (unused for gaussian and laplacian)
};

// Every (method, kernel) pair the builders accept for these kernels (fourier_kernels.hpp), and fastfood's
// gaussian (its only stats home: its radii and G normalisation are the same code for every kernel).
constexpr config configs[] = {
    {method::rff, kernel::matern, 1.5},       {method::rff_phase, kernel::matern, 1.5},
    {method::orf, kernel::matern, 1.5},       {method::qmc, kernel::matern, 1.5},
    {method::sorf, kernel::matern, 1.5},      {method::rff, kernel::matern, 0.5},
    {method::orf, kernel::matern, 0.5},       {method::sorf, kernel::matern, 2.5},
    {method::rff, kernel::rational_quadratic, 1.5},       {method::rff_phase, kernel::rational_quadratic, 1.5},
    {method::orf, kernel::rational_quadratic, 1.5},       {method::qmc, kernel::rational_quadratic, 1.5},
    {method::sorf, kernel::rational_quadratic, 0.75},     {method::rff, kernel::laplacian, 0},
    {method::rff_phase, kernel::laplacian, 0},            {method::qmc, kernel::laplacian, 0},
    {method::ssf, kernel::matern, 1.5},                   {method::ssf, kernel::matern, 2.5},
    {method::ssf, kernel::matern, 0.5},                   {method::ssf, kernel::rational_quadratic, 0.75},
    {method::quadrature, kernel::matern, 1.5},            {method::quadrature, kernel::matern, 2.5},
    {method::quadrature, kernel::rational_quadratic, 1.5},
    {method::fastfood, kernel::gaussian, 0},              {method::fastfood, kernel::matern, 1.5},
    {method::fastfood, kernel::rational_quadratic, 0.75},
};
constexpr std::size_t config_count = sizeof(configs) / sizeof(configs[0]);

std::string describe(const config& c) {
    return std::string(kfm::offline::method_name(c.m)) + "/" + kfm::offline::kernel_name(c.k) + "/" +
           std::to_string(c.shape);
}

build_options options(const config& c, unsigned d, unsigned D, std::uint64_t seed, double length) {
    build_options o;
    o.method = c.m;
    o.kernel.kind = c.k;
    o.kernel.sigma = length;
    o.kernel.nu = c.shape;
    o.kernel.alpha = c.shape;
    o.input_dim = d;
    o.features = D;
    o.seed = seed;
    return o;
}

}  // namespace

// 23 pairs x 3 point pairs = 69 intervals at 99.99%: a correct sampler fails one with probability below
// 0.7% for a fresh choice of seeds (the seeds are fixed, so the outcome is deterministic). ssf is left out:
// its directions are the structured index set with random signs, not uniform on the sphere, and at this
// power the gaussian SSF is as biased as its Matérn maps (d = 8, D = 64, length 0.8, 1500 seeds: mean
// 0.037 / 0.146 / 0.322 against exact 0.059 / 0.126 / 0.259), so the test would measure the directions,
// not the radii; the radial law SSF uses is tested in tests/offline/radial_laws_test.cpp.
TEST_CASE("every new (method, kernel) pair is unbiased: the mean over seeds brackets the exact kernel") {
    const unsigned d = 8, D = 64, seeds = 1500;
    const kfm::test::point_pairs pairs =
        kfm::test::pairs_of_rows(kfm::test::random_points(6, d, 2026, 1.0), d, {{0, 1}, {2, 3}, {4, 5}});
    for (const config& c : configs) {
        if (c.m == method::ssf) continue;
        CAPTURE(describe(c));
        // Maps 1000 .. 2499, each built once for the three pairs; every map records the same kernel.
        const auto make_map = [&](std::uint64_t seed) {
            return kfm::test::map_from_options(options(c, d, D, seed, 0.8));
        };
        const std::vector<kfm::test::mean_ci> means =
            kfm::test::mean_estimates_over_seeds(pairs, 1000, seeds, 0.9999, make_map);
        const kfm::offline::kernel_spec spec = kfm::offline::kernel_spec_from_map(make_map(1000).view());
        for (std::size_t p = 0; p < pairs.size(); ++p) {
            CAPTURE(p);
            const double exact = kfm::test::exact(spec, pairs.xs[p], pairs.ys[p]);
            const kfm::test::mean_ci& ci = means[p];
            CAPTURE(exact);
            CAPTURE(ci.mean);
            CAPTURE(ci.half_width);
            CHECK(ci.contains(exact));
            // Power: a wrong length, nu or alpha moves the mean by more than the interval.
            CHECK(ci.half_width < 0.05);
        }
    }
}

// The structured methods against RFF of the same kernel at D = 4d outputs (2d frequencies), 30 map seeds
// each, on 60 x 60 points (laplacian sigma 4, the others length 1): the figures go to the log
// (docs/kernels.md quotes them). orf and sorf (orthogonal directions, per-direction radii) may not be worse
// than RFF by more than three standard errors of the difference; rff-phase and qmc are only reported
// (random phases add variance, and the independent per-row scales leave qmc's points little to improve).
TEST_CASE("relative Frobenius error at D = 4d against RFF of the same kernel") {
    const unsigned d = 16, D = 4 * d, n = 60, seeds = 30;
    const auto x = kfm::test::random_points(n, d, 31, 1.0);
    const auto y = kfm::test::random_points(n, d, 32, 1.0);
    const auto errors = [&](const config& c) {
        std::vector<double> e;
        for (unsigned s = 0; s < seeds; ++s) {
            auto map = kfm::test::map_from_options(options(c, d, D, 500 + s, c.k == kernel::laplacian ? 4.0 : 1.0));
            e.push_back(kfm::test::gram_error(map, x, n, y, n).rel_frobenius);
        }
        return kfm::test::mean_with_ci(e);
    };
    for (const config& c : configs) {
        if (c.m == method::rff) continue;
        CAPTURE(describe(c));
        const auto base = errors({method::rff, c.k, c.shape});
        const auto e = errors(c);
        MESSAGE(describe(c) << " at D = " << D << ": " << e.mean << " +- " << e.half_width << " vs RFF "
                            << base.mean << " +- " << base.half_width << ", ratio " << e.mean / base.mean);
        const double se = std::sqrt((e.stddev * e.stddev + base.stddev * base.stddev) / seeds);
        if (c.m == method::orf || c.m == method::sorf) CHECK(e.mean - base.mean < 3.0 * se);
    }
}

// Fastfood's error falls like D^{-1/2} (independent blocks; rows within a block share B, Π and G), for the
// gaussian and Matérn 3/2, d = 6 (n = 8), 10 seeds per D.
TEST_CASE("fastfood: relative Frobenius error falls like D^{-1/2}") {
    const unsigned d = 6;
    for (const config& c :
         {config{method::fastfood, kernel::gaussian, 0}, config{method::fastfood, kernel::matern, 1.5}})
        kfm::test::check_error_falls_like_inverse_sqrt_features(
            describe(c), d, {32, 64, 128, 256, 512, 1024},
            [&](unsigned D, std::uint64_t seed) { return kfm::test::map_from_options(options(c, d, D, seed, 1.0)); });
}
