// A model's predictions and score over many rows, as kfm::predict_batch computes them
// (kfm/offline/model.hpp).
#include <algorithm>
#include <stdexcept>

#include "kfm/offline/model.hpp"
#include "offline/evaluate/aligned_workspace.hpp"
#include "offline/fit/ridge.hpp"

namespace kfm::offline {

predictions predict_rows(const kfm::map& model, const float* x, std::size_t rows, std::size_t cols) {
    if (model.task() == format::task_kind::none) throw std::invalid_argument("predict: the map has no linear head");
    const std::size_t k = model.head_outputs();
    predictions p;
    p.scores.resize(rows * k);
    if (model.task() != format::task_kind::regression) p.labels.resize(rows);
    const std::size_t chunk = std::min<std::size_t>(256, std::max<std::size_t>(rows, 1));
    const aligned_workspace workspace(kfm::workspace_bytes(model, chunk));
    for (std::size_t begin = 0; begin < rows; begin += chunk) {
        const std::size_t n = std::min(chunk, rows - begin);
        const kfm::status s = kfm::predict_batch(model, x + begin * cols, n, cols, cols, p.scores.data() + begin * k, k,
                                                 p.labels.empty() ? nullptr : p.labels.data() + begin,
                                                 workspace.data(), workspace.size());
        if (s != kfm::status::ok)
            throw std::runtime_error("rows " + std::to_string(begin) + ".." + std::to_string(begin + n - 1) + ": " +
                                     kfm::status_string(s));
    }
    return p;
}

namespace {

// What score_rows and score_predictions refuse before scoring anything.
void check_score_request(const kfm::map& model, std::size_t rows, const double* y, std::size_t y_cols) {
    if (rows == 0) throw std::invalid_argument("score: no rows to score");
    if (model.task() == format::task_kind::none) throw std::invalid_argument("score: the map has no linear head");
    const bool classify = model.task() != format::task_kind::regression;
    const std::size_t k = classify ? 1 : model.head_outputs();
    if (y_cols != k)
        throw std::invalid_argument("score: " + std::to_string(y_cols) + " target columns but the model has " +
                                    std::to_string(k) + (classify ? " label per row" : " outputs"));
    // Labels the model could never predict (0.5, 2^40) are refused as fit refuses them, not scored as misses.
    if (classify)
        for (std::size_t i = 0; i < rows; ++i) class_label(y[i], i);
}

}  // namespace

double score_predictions(const kfm::map& model, const predictions& p, std::size_t rows, const double* y,
                         std::size_t y_cols) {
    check_score_request(model, rows, y, y_cols);
    const bool classify = model.task() != format::task_kind::regression;
    if (p.scores.size() != rows * model.head_outputs() || p.labels.size() != (classify ? rows : 0))
        throw std::invalid_argument("score: the predictions are not the model's for " + std::to_string(rows) + " rows");
    if (classify) return accuracy(p.labels, std::vector<double>(y, y + rows));
    const Eigen::Index n = Eigen::Index(rows), kk = Eigen::Index(y_cols);
    Eigen::MatrixXd predicted(n, kk), truth(n, kk);
    for (Eigen::Index i = 0; i < n * kk; ++i) {
        predicted(i / kk, i % kk) = p.scores[std::size_t(i)];
        truth(i / kk, i % kk) = y[std::size_t(i)];
    }
    return r2_score(predicted, truth);
}

double score_rows(const kfm::map& model, const float* x, std::size_t rows, std::size_t cols, const double* y,
                  std::size_t y_cols) {
    check_score_request(model, rows, y, y_cols);
    return score_predictions(model, predict_rows(model, x, rows, cols), rows, y, y_cols);
}

}  // namespace kfm::offline
