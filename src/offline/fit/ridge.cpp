// Exact ridge solves in double precision (ridge.hpp). Centring Phi and y makes the intercept
// unpenalised: w from the centred system, b = mean(y) - mean(phi).w.
#include "offline/fit/ridge.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace kfm::offline {
namespace {

// J as a vector: +1 for the positive features, -1 for the last negative_dim.
Eigen::VectorXd signature(Eigen::Index d, std::uint32_t negative_dim) {
    Eigen::VectorXd j = Eigen::VectorXd::Ones(d);
    j.tail(negative_dim).setConstant(-1.0);
    return j;
}

// Solves a (symmetric) system; LDLT with pivoting copes with the indefinite matrices of signed maps.
Eigen::MatrixXd solve_symmetric(const Eigen::MatrixXd& a, const Eigen::MatrixXd& rhs) {
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(a);
    Eigen::MatrixXd x;
    if (ldlt.info() == Eigen::Success) x = ldlt.solve(rhs);
    if (ldlt.info() != Eigen::Success || !x.allFinite() || !(a * x).isApprox(rhs, 1e-6))
        throw std::invalid_argument("ridge: the system is singular for this alpha (try a larger --alpha)");
    return x;
}

}  // namespace

std::string exact_text(double v) {
    char text[32];
    for (int digits = 6; digits <= 17; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, v);
        if (std::strtod(text, nullptr) == v) break;
    }
    return text;
}

ridge_solution solve_ridge(const Eigen::MatrixXd& phi, const Eigen::MatrixXd& y, double alpha,
                           std::uint32_t negative_dim, ridge_path path) {
    const Eigen::Index n = phi.rows(), d = phi.cols();
    if (n == 0 || d == 0) throw std::invalid_argument("ridge: no samples or no features");
    if (y.rows() != n || y.cols() == 0) throw std::invalid_argument("ridge: y must have one row per sample");
    if (!(alpha > 0.0) || !std::isfinite(alpha)) throw std::invalid_argument("ridge: alpha must be positive and finite");
    if (std::int64_t(negative_dim) > std::int64_t(d)) throw std::invalid_argument("ridge: negative_dim exceeds the feature count");

    const Eigen::RowVectorXd phi_mean = phi.colwise().mean();
    const Eigen::RowVectorXd y_mean = y.colwise().mean();
    const Eigen::MatrixXd pc = phi.rowwise() - phi_mean;
    const Eigen::MatrixXd yc = y.rowwise() - y_mean;
    const Eigen::VectorXd j = signature(d, negative_dim);

    ridge_solution s;
    s.dual = path == ridge_path::dual || (path == ridge_path::automatic && d > n);
    if (s.dual) {
        // (Pc J Pc^T + alpha I) a = yc, w = J Pc^T a.
        Eigen::MatrixXd k = pc * j.asDiagonal() * pc.transpose();
        k.diagonal().array() += alpha;
        s.w = j.asDiagonal() * (pc.transpose() * solve_symmetric(k, yc));
    } else {
        // (Pc^T Pc + alpha J) w = Pc^T yc (the push-through identity applied to the dual).
        Eigen::MatrixXd g = pc.transpose() * pc;
        g.diagonal() += alpha * j;
        s.w = solve_symmetric(g, pc.transpose() * yc);
    }
    s.b = (y_mean - phi_mean * s.w).transpose();
    return s;
}

Eigen::MatrixXd ridge_scores(const ridge_solution& s, const Eigen::MatrixXd& phi) {
    return (phi * s.w).rowwise() + s.b.transpose();
}

std::int32_t class_label(double v, std::size_t row) {
    const auto refuse = [&](const char* reason) {
        throw std::invalid_argument("y: value " + exact_text(v) + " at row " + std::to_string(row) + reason);
    };
    if (!std::isfinite(v) || v != std::floor(v)) refuse(" is not an integer class label");
    if (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max())
        refuse(" is outside the int32 range of the labels a model file holds (LABL)");
    return static_cast<std::int32_t>(v);
}

Eigen::MatrixXd class_targets(const std::vector<double>& y, std::vector<std::int32_t>* labels) {
    std::vector<std::int32_t> distinct;
    for (std::size_t i = 0; i < y.size(); ++i) distinct.push_back(class_label(y[i], i));
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct.size() < 2)
        throw std::invalid_argument("y: classification needs at least two classes (found " +
                                    std::to_string(distinct.size()) + ")");
    const bool binary = distinct.size() == 2;
    Eigen::MatrixXd t = Eigen::MatrixXd::Constant(Eigen::Index(y.size()), binary ? 1 : Eigen::Index(distinct.size()), -1.0);
    for (std::size_t i = 0; i < y.size(); ++i) {
        const auto c = std::lower_bound(distinct.begin(), distinct.end(), static_cast<std::int32_t>(y[i])) - distinct.begin();
        if (binary) {
            t(Eigen::Index(i), 0) = c == 1 ? 1.0 : -1.0;
        } else {
            t(Eigen::Index(i), c) = 1.0;
        }
    }
    *labels = distinct;
    return t;
}

std::vector<std::int32_t> predicted_labels(const Eigen::MatrixXd& scores, const std::vector<std::int32_t>& labels) {
    std::vector<std::int32_t> out(static_cast<std::size_t>(scores.rows()));
    for (Eigen::Index i = 0; i < scores.rows(); ++i) {
        if (scores.cols() == 1) {
            out[std::size_t(i)] = labels[scores(i, 0) > 0.0 ? 1 : 0];
        } else {
            Eigen::Index best = 0;
            for (Eigen::Index c = 1; c < scores.cols(); ++c)
                if (scores(i, c) > scores(i, best)) best = c;
            out[std::size_t(i)] = labels[std::size_t(best)];
        }
    }
    return out;
}

double accuracy(const std::vector<std::int32_t>& predicted, const std::vector<double>& truth) {
    if (predicted.empty()) throw std::invalid_argument("accuracy: no samples");
    if (predicted.size() != truth.size()) throw std::invalid_argument("accuracy: sizes differ");
    std::size_t right = 0;
    for (std::size_t i = 0; i < predicted.size(); ++i) right += double(predicted[i]) == truth[i] ? 1 : 0;
    return double(right) / double(predicted.size());
}

double r2_score(const Eigen::MatrixXd& predicted, const Eigen::MatrixXd& truth) {
    if (truth.rows() == 0) throw std::invalid_argument("r2: no samples");
    if (predicted.rows() != truth.rows() || predicted.cols() != truth.cols())
        throw std::invalid_argument("r2: shapes differ");
    double total = 0.0;
    for (Eigen::Index c = 0; c < truth.cols(); ++c) {
        const double mean = truth.col(c).mean();
        const double ss_res = (truth.col(c) - predicted.col(c)).squaredNorm();
        const double ss_tot = (truth.col(c).array() - mean).matrix().squaredNorm();
        total += ss_tot > 0.0 ? 1.0 - ss_res / ss_tot : (ss_res == 0.0 ? 1.0 : 0.0);
    }
    return total / double(truth.cols());
}

cv_result cross_validate(const Eigen::MatrixXd& phi, const Eigen::MatrixXd& y, const std::vector<double>& truth,
                         const std::vector<std::int32_t>& labels, const std::vector<double>& alphas, unsigned folds,
                         std::uint32_t negative_dim, const std::function<void(const std::string&)>& progress) {
    const Eigen::Index n = phi.rows();
    if (alphas.empty()) throw std::invalid_argument("cross-validation: no alpha given");
    if (folds < 2 || Eigen::Index(folds) > n)
        throw std::invalid_argument("cross-validation: --cv must be between 2 and the number of rows (" +
                                    std::to_string(n) + ")");
    cv_result r;
    r.mean_scores.assign(alphas.size(), 0.0);
    for (unsigned f = 0; f < folds; ++f) {
        // Fold f: rows [begin, end) held out; the first n % folds folds get one row more (like KFold).
        const Eigen::Index base = n / folds, extra = n % folds;
        const Eigen::Index begin = f * base + std::min<Eigen::Index>(f, extra);
        const Eigen::Index end = begin + base + (Eigen::Index(f) < extra ? 1 : 0);
        const Eigen::Index held = end - begin, kept = n - held;
        Eigen::MatrixXd phi_train(kept, phi.cols()), y_train(kept, y.cols());
        phi_train << phi.topRows(begin), phi.bottomRows(n - end);
        y_train << y.topRows(begin), y.bottomRows(n - end);
        const Eigen::MatrixXd phi_test = phi.middleRows(begin, held);
        for (std::size_t a = 0; a < alphas.size(); ++a) {
            if (progress) progress("fold " + std::to_string(f + 1) + "/" + std::to_string(folds) + ", alpha " +
                                   std::to_string(alphas[a]));
            const ridge_solution s = solve_ridge(phi_train, y_train, alphas[a], negative_dim);
            const Eigen::MatrixXd scores = ridge_scores(s, phi_test);
            double score = 0.0;
            if (!labels.empty()) {
                const std::vector<double> t(truth.begin() + begin, truth.begin() + end);
                score = accuracy(predicted_labels(scores, labels), t);
            } else {
                score = r2_score(scores, y.middleRows(begin, held));
            }
            r.mean_scores[a] += score / double(folds);
        }
    }
    for (std::size_t a = 1; a < alphas.size(); ++a)
        if (r.mean_scores[a] > r.mean_scores[r.best]) r.best = a;
    return r;
}

}  // namespace kfm::offline
