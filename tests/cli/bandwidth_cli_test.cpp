// `kfm build --sigma median|scale --data X.npy`: the data-driven Gaussian bandwidth reaches the file (as
// `inspect` shows it) with the hand-computed value, and every misuse is one error line with no file.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "cli/cli_harness.hpp"
#include "kfm/offline/npy.hpp"

using namespace kfm_cli_test;

namespace {

// The stored sigma, from `kfm inspect FILE --json` ({"sigma": S} in the kernel parameters).
double stored_sigma(const scratch& s, const std::string& file) {
    const run_result r = s.kfm("inspect " + file + " --json");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto at = r.out.find("\"sigma\": ");
    REQUIRE_MESSAGE(at != std::string::npos, r.out);
    return std::strtod(r.out.c_str() + at + 9, nullptr);
}

// Four rows on a line in R^2 (second column 0) at 0, 1, 3, 7: the six distances are 1, 2, 3, 4, 6, 7,
// so the lower median is 3 (the upper 4, their mean 3.5: the test tells the three apart). Its eight
// values have mean 11/8 and variance 59/8 - (11/8)^2 = 351/64, so scale gives sigma = sqrt(2 * 351/64 / 2).
const std::vector<float> line_rows = {0, 0, 1, 0, 3, 0, 7, 0};
const double line_median = 3.0;
const double line_scale = std::sqrt(351.0 / 64.0);

const std::string gaussian_build = "build --method rff --kernel gaussian --input-dim 2 --features 8 ";

}  // namespace

TEST_CASE("cli bandwidth: --sigma median is the lower median of the pairwise distances") {
    scratch s;
    kfm::offline::write_npy_f32(s.path("x.npy"), 4, 2, line_rows.data());
    const run_result built = s.kfm(gaussian_build + "--sigma median --data x.npy -o m.kfm");
    REQUIRE_MESSAGE(built.exit_code == 0, built.err);
    CHECK(built.out.find("sigma 3 from --sigma median") != std::string::npos);
    CHECK(stored_sigma(s, "m.kfm") == doctest::Approx(line_median).epsilon(1e-12));
}

TEST_CASE("cli bandwidth: --sigma scale is sqrt(d Var / 2), scikit-learn's gamma='scale'") {
    scratch s;
    kfm::offline::write_npy_f32(s.path("x.npy"), 4, 2, line_rows.data());
    const run_result built = s.kfm(gaussian_build + "--sigma scale --data x.npy -o m.kfm");
    REQUIRE_MESSAGE(built.exit_code == 0, built.err);
    CHECK(built.out.find("from --sigma scale") != std::string::npos);
    CHECK(stored_sigma(s, "m.kfm") == doctest::Approx(line_scale).epsilon(1e-9));
    // The same map as an explicit --sigma of that value: the rule only chooses the number.
    REQUIRE(s.kfm(gaussian_build + "--sigma 3 -o explicit.kfm").exit_code == 0);
    REQUIRE(s.kfm(gaussian_build + "--sigma median --data x.npy -o median.kfm").exit_code == 0);
    CHECK(slurp(s.path("explicit.kfm")) == slurp(s.path("median.kfm")));
}

TEST_CASE("cli bandwidth: misuse is one error line and writes no file") {
    scratch s;
    kfm::offline::write_npy_f32(s.path("x.npy"), 4, 2, line_rows.data());
    const std::vector<float> three_columns = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
    kfm::offline::write_npy_f32(s.path("x3.npy"), 4, 3, three_columns.data());
    std::vector<float> with_nan = line_rows;
    with_nan[5] = std::numeric_limits<float>::quiet_NaN();
    kfm::offline::write_npy_f32(s.path("nan.npy"), 4, 2, with_nan.data());
    const std::vector<float> one_row = {1, 2};
    kfm::offline::write_npy_f32(s.path("one.npy"), 1, 2, one_row.data());
    const std::vector<float> repeated = {1, 2, 1, 2, 1, 2};
    kfm::offline::write_npy_f32(s.path("same.npy"), 3, 2, repeated.data());

    struct bad_case {
        std::string args;
        std::string fragment;
    };
    const bad_case cases[] = {
        {"--sigma median", "needs --data"},
        {"--sigma scale", "needs --data"},
        {"--sigma 2 --data x.npy", "--data is only used by --sigma median or --sigma scale"},
        {"--data x.npy", "--data is only used by --sigma median or --sigma scale"},
        {"--sigma median --data x3.npy", "--data has 3 columns but --input-dim is 2"},
        {"--sigma scale --data x3.npy", "--data has 3 columns but --input-dim is 2"},
        {"--sigma median --data nan.npy", "--data"},
        {"--sigma scale --data nan.npy", "--data"},
        {"--sigma median --data missing.npy", "missing.npy"},
        {"--sigma median --data one.npy", "at least two rows"},
        {"--sigma median --data same.npy", "median distance between rows is 0"},
        {"--sigma mean --data x.npy", "--data is only used by --sigma median or --sigma scale"},
    };
    for (const bad_case& c : cases) {
        CAPTURE(c.args);
        check_error(s.kfm(gaussian_build + c.args + " -o m.kfm"), c.fragment);
        CHECK_FALSE(std::filesystem::exists(s.path("m.kfm")));
    }
    // A data-driven sigma belongs to the Gaussian kernel only.
    check_error(s.kfm("build --method rff --kernel arccos --input-dim 2 --features 8 --sigma median --data x.npy -o m.kfm"),
                "does not apply to kernel arccos");
    CHECK_FALSE(std::filesystem::exists(s.path("m.kfm")));
}
