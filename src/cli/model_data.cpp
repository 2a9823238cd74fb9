// Inputs, targets and batched predictions for the model commands (model_data.hpp).
#include "cli/model_data.hpp"

#include <cmath>

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

offline::predictions predict_rows(const loaded_map& model, const offline::npy_array& x, const std::string& x_path) {
    try {
        return offline::predict_rows(model.view, x.data.data(), x.rows, x.cols);
    } catch (const std::runtime_error& e) {
        throw cli_error(x_path + ": " + e.what());
    }
}

double score_predictions(const loaded_map& model, const offline::predictions& p, const targets& y,
                         const std::string& y_path) {
    try {
        return offline::score_predictions(model.view, p, y.rows, y.values.data(), y.cols);
    } catch (const std::invalid_argument& e) {  // y's shape is checked before: a label no model holds
        throw cli_error(y_path + ": " + e.what());
    }
}

}  // namespace kfm::cli
