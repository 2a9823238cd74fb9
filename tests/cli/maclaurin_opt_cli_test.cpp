// `kfm build --method maclaurin-opt`: a map fitted to --data (its mean and its degree allocation) with
// --features outputs; inspect shows the allocation; eval beats SORF at the same D on smooth data; kfm fit
// keeps the map's own centring (PREP) and refuses a scaler on top; every misuse is one error line, no file.
// The polynomial-sphere kernel: no PREP, unit-normalised inputs, beats GORF at the same D; its own misuses.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/cli_harness.hpp"
#include "kfm/offline/npy.hpp"

using namespace kfm_cli_test;

namespace {

// 300 rows of d = 6 around an offset far from 0 (centring matters), and a smooth target of them.
void write_rows(const scratch& s) {
    std::vector<float> x, y;
    for (int i = 0; i < 300; ++i) {
        float sum = 0.0f;
        for (int c = 0; c < 6; ++c) {
            const float v = 5.0f + 0.6f * std::sin(0.37f * float(i * (c + 1)) + float(c));
            x.push_back(v);
            sum += v;
        }
        y.push_back(std::sin(sum));
    }
    kfm::offline::write_npy_f32(s.path("x.npy"), 300, 6, x.data());
    kfm::offline::write_npy_f32_vector(s.path("y.npy"), 300, y.data());
}

// 300 rows of d = 6 spread around 0 (after unit-normalising, x^.y^ covers [-1, 1]).
void write_spread_rows(const scratch& s) {
    std::vector<float> x;
    for (int i = 0; i < 300; ++i)
        for (int c = 0; c < 6; ++c) x.push_back(0.6f * std::sin(0.37f * float(i * (c + 1)) + float(c)));
    kfm::offline::write_npy_f32(s.path("spread.npy"), 300, 6, x.data());
}

const std::string build = "build --method maclaurin-opt --kernel gaussian --sigma 1.2 --input-dim 6 ";
const std::string build_polynomial = "build --method maclaurin-opt --kernel polynomial-sphere --input-dim 6 ";

void check_refused(const scratch& s, const std::string& args, const std::string& part, const std::string& command = build) {
    const run_result r = s.kfm(command + args + " -o bad.kfm");
    INFO(args << ": " << r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.err.find(part) != std::string::npos);
    CHECK(!std::filesystem::exists(s.path("bad.kfm")));
}

double frobenius(const run_result& r) {
    const std::string key = "\"rel_frobenius\": {\"mean\": ";
    const std::size_t at = r.out.find(key);
    REQUIRE_MESSAGE(at != std::string::npos, r.out << r.err);
    return std::stod(r.out.substr(at + key.size()));
}

// The mean over seeds 1..4 of `kfm eval`'s relative Frobenius error on `data` (200 samples) of the map
// `build_command --seed N` makes.
double mean_error_over_seeds(scratch& s, const std::string& build_command, const std::string& data) {
    double sum = 0.0;
    for (int seed = 1; seed <= 4; ++seed) {
        REQUIRE(s.kfm(build_command + " --seed " + std::to_string(seed) + " -o seeded.kfm").exit_code == 0);
        sum += frobenius(s.kfm("eval seeded.kfm --data " + data + " --runs 1 --samples 200 --json"));
    }
    return sum / 4;
}

}  // namespace

TEST_CASE("cli maclaurin-opt: build, inspect (the degrees fitted), eval against sorf, the same bytes again") {
    scratch s;
    write_rows(s);
    const run_result built = s.kfm(build + "--data x.npy --features 48 -o m.kfm");
    REQUIRE_MESSAGE(built.exit_code == 0, built.err);
    CHECK(built.out.find("maclaurin-opt, gaussian, input_dim 6, output_dim 48") != std::string::npos);
    const run_result shown = s.kfm("inspect m.kfm");
    REQUIRE(shown.exit_code == 0);
    CHECK(shown.out.find("degrees           0: 1, 1: 8, 2: ") != std::string::npos);
    CHECK(shown.out.find("PREP f32    count 12") != std::string::npos);
    CHECK(s.kfm("inspect m.kfm --json").out.find("\"degree_features\": {\"0\": 1, \"1\": 8, \"2\": ") != std::string::npos);
    REQUIRE(s.kfm(build + "--data x.npy --features 48 -o again.kfm").exit_code == 0);
    CHECK(slurp(s.path("m.kfm")) == slurp(s.path("again.kfm")));

    REQUIRE(s.kfm("build --method sorf --kernel gaussian --sigma 1.2 --input-dim 6 --features 48 -o sorf.kfm").exit_code == 0);
    const double ours = mean_error_over_seeds(s, build + "--data x.npy --features 48", "x.npy");
    const double sorf = mean_error_over_seeds(s, "build --method sorf --kernel gaussian --sigma 1.2 --input-dim 6 --features 48", "x.npy");
    CAPTURE(ours);
    CAPTURE(sorf);
    CHECK(ours < 0.6 * sorf);
}

TEST_CASE("cli maclaurin-opt: kfm fit keeps the map's centring and refuses a scaler on top of it") {
    scratch s;
    write_rows(s);
    REQUIRE(s.kfm(build + "--data x.npy --features 48 -o m.kfm").exit_code == 0);
    const run_result fitted = s.kfm("fit m.kfm --x x.npy --y y.npy --task regression --alpha 1e-3 -o model.kfm");
    REQUIRE_MESSAGE(fitted.exit_code == 0, fitted.err);
    CHECK(s.kfm("inspect model.kfm").out.find("PREP f32    count 12") != std::string::npos);
    const run_result scored = s.kfm("score model.kfm --x x.npy --y y.npy --json");
    REQUIRE_MESSAGE(scored.exit_code == 0, scored.err);
    INFO(scored.out);
    const std::string key = "{\"metric\": \"r2\", \"value\": ";
    REQUIRE(scored.out.find(key) == 0);
    CHECK(std::stod(scored.out.substr(key.size())) > 0.9);  // the centred features fit the smooth target

    const run_result scaled = s.kfm("fit m.kfm --x x.npy --y y.npy --task regression --standardize -o scaled.kfm");
    CHECK(scaled.exit_code != 0);
    CHECK(scaled.err.find("the map carries its own preprocessing") != std::string::npos);
    CHECK(!std::filesystem::exists(s.path("scaled.kfm")));
}

TEST_CASE("cli maclaurin-opt: kfm map warns about rows whose features all vanish far from the training mean") {
    scratch s;
    write_rows(s);
    REQUIRE(s.kfm(build + "--data x.npy --features 48 -o m.kfm").exit_code == 0);
    const run_result near = s.kfm("map m.kfm --in x.npy --out near.npy");
    REQUIRE_MESSAGE(near.exit_code == 0, near.err);
    CHECK(near.err.empty());
    // Two of three rows 200 from the mean (sigma 1.2): exp(-|x'|^2 / 2) underflows and every feature is 0.
    std::vector<float> rows;
    for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 6; ++c) rows.push_back(i == 1 ? 5.0f : 205.0f);
    kfm::offline::write_npy_f32(s.path("far.npy"), 3, 6, rows.data());
    const run_result far = s.kfm("map m.kfm --in far.npy --out far_phi.npy");
    REQUIRE_MESSAGE(far.exit_code == 0, far.err);
    CHECK(far.err == "kfm map: warning: 2 of 3 rows of far.npy have all-zero features, so the map estimates k(x, x) = 0 "
                     "for them where the gaussian kernel's is 1 (rows far from the data the map was built from)\n");
    const kfm::offline::npy_array phi = kfm::offline::read_npy(s.path("far_phi.npy"));  // written all the same
    REQUIRE(phi.rows == 3);
    CHECK(std::all_of(phi.data.begin(), phi.data.begin() + phi.cols, [](float v) { return v == 0.0f; }));
    CHECK(std::any_of(phi.data.begin() + phi.cols, phi.data.begin() + 2 * phi.cols, [](float v) { return v != 0.0f; }));
}

TEST_CASE("cli maclaurin-opt: kfm predict and kfm score warn about rows whose features all vanish, as kfm map") {
    scratch s;
    write_rows(s);
    REQUIRE(s.kfm(build + "--data x.npy --features 48 -o m.kfm").exit_code == 0);
    REQUIRE(s.kfm("fit m.kfm --x x.npy --y y.npy --task regression --alpha 1e-3 -o model.kfm").exit_code == 0);
    const run_result near = s.kfm("predict model.kfm --in x.npy --out p.npy");
    REQUIRE_MESSAGE(near.exit_code == 0, near.err);
    CHECK(near.err.empty());
    std::vector<float> rows, targets{0.0f, 0.0f, 0.0f};
    for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 6; ++c) rows.push_back(i == 1 ? 5.0f : 205.0f);
    kfm::offline::write_npy_f32(s.path("far.npy"), 3, 6, rows.data());
    kfm::offline::write_npy_f32_vector(s.path("far_y.npy"), 3, targets.data());
    const std::string warning = ": warning: 2 of 3 rows of far.npy have all-zero features, so the map estimates k(x, x) = 0 "
                                "for them where the gaussian kernel's is 1, and the model predicts its bias alone (rows "
                                "far from the data the map was built from)\n";
    const run_result far = s.kfm("predict model.kfm --in far.npy --out far_p.npy");
    REQUIRE_MESSAGE(far.exit_code == 0, far.err);
    CHECK(far.err == "kfm predict" + warning);
    const kfm::offline::npy_array p = kfm::offline::read_npy(s.path("far_p.npy"));  // written all the same
    REQUIRE(p.data.size() == 3);
    CHECK(p.data[0] == p.data[2]);  // both the bias
    const run_result scored = s.kfm("score model.kfm --x far.npy --y far_y.npy --json");
    REQUIRE_MESSAGE(scored.exit_code == 0, scored.err);
    CHECK(scored.err == "kfm score" + warning);
    CHECK(scored.out.find("{\"metric\": \"r2\"") == 0);  // stdout stays the JSON alone
}

TEST_CASE("cli maclaurin-opt: every misuse is refused with no file") {
    scratch s;
    write_rows(s);
    std::vector<float> bad(30 * 6, 1.0f);
    bad[7] = std::nanf("");
    kfm::offline::write_npy_f32(s.path("nan.npy"), 30, 6, bad.data());
    kfm::offline::write_npy_f32(s.path("x5.npy"), 36, 5, bad.data());
    check_refused(s, "--features 48", "needs --data");
    // A --data with no rows is named as such, not as a missing --data.
    kfm::offline::write_npy_f32(s.path("empty.npy"), 0, 6, bad.data());
    check_refused(s, "--data empty.npy --features 48", "empty.npy: --data holds no rows (the file's array is empty)");
    check_refused(s, "--data x.npy --features 8", "--features must be at least 9");
    check_refused(s, "--data nan.npy --features 48", "NaN");
    check_refused(s, "--data x5.npy --features 48", "--data has 5 columns but --input-dim is 6");
    check_refused(s, "--data x.npy --landmarks 20", "--landmarks");
    // Polynomial-sphere: every pass of up to 8 features has blocks of its own, about 2 D projections, past
    // 2^24 here (the gaussian's chained passes need about D).
    check_refused(s, "--degree 3 --scale 4 --data x.npy --features 9000000",
                  "projections, more than the limit of 2^24 (use fewer --features)", build_polynomial);
    const run_result r = s.kfm("build --method maclaurin-opt --kernel laplacian --sigma 1 --input-dim 6 --data x.npy --features 48 -o bad.kfm");
    CHECK(r.exit_code != 0);
    CHECK(r.err.find("not supported") != std::string::npos);
}

TEST_CASE("cli maclaurin-opt: a sigma or data range the map cannot represent is refused by name, not written as zero features") {
    scratch s;
    write_rows(s);
    const std::string gaussian = "build --method maclaurin-opt --kernel gaussian --input-dim 6 --features 48 ";
    // The rows lie about 1 from their mean: at sigma 0.05, |x'|^2 is about 400 and every feature of a row
    // underflows (k(x, x) = 0 where the kernel's is 1); 0.5 is within the degrees' reach.
    check_refused(s, "--sigma 0.05 --data x.npy",
                  "300 of the 300 rows of --data checked are so far from their mean, relative to --sigma 0.05", gaussian);
    CHECK(s.kfm(gaussian + "--sigma 0.5 --data x.npy -o near.kfm").exit_code == 0);
    // A few huge rows move the mean away from all the others.
    std::vector<float> outliers;
    for (int i = 0; i < 30; ++i)
        for (int c = 0; c < 6; ++c) outliers.push_back(i < 3 ? 1e6f : 0.1f * float((i * 7 + c) % 11));
    kfm::offline::write_npy_f32(s.path("outliers.npy"), 30, 6, outliers.data());
    check_refused(s, "--sigma 1 --data outliers.npy", "drop the outlying rows that move the mean", gaussian);
    // 1/sigma is PREP's float32 scale: 0 for a huge sigma; a mean beyond the finite-output bound's reach.
    check_refused(s, "--sigma 1e300 --data x.npy", "--sigma 1e+300 is too large: its inverse, the map's input scale (PREP), is 0", gaussian);
    std::vector<float> huge(30 * 6, 1e30f);
    kfm::offline::write_npy_f32(s.path("huge.npy"), 30, 6, huge.data());
    check_refused(s, "--sigma 1 --data huge.npy", "the data's mean (up to 1e+30 in magnitude) over --sigma 1 leaves no degree 2", gaussian);
}

TEST_CASE("cli maclaurin-opt polynomial-sphere: build, inspect (no PREP, unit norm), eval against gorf, the same bytes again") {
    scratch s;
    write_spread_rows(s);
    const std::string options = "--degree 3 --scale 4 --data spread.npy --features 48";
    const run_result built = s.kfm(build_polynomial + options + " -o m.kfm");
    REQUIRE_MESSAGE(built.exit_code == 0, built.err);
    CHECK(built.out.find("maclaurin-opt, polynomial-sphere, input_dim 6, output_dim 48") != std::string::npos);
    const run_result shown = s.kfm("inspect m.kfm");
    REQUIRE(shown.exit_code == 0);
    INFO(shown.out);
    CHECK(shown.out.find("degrees           0: 1, 1: 8, 2: ") != std::string::npos);
    CHECK(shown.out.find("kernel            polynomial-sphere (degree 3, scale 4)") != std::string::npos);
    CHECK(shown.out.find("(inputs scaled to unit norm)") != std::string::npos);
    CHECK(shown.out.find("PREP") == std::string::npos);  // a dot-product kernel: no centring
    REQUIRE(s.kfm(build_polynomial + options + " -o again.kfm").exit_code == 0);
    CHECK(slurp(s.path("m.kfm")) == slurp(s.path("again.kfm")));

    const std::string gorf = "build --method gorf --kernel polynomial-sphere --degree 3 --scale 4 --input-dim 6 --features 48";
    const double ours = mean_error_over_seeds(s, build_polynomial + options, "spread.npy");
    const double theirs = mean_error_over_seeds(s, gorf, "spread.npy");
    CAPTURE(ours);
    CAPTURE(theirs);
    CHECK(ours < 0.5 * theirs);
}

TEST_CASE("cli maclaurin-opt polynomial-sphere: every misuse is refused with no file") {
    scratch s;
    write_spread_rows(s);
    const std::string& p = build_polynomial;
    check_refused(s, "--degree 3 --features 48", "needs --data", p);
    check_refused(s, "--degree 3 --scale 1.5 --data spread.npy --features 48", "scale a must be finite and at least 2", p);
    check_refused(s, "--degree 2.5 --data spread.npy --features 48", "--degree expects a non-negative integer", p);
    check_refused(s, "--degree 0 --data spread.npy --features 48", "degree must be in 1..100", p);
    // d = 6 (d2 = 8): products of at most 27 factors stay within the finite-output bound.
    check_refused(s, "--degree 28 --data spread.npy --features 48", "degree 28 is above 27", p);
    check_refused(s, "--degree 3 --sigma 1 --data spread.npy --features 48", "does not apply to kernel polynomial-sphere", p);
    check_refused(s, "--degree 3 --data spread.npy --features 8", "--features must be at least 9", p);
    CHECK(s.kfm(p + "--degree 27 --data spread.npy --features 48 -o edge.kfm").exit_code == 0);
}

TEST_CASE("cli maclaurin-opt polynomial-sphere: degree 1 is exact with d2 + 1 features, and D rounds down to them") {
    scratch s;
    write_spread_rows(s);
    // sqrt(c_0) and sqrt(c_1) H D x^ give the kernel exactly (float rounding).
    const run_result built = s.kfm(build_polynomial + "--degree 1 --scale 3 --data spread.npy --features 48 -o exact.kfm");
    REQUIRE_MESSAGE(built.exit_code == 0, built.err);
    CHECK(built.out.find("output_dim 9)") != std::string::npos);
    CHECK(s.kfm("inspect exact.kfm").out.find("degrees           0: 1, 1: 8 (") != std::string::npos);
    CHECK(frobenius(s.kfm("eval exact.kfm --data spread.npy --runs 1 --samples 200 --json")) < 1e-6);
}
