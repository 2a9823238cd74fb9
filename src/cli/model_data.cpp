// Inputs, targets and batched predictions for the model commands (model_data.hpp).
#include "cli/model_data.hpp"

#include <algorithm>
#include <cmath>

#include "offline/fit/ridge.hpp"

namespace kfm::cli {

offline::npy_array read_inputs(const std::string& path, const kfm::map& map) {
    offline::npy_array x = offline::read_npy(path);
    if (x.cols != map.input_dim())
        throw cli_error(path + ": rows have " + std::to_string(x.cols) + " values but the map's input_dim is " +
                        std::to_string(map.input_dim()));
    require_finite(path, x.data.data(), x.rows, x.cols);
    return x;
}

targets read_targets(const std::string& path, std::size_t rows, bool one_column) {
    // In double: float64 targets and integer labels are kept exactly (a float would round 16777217).
    const offline::npy_array_f64 y = offline::read_npy_f64(path);
    targets t;
    t.rows = y.ndim == 1 ? y.cols : y.rows;
    t.cols = y.ndim == 1 ? 1 : y.cols;
    if (t.rows != rows)
        throw cli_error(path + ": " + std::to_string(t.rows) + " targets for " + std::to_string(rows) +
                        " input rows (one per row is needed)");
    if (t.cols == 0) throw cli_error(path + ": no target columns");
    if (one_column && t.cols != 1)
        throw cli_error(path + ": classification needs one label per row, shape (N,) or (N, 1), not (N, " +
                        std::to_string(t.cols) + ")");
    t.values.assign(y.data.begin(), y.data.end());
    for (std::size_t i = 0; i < t.values.size(); ++i)
        if (!std::isfinite(t.values[i]))
            throw cli_error(path + ": row " + std::to_string(i / t.cols) + " is " +
                            (std::isnan(t.values[i]) ? "NaN" : "infinite") + " (targets must be finite)");
    return t;
}

void require_head(const loaded_map& model) {
    if (model.view.task() == format::task_kind::none)
        throw cli_error(model.path + ": the file has no linear head (a map, not a model: fit one with 'kfm fit')");
}

predictions predict_rows(const loaded_map& model, const offline::npy_array& x, const std::string& x_path) {
    const kfm::map& m = model.view;
    const std::size_t k = m.head_outputs();
    predictions p;
    p.scores.resize(x.rows * k);
    if (m.task() != format::task_kind::regression) p.labels.resize(x.rows);
    const std::size_t chunk = std::min<std::size_t>(256, std::max<std::size_t>(x.rows, 1));
    const aligned_buffer workspace(kfm::workspace_bytes(m, chunk));
    for (std::size_t begin = 0; begin < x.rows; begin += chunk) {
        const std::size_t n = std::min(chunk, x.rows - begin);
        const kfm::status s = kfm::predict_batch(m, x.row(begin), n, x.cols, x.cols, p.scores.data() + begin * k, k,
                                                 p.labels.empty() ? nullptr : p.labels.data() + begin,
                                                 workspace.data(), workspace.size());
        if (s != kfm::status::ok)
            throw cli_error(x_path + ": rows " + std::to_string(begin) + ".." + std::to_string(begin + n - 1) + ": " +
                            kfm::status_string(s));
    }
    return p;
}

double score_rows(const loaded_map& model, const offline::npy_array& x, const targets& y, const std::string& x_path) {
    if (x.rows == 0) throw cli_error(x_path + ": no rows to score (the file holds 0 rows)");
    const predictions p = predict_rows(model, x, x_path);
    if (model.view.task() != format::task_kind::regression) return offline::accuracy(p.labels, y.values);
    const Eigen::Index n = Eigen::Index(y.rows), k = Eigen::Index(y.cols);
    Eigen::MatrixXd predicted(n, k), truth(n, k);
    for (Eigen::Index i = 0; i < n * k; ++i) {
        predicted(i / k, i % k) = p.scores[std::size_t(i)];
        truth(i / k, i % k) = y.values[std::size_t(i)];
    }
    return offline::r2_score(predicted, truth);
}

}  // namespace kfm::cli
