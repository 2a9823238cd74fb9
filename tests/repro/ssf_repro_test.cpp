// Reproduction of the SSF paper's kernel-approximation comparison on the shared LETTER and USPS data:
// two independent samples of 550 rows, relative Frobenius error of K^(X,Y) vs K(X,Y) for SSF and RFF at
// the same output dimension D, gaussian sigma^2 = d/2 and arc-cosine order 1. The fast cases check the
// issue's ratios (SSF <= 1/2 of RFF gaussian, <= 1/3 arccos 1; the paper claims 1/3 and 1/5); the case
// "ssf results table" (skipped by default: `kfm_test_repro -tc="ssf results table" --no-skip`) prints the
// table of docs/results-ssf.md. Skips cleanly when the data folder is absent.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "common/stats_util.hpp"
#include "kfm/offline.hpp"
#include "offline/evaluate.hpp"
#include "offline/npy.hpp"
#include "common/datasets.hpp"

using namespace kfm;

namespace {

constexpr unsigned sample_rows = 550;

struct setting {
    format::method method;
    format::kernel kind;
    const char* rule = "midpoint";
    unsigned radial = 1;
};

// Mean relative Frobenius error over `runs` maps (map r: seed 500 + r, its own two samples).
double mean_error(const offline::npy_array& data, const setting& s, unsigned features, unsigned runs) {
    const unsigned d = unsigned(data.cols);
    double sum = 0.0;
    for (unsigned r = 0; r < runs; ++r) {
        offline::build_options o;
        o.method = s.method;
        o.input_dim = d;
        o.kernel.kind = s.kind;
        o.kernel.order = 1;
        o.kernel.sigma = std::sqrt(d / 2.0);
        o.features = features;
        o.radial_points = s.radial;
        o.radial_rule = s.rule;
        o.seed = 500 + r;
        const auto map = test::map_from_options(o);
        REQUIRE(map.output_dim() == features);
        sum += offline::evaluate(map.view(), data.data.data(), data.rows, d, sample_rows, 1, 31 + r).rel_frobenius.mean;
    }
    return sum / runs;
}

void check_ratios(const std::string& name, unsigned features_per_dim, unsigned runs) {
    offline::npy_array data;
    if (!test::load_quffka_scaled(name, &data)) {
        MESSAGE("skipped: " << test::dataset_file(name) << " is absent");
        return;
    }
    const unsigned features = features_per_dim * unsigned(data.cols);
    const double ssf_g = mean_error(data, {format::method::ssf, format::kernel::gaussian}, features, runs);
    const double rff_g = mean_error(data, {format::method::rff, format::kernel::gaussian}, features, runs);
    const double ssf_a = mean_error(data, {format::method::ssf, format::kernel::arccos}, features, runs);
    const double rff_a = mean_error(data, {format::method::rff, format::kernel::arccos}, features, runs);
    MESSAGE(name << " D = " << features << ": gaussian ssf " << ssf_g << " rff " << rff_g << " ratio " << ssf_g / rff_g
                 << "; arccos 1 ssf " << ssf_a << " rff " << rff_a << " ratio " << ssf_a / rff_a);
    CHECK(ssf_g <= 0.5 * rff_g);
    CHECK(ssf_a <= rff_a / 3.0);
}

}  // namespace

TEST_CASE("ssf repro: LETTER, SSF error at most 1/2 (gaussian) and 1/3 (arccos 1) of RFF's" *
          doctest::skip(test::missing_data({"letter"}))) {
    check_ratios("letter", 4, 4);
}

TEST_CASE("ssf repro: USPS, SSF error at most 1/2 (gaussian) and 1/3 (arccos 1) of RFF's" *
          doctest::skip(test::missing_data({"usps"}))) {
    check_ratios("usps", 4, 2);
}

TEST_CASE("ssf results table" * doctest::skip()) {
    for (const char* name : {"letter", "usps"}) {
        offline::npy_array data;
        if (!test::load_quffka_scaled(name, &data)) continue;
        const unsigned d = unsigned(data.cols);
        std::printf("\n%s (d = %u), mean relative Frobenius error over 3 runs\n", name, d);
        std::printf("| D/d | rff gauss | ssf mid M=1 | ssf shifted M=1 | ssf shifted M=4 | rff arccos1 | ssf arccos1 |\n");
        for (unsigned factor : {2u, 4u, 8u, 16u}) {
            const unsigned D = factor * d;
            const double v[] = {
                mean_error(data, {format::method::rff, format::kernel::gaussian}, D, 3),
                mean_error(data, {format::method::ssf, format::kernel::gaussian}, D, 3),
                mean_error(data, {format::method::ssf, format::kernel::gaussian, "shifted"}, D, 3),
                mean_error(data, {format::method::ssf, format::kernel::gaussian, "shifted", 4}, D, 3),
                mean_error(data, {format::method::rff, format::kernel::arccos}, D, 3),
                mean_error(data, {format::method::ssf, format::kernel::arccos}, D, 3),
            };
            std::printf("| %u | %.5f | %.5f | %.5f | %.5f | %.5f | %.5f |\n", factor, v[0], v[1], v[2], v[3], v[4], v[5]);
            std::fflush(stdout);  // rows appear as they are measured
        }
    }
}
