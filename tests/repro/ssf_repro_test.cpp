// Reproduction of the SSF paper's kernel-approximation comparison on the shared LETTER and USPS data:
// two independent samples of 550 rows, relative Frobenius error of K^(X,Y) vs K(X,Y) for SSF and RFF at
// the same output dimension D, gaussian sigma^2 = d/2 and arc-cosine order 1. The fast cases check the
// issue's ratios (SSF <= 1/2 of RFF gaussian, <= 1/3 arccos 1; the paper claims 1/3 and 1/5); the case
// "ssf results table" (skipped by default; `scripts/research/results-tables.sh docs/results-ssf.md` runs it)
// prints the tables of docs/results-ssf.md. Skips cleanly when the data folder is absent.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "common/datasets.hpp"
#include "repro/protocols.hpp"

using namespace kfm;

namespace {

using repro::ssf_mean_error;
using repro::ssf_setting;

void check_ratios(const std::string& name, unsigned features_per_dim, unsigned runs) {
    offline::npy_array data;
    if (!test::load_quffka_scaled(name, &data)) {
        MESSAGE("skipped: " << test::dataset_file(name) << " is absent");
        return;
    }
    const unsigned features = features_per_dim * unsigned(data.cols);
    const double ssf_g = ssf_mean_error(data, {format::method::ssf, format::kernel::gaussian}, features, runs);
    const double rff_g = ssf_mean_error(data, {format::method::rff, format::kernel::gaussian}, features, runs);
    const double ssf_a = ssf_mean_error(data, {format::method::ssf, format::kernel::arccos}, features, runs);
    const double rff_a = ssf_mean_error(data, {format::method::rff, format::kernel::arccos}, features, runs);
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
    // docs/results-ssf.md's accuracy tables (blocks "ssf letter", "ssf usps"; scripts/research/results-tables.sh).
    // "SSF default" is the default radial rule (auto: antithetic radii on LETTER from D = 8d), the other
    // SSF gaussian columns name their rule.
    constexpr unsigned runs = 3;
    for (const char* name : {"letter", "usps"}) {
        offline::npy_array data;
        if (!test::load_quffka_scaled(name, &data)) continue;
        const unsigned d = unsigned(data.cols);
        repro::begin_doc_block(std::string("ssf ") + name);
        std::printf("%s (d = %u), mean relative Frobenius error over %u runs\n\n", name == std::string("letter") ? "LETTER" : "USPS",
                    d, runs);
        std::printf("| D/d | RFF gauss | SSF default | SSF midpoint M=1 | SSF shifted M=1 | SSF shifted M=4 | RFF arccos 1 | SSF arccos 1 |\n"
                    "|---|---|---|---|---|---|---|---|\n");
        for (unsigned factor : {2u, 4u, 8u, 16u}) {
            const unsigned D = factor * d;
            const double v[] = {
                ssf_mean_error(data, {format::method::rff, format::kernel::gaussian}, D, runs),
                ssf_mean_error(data, {format::method::ssf, format::kernel::gaussian, "auto", 0}, D, runs),
                ssf_mean_error(data, {format::method::ssf, format::kernel::gaussian}, D, runs),
                ssf_mean_error(data, {format::method::ssf, format::kernel::gaussian, "shifted"}, D, runs),
                ssf_mean_error(data, {format::method::ssf, format::kernel::gaussian, "shifted", 4}, D, runs),
                ssf_mean_error(data, {format::method::rff, format::kernel::arccos}, D, runs),
                ssf_mean_error(data, {format::method::ssf, format::kernel::arccos}, D, runs),
            };
            std::printf("| %u | %.5f | %.5f | %.5f | %.5f | %.5f | %.5f | %.5f |\n", factor, v[0], v[1], v[2], v[3], v[4], v[5],
                        v[6]);
            std::fflush(stdout);  // rows appear as they are measured
        }
        repro::end_doc_block(std::string("ssf ") + name);
    }
}
