// `kfm build --method nystroem`: build, inspect and eval a map whose landmarks come from --data, and every
// misuse (no --data, m > rows, m < 1, NaN in X, a dimension mismatch, --features, another kernel, an
// unknown seeding) is one error line with no file left behind.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/cli_harness.hpp"
#include "kfm/offline/npy.hpp"

using namespace kfm_cli_test;

namespace {

// 30 rows of d = 3 on a deterministic spiral (distinct rows).
std::vector<float> spiral_rows() {
    std::vector<float> x;
    for (int i = 0; i < 30; ++i) {
        const float t = float(i);
        x.insert(x.end(), {std::cos(0.4f * t), std::sin(0.4f * t), 0.05f * t});
    }
    return x;
}

const std::string build = "build --method nystroem --kernel gaussian --sigma 0.8 --input-dim 3 ";

void check_refused(const scratch& s, const std::string& args, const std::string& part) {
    const run_result r = s.kfm(build + args + " -o bad.kfm");
    INFO(args << ": " << r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.err.find(part) != std::string::npos);
    CHECK(!std::filesystem::exists(s.path("bad.kfm")));
}

}  // namespace

TEST_CASE("cli nystroem: build, inspect and eval; the same options give the same bytes") {
    scratch s;
    const auto x = spiral_rows();
    kfm::offline::write_npy_f32(s.path("x.npy"), 30, 3, x.data());
    for (const char* init : {"uniform", "kmeans++"}) {
        const run_result built = s.kfm(build + "--data x.npy --landmarks 12 --landmark-init " + init + " -o m.kfm");
        REQUIRE_MESSAGE(built.exit_code == 0, built.err);
        CHECK(built.out.find("nystroem, gaussian, input_dim 3, output_dim 12") != std::string::npos);
        const run_result shown = s.kfm("inspect m.kfm");
        REQUIRE(shown.exit_code == 0);
        CHECK(shown.out.find("kernel-landmarks (work_dim 3, projection_dim 12)") != std::string::npos);
        CHECK(shown.out.find("KIRT f32    count 144") != std::string::npos);
        CHECK(shown.out.find("LNRM f32    count 12") != std::string::npos);
        REQUIRE(s.kfm(build + "--data x.npy --landmarks 12 --landmark-init " + init + " -o again.kfm").exit_code == 0);
        CHECK(slurp(s.path("m.kfm")) == slurp(s.path("again.kfm")));
    }
    // Every row a landmark: the map reproduces the kernel on those rows.
    REQUIRE(s.kfm(build + "--data x.npy --landmarks 30 -o all.kfm").exit_code == 0);
    const double err = eval_mean_frobenius(s.kfm("eval all.kfm --data x.npy --samples 30 --runs 2 --json"));
    CHECK(err > 0.0);
    CHECK(err < 1e-4);
}

TEST_CASE("cli nystroem: every misuse is refused with no file") {
    scratch s;
    auto x = spiral_rows();
    kfm::offline::write_npy_f32(s.path("x.npy"), 30, 3, x.data());
    kfm::offline::write_npy_f32(s.path("x2.npy"), 45, 2, x.data());
    x[7] = std::nanf("");
    kfm::offline::write_npy_f32(s.path("nan.npy"), 30, 3, x.data());
    check_refused(s, "--landmarks 5", "needs --data");
    kfm::offline::write_npy_f32(s.path("empty.npy"), 0, 3, x.data());
    check_refused(s, "--data empty.npy --landmarks 5", "empty.npy: --data holds no rows");
    check_refused(s, "--data x.npy --landmarks 31", "more than the 30 rows");
    check_refused(s, "--data x.npy --landmarks 0", "at least 1");
    check_refused(s, "--data x.npy", "--landmarks");
    check_refused(s, "--data nan.npy --landmarks 5", "NaN");
    check_refused(s, "--data x2.npy --landmarks 5", "--data has 2 columns but --input-dim is 3");
    check_refused(s, "--data x.npy --landmarks 5 --features 5", "not --features");
    check_refused(s, "--data x.npy --landmarks 5 --landmark-init kmeans", "--landmark-init");
    const run_result r = s.kfm("build --method nystroem --kernel laplacian --sigma 1 --input-dim 3 --data x.npy --landmarks 5 -o bad.kfm");
    CHECK(r.exit_code != 0);
    CHECK(r.err.find("not supported") != std::string::npos);
    CHECK(r.err.find("L1 distance") != std::string::npos);
    const run_result nu = s.kfm("build --method nystroem --kernel matern --nu 2 --sigma 1 --input-dim 3 --data x.npy --landmarks 5 -o bad.kfm");
    CHECK(nu.exit_code != 0);
    CHECK(nu.err.find("nu = 0.5, 1.5 and 2.5") != std::string::npos);
    CHECK(!std::filesystem::exists(s.path("bad.kfm")));
    const run_result other = s.kfm("build --method rff --kernel gaussian --input-dim 3 --features 8 --landmarks 5 -o bad.kfm");
    CHECK(other.exit_code != 0);
    CHECK(other.err.find("belong to --method nystroem") != std::string::npos);
}
