// `kfm fit`'s learnt statistics and its model selection, each against a direct computation in the test:
// the PREP shift/scale of --standardize (mean, 1 / population std) and --minmax (min, 1 / range), and
// --cv's contiguous KFold folds, mean R^2 and the first of equal best alphas.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "cli/cli_harness.hpp"
#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/npy.hpp"

using namespace kfm_cli_test;

namespace {

double number_after(const std::string& text, const std::string& key) {
    const auto at = text.find(key);
    REQUIRE_MESSAGE(at != std::string::npos, key << " not in " << text);
    return std::strtod(text.c_str() + at + key.size(), nullptr);
}

// The float32 payload of the section `tag` of a .kfm file (empty when absent).
std::vector<float> section_floats(const std::string& path, std::uint32_t tag) {
    const std::string bytes = slurp(path);
    kfm::format::file_header h;
    REQUIRE(bytes.size() >= sizeof h);
    std::memcpy(&h, bytes.data(), sizeof h);
    for (std::uint32_t i = 0; i < h.section_count; ++i) {
        kfm::format::section_entry e;
        std::memcpy(&e, bytes.data() + h.section_table_offset + i * sizeof e, sizeof e);
        if (e.tag != tag) continue;
        std::vector<float> values(e.bytes / sizeof(float));
        std::memcpy(values.data(), bytes.data() + e.offset, e.bytes);
        return values;
    }
    return {};
}

// X from kfm synth with its last column made constant (3.0), and a Gaussian RFF map on it.
struct data {
    scratch dir;
    kfm::offline::npy_array x;
    data() {
        REQUIRE(dir.kfm("synth --rows 240 --dim 6 --seed 4 -o raw.npy").exit_code == 0);
        REQUIRE(dir.kfm("build --method rff --kernel gaussian --sigma 1 --input-dim 6 --features 64 -o map.kfm")
                    .exit_code == 0);
        x = kfm::offline::read_npy(dir.path("raw.npy"));
        for (std::size_t i = 0; i < x.rows; ++i) x.data[i * x.cols + 5] = 3.0f;
        kfm::offline::write_npy_f32(dir.path("x.npy"), x.rows, x.cols, x.data.data());
        std::vector<float> y;
        for (std::size_t i = 0; i < x.rows; ++i) y.push_back(std::sin(2.0f * x.row(i)[0]) + x.row(i)[1] * x.row(i)[1]);
        kfm::offline::write_npy_f32_vector(dir.path("y.npy"), y.size(), y.data());
    }
};

// The map's features of every row of x (kfm::transform, one row at a time), in double.
Eigen::MatrixXd features(const std::string& map_path, const kfm::offline::npy_array& x) {
    const std::vector<std::uint8_t> bytes = kfm::offline::read_regular_file(map_path);
    kfm::map m;
    REQUIRE(kfm::open(bytes.data(), bytes.size(), &m) == kfm::status::ok);
    std::vector<std::uint8_t> ws(kfm::workspace_bytes(m, 1));
    std::vector<float> row(m.output_dim());
    Eigen::MatrixXd phi(Eigen::Index(x.rows), Eigen::Index(m.output_dim()));
    for (std::size_t i = 0; i < x.rows; ++i) {
        REQUIRE(kfm::transform(m, x.row(i), x.cols, row.data(), row.size(), ws.data(), ws.size()) == kfm::status::ok);
        for (std::size_t c = 0; c < row.size(); ++c) phi(Eigen::Index(i), Eigen::Index(c)) = row[c];
    }
    return phi;
}

// Ridge with an unpenalised intercept by the normal equations of the centred data, then R^2 on the test rows.
double ridge_r2(const Eigen::MatrixXd& phi_train, const Eigen::VectorXd& y_train, const Eigen::MatrixXd& phi_test,
                const Eigen::VectorXd& y_test, double alpha) {
    const Eigen::RowVectorXd mean = phi_train.colwise().mean();
    const Eigen::MatrixXd centred = phi_train.rowwise() - mean;
    const double y_mean = y_train.mean();
    Eigen::MatrixXd gram = centred.transpose() * centred;
    gram.diagonal().array() += alpha;
    const Eigen::VectorXd w = gram.llt().solve(centred.transpose() * (y_train.array() - y_mean).matrix());
    const Eigen::VectorXd predicted = (phi_test * w).array() + (y_mean - mean.dot(w));
    return 1.0 - (y_test - predicted).squaredNorm() / (y_test.array() - y_test.mean()).matrix().squaredNorm();
}

}  // namespace

TEST_CASE("fit: --standardize and --minmax store each column's mean and 1/population std, min and 1/range") {
    data d;
    const scratch& s = d.dir;
    REQUIRE(s.kfm("fit map.kfm --x x.npy --y y.npy --task regression --standardize -o std.kfm").exit_code == 0);
    REQUIRE(s.kfm("fit map.kfm --x x.npy --y y.npy --task regression --minmax -o mm.kfm").exit_code == 0);
    const std::vector<float> standard = section_floats(s.path("std.kfm"), kfm::format::tag::preprocess);
    const std::vector<float> minmax = section_floats(s.path("mm.kfm"), kfm::format::tag::preprocess);
    const std::size_t cols = d.x.cols;
    REQUIRE(standard.size() == 2 * cols);
    REQUIRE(minmax.size() == 2 * cols);
    for (std::size_t c = 0; c < cols; ++c) {
        CAPTURE(c);
        double sum = 0.0, lo = HUGE_VAL, hi = -HUGE_VAL;
        for (std::size_t i = 0; i < d.x.rows; ++i) {
            const double v = d.x.row(i)[c];
            sum += v;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        const double mean = sum / double(d.x.rows);
        double squares = 0.0;
        for (std::size_t i = 0; i < d.x.rows; ++i) squares += (d.x.row(i)[c] - mean) * (d.x.row(i)[c] - mean);
        const double std_dev = std::sqrt(squares / double(d.x.rows));  // StandardScaler: population (ddof 0)
        CHECK(standard[c] == doctest::Approx(mean).epsilon(1e-6));
        CHECK(minmax[c] == float(lo));
        if (c + 1 == cols) {  // the constant column keeps scale 1
            CHECK(standard[cols + c] == 1.0f);
            CHECK(minmax[cols + c] == 1.0f);
        } else {
            CHECK(standard[cols + c] == doctest::Approx(1.0 / std_dev).epsilon(1e-6));
            CHECK(minmax[cols + c] == doctest::Approx(1.0 / (hi - lo)).epsilon(1e-6));
        }
    }
}

TEST_CASE("fit: --cv scores contiguous KFold folds by mean R^2 and keeps the first of equal best alphas") {
    data d;
    const scratch& s = d.dir;
    // 240 rows in 7 folds: the first 240 % 7 = 2 folds hold 35 rows, the others 34 (KFold's split).
    auto r = s.kfm("fit map.kfm --x x.npy --y y.npy --task regression --alpha 1e-3,10 --cv 7 -o cv.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const Eigen::MatrixXd phi = features(s.path("map.kfm"), d.x);
    const auto y_file = kfm::offline::read_npy(s.path("y.npy"));
    const Eigen::VectorXd y =
        Eigen::Map<const Eigen::VectorXf>(y_file.data.data(), Eigen::Index(y_file.data.size())).cast<double>();
    const Eigen::Index n = phi.rows();
    double best_score = -HUGE_VAL, best_alpha = 0.0;
    for (const double alpha : {1e-3, 10.0}) {
        double mean = 0.0;
        for (Eigen::Index f = 0, begin = 0; f < 7; ++f) {
            const Eigen::Index held = f < 2 ? 35 : 34;
            Eigen::MatrixXd phi_train(n - held, phi.cols());
            Eigen::VectorXd y_train(n - held);
            phi_train << phi.topRows(begin), phi.bottomRows(n - begin - held);
            y_train << y.head(begin), y.tail(n - begin - held);
            mean += ridge_r2(phi_train, y_train, phi.middleRows(begin, held), y.segment(begin, held), alpha) / 7.0;
            begin += held;
        }
        if (mean > best_score) {
            best_score = mean;
            best_alpha = alpha;
        }
    }
    CHECK(best_alpha == 1e-3);
    CHECK(r.out.find("alpha 0.001 (7-fold CV score ") != std::string::npos);
    CHECK(number_after(r.out, "7-fold CV score ") == doctest::Approx(best_score).epsilon(1e-9));

    // Two alphas a hair apart give the same accuracy in every fold: the first listed wins, in either order.
    std::vector<float> labels;
    for (std::size_t i = 0; i < d.x.rows; ++i) labels.push_back(d.x.row(i)[0] + d.x.row(i)[1] > 0 ? 1.0f : 0.0f);
    kfm::offline::write_npy_f32_vector(s.path("labels.npy"), labels.size(), labels.data());
    const std::string fit = "fit map.kfm --x x.npy --y labels.npy --task classification --cv 4 -o tie.kfm --alpha ";
    r = s.kfm(fit + "0.5,0.5000001");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out.find("alpha 0.5 (4-fold") != std::string::npos);
    r = s.kfm(fit + "0.5000001,0.5");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out.find("alpha 0.5000001 (4-fold") != std::string::npos);
}
