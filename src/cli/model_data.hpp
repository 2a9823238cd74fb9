// What `kfm fit`, `kfm predict` and `kfm score` share: reading inputs checked against a map, reading
// targets y, and offline::predict_rows / score_predictions with the errors naming the files.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "kfm/offline.hpp"

namespace kfm::cli {

// X as float rows with the map's input_dim columns, all finite (cli_error naming the file otherwise).
offline::npy_array read_inputs(const std::string& path, const kfm::map& map);

// y for `rows` samples: shape (N,) or (N, k) (k = 1 for a 1-D file), read in double so that every float64
// target and every integer label up to 2^53 is exact. cli_error for a row count other than `rows`,
// NaN/Inf, or (when `one_column`) more than one column.
struct targets {
    std::size_t rows = 0, cols = 0;
    std::vector<double> values;  // rows x cols, row-major
};
targets read_targets(const std::string& path, std::size_t rows, bool one_column);

// offline::predict_rows over every row of x: scores rows x head_outputs, labels (classifiers) rows.
offline::predictions predict_rows(const loaded_map& model, const offline::npy_array& x, const std::string& x_path);

// Accuracy (classifiers) or R^2 (regression, averaged over outputs, scikit-learn's r2_score) of the
// predictions p (predict_rows of y.rows rows) against y, computed in double: what 'kfm score' prints.
// cli_error naming y_path for a classifier's label that is not an integer within int32.
double score_predictions(const loaded_map& model, const offline::predictions& p, const targets& y,
                         const std::string& y_path);

// cli_error unless the file has a linear head.
void require_head(const loaded_map& model);

}  // namespace kfm::cli
