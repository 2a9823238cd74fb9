// The ridge solver (src/offline/fit/ridge.cpp): primal and dual paths equal a direct double-precision solve of
// the normal equations with an unpenalised intercept; the signed (indefinite kernel) fit equals the dual
// formula; classification targets and labels; cross-validation picks the alpha with the best fold score.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

#include "offline/sampling/random.hpp"
#include "offline/fit/ridge.hpp"

using namespace kfm::offline;

namespace {

Eigen::MatrixXd random_matrix(Eigen::Index r, Eigen::Index c, std::uint64_t seed) {
    rng g(seed);
    Eigen::MatrixXd m(r, c);
    for (Eigen::Index i = 0; i < r; ++i)
        for (Eigen::Index j = 0; j < c; ++j) m(i, j) = g.normal();
    return m;
}

// min |Phi w + b - y|^2 + alpha |w|^2 via the (D+1) x (D+1) normal equations of [Phi 1], full-pivot LU.
void direct_solve(const Eigen::MatrixXd& phi, const Eigen::MatrixXd& y, double alpha, Eigen::MatrixXd* w,
                  Eigen::VectorXd* b) {
    const Eigen::Index n = phi.rows(), d = phi.cols();
    Eigen::MatrixXd z(n, d + 1);
    z << phi, Eigen::VectorXd::Ones(n);
    Eigen::MatrixXd a = z.transpose() * z;
    for (Eigen::Index i = 0; i < d; ++i) a(i, i) += alpha;
    const Eigen::MatrixXd theta = a.fullPivLu().solve(z.transpose() * y);
    *w = theta.topRows(d);
    *b = theta.row(d).transpose();
}

}  // namespace

TEST_CASE("ridge: primal and dual equal the direct normal-equation solve") {
    for (auto [n, d] : {std::pair<Eigen::Index, Eigen::Index>{40, 12}, {12, 40}}) {
        const Eigen::MatrixXd phi = random_matrix(n, d, 1 + std::uint64_t(n));
        const Eigen::MatrixXd y = random_matrix(n, 3, 7);
        for (double alpha : {0.01, 1.0, 25.0}) {
            Eigen::MatrixXd w;
            Eigen::VectorXd b;
            direct_solve(phi, y, alpha, &w, &b);
            for (auto path : {ridge_path::primal, ridge_path::dual}) {
                const ridge_solution s = solve_ridge(phi, y, alpha, 0, path);
                CHECK(s.dual == (path == ridge_path::dual));
                CHECK((s.w - w).norm() <= 1e-9 * (1.0 + w.norm()));
                CHECK((s.b - b).norm() <= 1e-9 * (1.0 + b.norm()));
            }
            CHECK(solve_ridge(phi, y, alpha).dual == (d > n));  // automatic: the smaller system
        }
    }
}

TEST_CASE("ridge: a signed map's fit is the indefinite kernel's ridge, on both paths") {
    const Eigen::Index n = 30, d = 10;
    const std::uint32_t negative = 4;
    const Eigen::MatrixXd phi = random_matrix(n, d, 3);
    const Eigen::MatrixXd y = random_matrix(n, 1, 4);
    const double alpha = 2.0;
    // Direct: centred K = Pc J Pc^T, a = (K + alpha I)^-1 yc, w = J Pc^T a, b = mean(y) - mean(phi).w.
    const Eigen::RowVectorXd mean = phi.colwise().mean();
    const Eigen::MatrixXd pc = phi.rowwise() - mean;
    Eigen::VectorXd j = Eigen::VectorXd::Ones(d);
    j.tail(negative).setConstant(-1.0);
    Eigen::MatrixXd k = pc * j.asDiagonal() * pc.transpose();
    k.diagonal().array() += alpha;
    const Eigen::VectorXd yc = y.col(0).array() - y.col(0).mean();
    const Eigen::VectorXd w = j.asDiagonal() * (pc.transpose() * k.fullPivLu().solve(yc));
    const double b = y.col(0).mean() - mean.dot(w);
    for (auto path : {ridge_path::primal, ridge_path::dual}) {
        const ridge_solution s = solve_ridge(phi, y, alpha, negative, path);
        CHECK((s.w.col(0) - w).norm() <= 1e-9 * (1.0 + w.norm()));
        CHECK(std::fabs(s.b(0) - b) <= 1e-9 * (1.0 + std::fabs(b)));
    }
    // Not the same as the unsigned fit.
    CHECK((solve_ridge(phi, y, alpha, 0).w.col(0) - w).norm() > 1e-3);
}

TEST_CASE("ridge: bad input is refused") {
    const Eigen::MatrixXd phi = random_matrix(5, 3, 1);
    CHECK_THROWS_AS(solve_ridge(phi, random_matrix(4, 1, 2), 1.0), std::invalid_argument);
    CHECK_THROWS_AS(solve_ridge(phi, random_matrix(5, 1, 2), 0.0), std::invalid_argument);
    CHECK_THROWS_AS(solve_ridge(phi, random_matrix(5, 1, 2), -1.0), std::invalid_argument);
}

TEST_CASE("ridge: classification targets, labels and the argmax rule") {
    std::vector<std::int32_t> labels;
    const Eigen::MatrixXd binary = class_targets({4, -2, 4, 4}, &labels);
    CHECK(labels == std::vector<std::int32_t>{-2, 4});
    REQUIRE(binary.cols() == 1);
    CHECK(binary(0, 0) == 1.0);
    CHECK(binary(1, 0) == -1.0);

    const Eigen::MatrixXd multi = class_targets({3, 1, 2, 3}, &labels);
    CHECK(labels == std::vector<std::int32_t>{1, 2, 3});
    REQUIRE(multi.cols() == 3);
    CHECK(multi.row(1) == Eigen::RowVector3d(1, -1, -1));
    CHECK(multi.row(0) == Eigen::RowVector3d(-1, -1, 1));

    CHECK_THROWS_AS(class_targets({1, 1, 1}, &labels), std::invalid_argument);   // one class
    CHECK_THROWS_AS(class_targets({1, 2.5, 1}, &labels), std::invalid_argument); // not an integer
    CHECK_THROWS_AS(class_targets({1, 3e9}, &labels), std::invalid_argument);    // outside int32

    Eigen::MatrixXd scores(3, 3);
    scores << 0.1, 0.5, 0.5,  // tie: the first maximum
        0.9, 0.2, -1.0,       //
        -1.0, -2.0, -0.5;
    CHECK(predicted_labels(scores, {1, 2, 3}) == std::vector<std::int32_t>{2, 1, 3});
    Eigen::MatrixXd one(3, 1);
    one << 0.0, 0.1, -0.1;  // score 0 is the first class
    CHECK(predicted_labels(one, {-2, 4}) == std::vector<std::int32_t>{-2, 4, -2});
    CHECK(accuracy({1, 2, 3}, {1, 2, 2}) == doctest::Approx(2.0 / 3.0));
}

TEST_CASE("ridge: cross-validation picks the alpha with the best mean fold score") {
    // Noise-free linear targets: a tiny alpha fits the held-out folds almost exactly, a huge one predicts
    // the mean (R^2 <= 0).
    const Eigen::MatrixXd phi = random_matrix(60, 5, 8);
    const Eigen::MatrixXd y = phi * random_matrix(5, 1, 9);
    const std::vector<double> alphas = {1e6, 1e-6, 1e3};
    const cv_result r = cross_validate(phi, y, {}, {}, alphas, 4, 0, {});
    CHECK(r.best == 1);
    CHECK(r.mean_scores[1] > 0.999);
    CHECK(r.mean_scores[0] < 0.1);
    // The score of one alpha recomputed by hand over the 4 contiguous folds of 15 rows.
    double manual = 0.0;
    for (Eigen::Index f = 0; f < 4; ++f) {
        Eigen::MatrixXd p(45, 5), t(45, 1);
        p << phi.topRows(15 * f), phi.bottomRows(60 - 15 * (f + 1));
        t << y.topRows(15 * f), y.bottomRows(60 - 15 * (f + 1));
        const ridge_solution s = solve_ridge(p, t, 1e3);
        manual += r2_score(ridge_scores(s, phi.middleRows(15 * f, 15)), y.middleRows(15 * f, 15)) / 4.0;
    }
    CHECK(r.mean_scores[2] == doctest::Approx(manual).epsilon(1e-12));

    // Classification: accuracies.
    std::vector<double> truth;
    for (Eigen::Index i = 0; i < 60; ++i) truth.push_back(y(i, 0) > 0 ? 1.0 : 0.0);
    std::vector<std::int32_t> labels;
    const Eigen::MatrixXd t = class_targets(truth, &labels);
    const cv_result c = cross_validate(phi, t, truth, labels, {1e-3, 1e8}, 3, 0, {});
    CHECK(c.best == 0);
    CHECK(c.mean_scores[0] > 0.85);
    CHECK_THROWS_AS(cross_validate(phi, y, {}, {}, alphas, 1, 0, {}), std::invalid_argument);
}
