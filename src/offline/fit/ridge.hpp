// Ridge regression on feature vectors, solved exactly in double precision (scikit-learn's Ridge objective:
// min ||Phi w + b - y||^2 + alpha ||w||^2, intercept unpenalised), one-vs-rest ridge classification on
// +-1 targets (RidgeClassifier), K-fold cross-validation over a list of alphas, and the scores.
// For a signed map (the last negative_dim features count negatively, J = diag(1.., -1..)) the fit is the
// ridge of the indefinite kernel K = Phi J Phi^T: w = J Phi^T a with (K + alpha I) a = y, the same
// predictions f(x) = phi(x).w + b, so the stored head needs no special case at predict time.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <Eigen/Dense>

namespace kfm::offline {

enum class ridge_path { automatic, primal, dual };  // automatic: primal D x D when D <= N, else dual N x N

struct ridge_solution {
    Eigen::MatrixXd w;  // D x k
    Eigen::VectorXd b;  // k
    bool dual = false;  // which system was solved
};

// phi: N x D features, y: N x k targets, alpha > 0. Throws std::invalid_argument for bad shapes, alpha
// <= 0, or a singular system.
ridge_solution solve_ridge(const Eigen::MatrixXd& phi, const Eigen::MatrixXd& y, double alpha,
                           std::uint32_t negative_dim = 0, ridge_path path = ridge_path::automatic);

// The text of v with %g's six digits, or as many more (up to 17) as it takes to read back as v, so that
// a message names the value itself (16777217, 0.1, 1.0000000001) rather than a rounded one.
std::string exact_text(double v);

// N x k scores phi w + b.
Eigen::MatrixXd ridge_scores(const ridge_solution& s, const Eigen::MatrixXd& phi);

// y's value at `row` as a class label; std::invalid_argument "y: value V at row R ..." unless it is an
// integer within int32 (what a model file's LABL holds).
std::int32_t class_label(double v, std::size_t row);

// Classification targets: labels = the sorted distinct values of y (integers, at least two); binary: one
// column, +1 for labels[1] and -1 for labels[0]; multiclass: one +-1 column per class. Throws
// std::invalid_argument for a non-integer, out-of-int32 or single-class y.
Eigen::MatrixXd class_targets(const std::vector<double>& y, std::vector<std::int32_t>* labels);

// The labels the scores predict (binary: labels[score > 0]; multiclass: the first largest score's).
std::vector<std::int32_t> predicted_labels(const Eigen::MatrixXd& scores, const std::vector<std::int32_t>& labels);

// Fraction of predicted == truth.
double accuracy(const std::vector<std::int32_t>& predicted, const std::vector<double>& truth);
// R^2 averaged uniformly over the columns (scikit-learn's r2_score); a constant column scores 1 when
// predicted exactly, else 0.
double r2_score(const Eigen::MatrixXd& predicted, const Eigen::MatrixXd& truth);

struct cv_result {
    std::size_t best = 0;             // index into alphas (the first of equal best scores)
    std::vector<double> mean_scores;  // per alpha: mean fold accuracy (classification) or R^2
};

// K contiguous folds (no shuffling, like scikit-learn's KFold); for classification `labels` is not empty
// and scores are accuracies of predicted_labels against `truth` (N values), else R^2 against y.
// `progress` (may be empty) is told each fold and alpha.
cv_result cross_validate(const Eigen::MatrixXd& phi, const Eigen::MatrixXd& y, const std::vector<double>& truth,
                         const std::vector<std::int32_t>& labels, const std::vector<double>& alphas, unsigned folds,
                         std::uint32_t negative_dim, const std::function<void(const std::string&)>& progress);

}  // namespace kfm::offline
