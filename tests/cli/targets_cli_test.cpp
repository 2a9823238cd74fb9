// Labels and targets reach the model exactly as the .npy file holds them: int64 labels above 2^24 and
// float64 targets are not rounded to float; what the model file cannot hold (labels outside int32,
// non-integer labels, heads beyond float32) is refused; `kfm fit` and `kfm score` report the score of
// the model as kfm::predict computes it against the targets as given.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "cli/cli_harness.hpp"
#include "kfm/offline/npy.hpp"

using namespace kfm_cli_test;

namespace {

// A 1-D .npy file of dtype `descr` ("<f8", "<i8", "<i4") holding `values` (the test hosts are little-endian).
template <class T>
void write_vector(const std::string& path, const std::string& descr, const std::vector<T>& values) {
    std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" +
                         std::to_string(values.size()) + ",), }";
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header.push_back('\n');
    std::string bytes = "\x93NUMPY";
    bytes += '\x01';
    bytes += '\x00';
    bytes += char(header.size() & 0xff);
    bytes += char(header.size() >> 8);
    bytes += header;
    bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
    std::ofstream(path, std::ios::binary) << bytes;
}

double number_after(const std::string& text, const std::string& key) {
    const auto at = text.find(key);
    REQUIRE_MESSAGE(at != std::string::npos, key << " not in " << text);
    return std::strtod(text.c_str() + at + key.size(), nullptr);
}

// 240 rows of 6 inputs from kfm synth and a Gaussian RFF map on them.
struct inputs {
    scratch dir;
    kfm::offline::npy_array x;
    inputs() {
        REQUIRE(dir.kfm("synth --rows 240 --dim 6 --seed 4 -o x.npy").exit_code == 0);
        REQUIRE(dir.kfm("build --method rff --kernel gaussian --sigma 1 --input-dim 6 --features 64 -o map.kfm")
                    .exit_code == 0);
        x = kfm::offline::read_npy(dir.path("x.npy"));
    }
    // Two labels by the sign of x0 + x1.
    std::vector<std::int64_t> two_labels(std::int64_t negative, std::int64_t positive) const {
        std::vector<std::int64_t> y;
        for (std::size_t i = 0; i < x.rows; ++i) y.push_back(x.row(i)[0] + x.row(i)[1] > 0 ? positive : negative);
        return y;
    }
};

// R^2 of float32 predictions against float64 targets, computed here in double.
double r2(const std::vector<float>& predicted, const std::vector<double>& truth) {
    double mean = 0.0, residual = 0.0, total = 0.0;
    for (double t : truth) mean += t / double(truth.size());
    for (std::size_t i = 0; i < truth.size(); ++i) {
        residual += (truth[i] - predicted[i]) * (truth[i] - predicted[i]);
        total += (truth[i] - mean) * (truth[i] - mean);
    }
    return 1.0 - residual / total;
}

}  // namespace

TEST_CASE("targets: int64 class labels above 2^24 are kept exactly by fit, predict and score") {
    inputs d;
    const scratch& s = d.dir;
    const std::vector<std::int64_t> y = d.two_labels(16777217, 16777219);  // float rounds them to 2^24, 2^24 + 4
    write_vector(s.path("y.npy"), "<i8", y);
    auto r = s.kfm("fit map.kfm --x x.npy --y y.npy --task classification --standardize -o m.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.err.empty());
    CHECK(s.kfm("inspect m.kfm").out.find("labels 16777217,16777219") != std::string::npos);

    REQUIRE(s.kfm("predict m.kfm --in x.npy --out p.npy").exit_code == 0);
    const std::string p = slurp(s.dir / "p.npy");
    const std::size_t header = p.size() - y.size() * sizeof(std::int64_t);
    std::size_t right = 0, foreign = 0;  // labels equal to y's, labels y does not hold
    for (std::size_t i = 0; i < y.size(); ++i) {
        std::int64_t label = 0;
        std::memcpy(&label, p.data() + header + i * sizeof label, sizeof label);
        foreign += label == 16777217 || label == 16777219 ? 0 : 1;
        right += label == y[i] ? 1 : 0;
    }
    CHECK(foreign == 0);
    const double accuracy = double(right) / double(y.size());
    CHECK(accuracy > 0.85);
    r = s.kfm("score m.kfm --x x.npy --y y.npy --json");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(number_after(r.out, "\"value\": ") == accuracy);
    // The same labels as float64 score the same.
    write_vector(s.path("y64.npy"), "<f8", std::vector<double>(y.begin(), y.end()));
    CHECK(number_after(s.kfm("score m.kfm --x x.npy --y y64.npy --json").out, "\"value\": ") == accuracy);

    // Two labels one apart above 2^24 are two classes (as floats they were one).
    write_vector(s.path("y2.npy"), "<i8", d.two_labels(16777216, 16777217));
    r = s.kfm("fit map.kfm --x x.npy --y y2.npy --task classification -o m2.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out.find("2 classes") != std::string::npos);
    CHECK(s.kfm("inspect m2.kfm").out.find("labels 16777216,16777217") != std::string::npos);
}

TEST_CASE("targets: labels at the int32 limits are kept; beyond int32 or not integers they are refused") {
    inputs d;
    const scratch& s = d.dir;
    constexpr std::int32_t lo = std::numeric_limits<std::int32_t>::min(), hi = std::numeric_limits<std::int32_t>::max();
    std::vector<std::int32_t> limits;
    for (std::int64_t v : d.two_labels(lo, hi)) limits.push_back(std::int32_t(v));
    write_vector(s.path("limits.npy"), "<i4", limits);
    auto r = s.kfm("fit map.kfm --x x.npy --y limits.npy --task classification -o m.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(s.kfm("inspect m.kfm").out.find("labels -2147483648,2147483647") != std::string::npos);
    CHECK(number_after(s.kfm("score m.kfm --x x.npy --y limits.npy").out, "accuracy ") > 0.85);

    const std::string fit = "fit map.kfm --x x.npy --task classification -o out.kfm --y ";
    std::vector<std::int64_t> above = d.two_labels(0, 1);
    above[3] = std::int64_t(hi) + 1;
    write_vector(s.path("above.npy"), "<i8", above);
    check_error(s.kfm(fit + "above.npy"), "value 2147483648 at row 3 is outside the int32 range");
    std::vector<std::int64_t> below = d.two_labels(0, 1);
    below[5] = std::int64_t(lo) - 1;
    write_vector(s.path("below.npy"), "<i8", below);
    check_error(s.kfm(fit + "below.npy"), "value -2147483649 at row 5 is outside the int32 range");
    std::vector<std::int64_t> huge = d.two_labels(0, 1);
    huge[0] = std::numeric_limits<std::int64_t>::max();
    write_vector(s.path("huge.npy"), "<i8", huge);
    check_error(s.kfm(fit + "huge.npy"), "at row 0 is outside the int32 range");

    // A float64 label that float32 would round to an integer is not an integer.
    std::vector<double> fractional(d.x.rows, 0.0);
    for (std::size_t i = 0; i < d.x.rows; i += 2) fractional[i] = 1.0;
    fractional[9] = 1.0000000001;
    write_vector(s.path("frac.npy"), "<f8", fractional);
    check_error(s.kfm(fit + "frac.npy"), "value 1.0000000001 at row 9 is not an integer class label");
    std::vector<double> infinite = fractional;
    infinite[9] = std::numeric_limits<double>::infinity();
    write_vector(s.path("inf.npy"), "<f8", infinite);
    check_error(s.kfm(fit + "inf.npy"), "row 9 is infinite");
    CHECK_FALSE(fs::exists(s.dir / "out.kfm"));
}

TEST_CASE("targets: kfm score refuses a classifier's labels that are not integers within int32, as kfm fit") {
    inputs d;
    const scratch& s = d.dir;
    write_vector(s.path("y.npy"), "<i8", d.two_labels(0, 1));
    auto r = s.kfm("fit map.kfm --x x.npy --y y.npy --task classification -o m.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    // Before, 0.5 and 2^40 were scored as misses: accuracy 0 with no word that y cannot hold class labels.
    std::vector<double> fractional(d.x.rows, 0.5);
    write_vector(s.path("frac.npy"), "<f8", fractional);
    check_error(s.kfm("score m.kfm --x x.npy --y frac.npy"),
                "frac.npy: y: value 0.5 at row 0 is not an integer class label");
    std::vector<std::int64_t> above = d.two_labels(0, 1);
    above[3] = std::int64_t(1) << 40;
    write_vector(s.path("above.npy"), "<i8", above);
    check_error(s.kfm("score m.kfm --x x.npy --y above.npy --json"),
                "above.npy: y: value 1099511627776 at row 3 is outside the int32 range");
    // A regression model scores any finite targets.
    REQUIRE(s.kfm("fit map.kfm --x x.npy --y frac.npy --task regression -o r.kfm").exit_code == 0);
    CHECK(s.kfm("score r.kfm --x x.npy --y frac.npy").exit_code == 0);
}

TEST_CASE("targets: float64 regression targets are not rounded; fit and score report the model's true R^2") {
    inputs d;
    const scratch& s = d.dir;
    // y = offset + 3 x0: float32 holds 1e8 only to a multiple of 8, finer than the spread of 3 x0.
    std::vector<double> offset_y, plain_y;
    for (std::size_t i = 0; i < d.x.rows; ++i) {
        offset_y.push_back(1e8 + 3.0 * double(d.x.row(i)[0]));
        plain_y.push_back(10.0 + 3.0 * double(d.x.row(i)[0]));
    }
    write_vector(s.path("offset.npy"), "<f8", offset_y);
    write_vector(s.path("plain.npy"), "<f8", plain_y);

    // Without a large offset the float32 model scores as the double fit: no warning.
    auto r = s.kfm("fit map.kfm --x x.npy --y plain.npy --task regression --alpha 1e-3 -o plain.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.err.empty());
    const double plain_train = number_after(r.out, "training R^2 ");
    CHECK(plain_train > 0.99);
    REQUIRE(s.kfm("predict plain.kfm --in x.npy --out p.npy").exit_code == 0);
    CHECK(r2(kfm::offline::read_npy(s.path("p.npy")).data, plain_y) == doctest::Approx(plain_train).epsilon(1e-12));

    // With it: the double fit is as good, the float32 model is not; fit says so and reports the model's R^2.
    r = s.kfm("fit map.kfm --x x.npy --y offset.npy --task regression --alpha 1e-3 -o offset.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CAPTURE(r.err);
    CHECK(r.err.rfind("kfm fit: warning: the model's float32 scores lose accuracy", 0) == 0);
    CHECK(number_after(r.err, "computes it, ") > 0.99);  // the double-precision fit
    const double train = number_after(r.out, "training R^2 ");
    REQUIRE(s.kfm("predict offset.kfm --in x.npy --out p.npy").exit_code == 0);
    const double truth = r2(kfm::offline::read_npy(s.path("p.npy")).data, offset_y);
    CHECK(truth < 0.5);
    CHECK(train == doctest::Approx(truth).epsilon(1e-12));
    r = s.kfm("score offset.kfm --x x.npy --y offset.npy --json");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(number_after(r.out, "\"value\": ") == doctest::Approx(truth).epsilon(1e-12));

    // A head beyond float32 is refused, not written as Inf.
    std::vector<double> enormous(offset_y);
    for (double& v : enormous) v *= 1e32;  // about 1e40: finite in double, beyond float32's 3.4e38
    write_vector(s.path("enormous.npy"), "<f8", enormous);
    check_error(s.kfm("fit map.kfm --x x.npy --y enormous.npy --task regression -o out.kfm"), "beyond float32");
    CHECK_FALSE(fs::exists(s.dir / "out.kfm"));
}

TEST_CASE("targets: kfm score names an empty input and scores a constant target as scikit-learn's r2_score") {
    inputs d;
    const scratch& s = d.dir;
    const std::vector<double> constant(d.x.rows, 2.5), other(d.x.rows, 3.5);
    write_vector(s.path("c.npy"), "<f8", constant);
    write_vector(s.path("o.npy"), "<f8", other);
    // A constant target gives a zero head and the constant as bias: predictions equal to y exactly.
    REQUIRE(s.kfm("fit map.kfm --x x.npy --y c.npy --task regression -o c.kfm").exit_code == 0);
    CHECK(s.kfm("score c.kfm --x x.npy --y c.npy").out == "r2 1 (240 rows)\n");
    CHECK(s.kfm("score c.kfm --x x.npy --y o.npy").out == "r2 0 (240 rows)\n");

    kfm::offline::write_npy_f32(s.path("x0.npy"), 0, 6, nullptr);
    write_vector(s.path("y0.npy"), "<f8", std::vector<double>{});
    check_error(s.kfm("score c.kfm --x x0.npy --y y0.npy"), "x0.npy: no rows to score");
    write_vector(s.path("y2.npy"), "<i8", d.two_labels(0, 1));
    REQUIRE(s.kfm("fit map.kfm --x x.npy --y y2.npy --task classification -o b.kfm").exit_code == 0);
    check_error(s.kfm("score b.kfm --x x0.npy --y y0.npy"), "x0.npy: no rows to score");
}
