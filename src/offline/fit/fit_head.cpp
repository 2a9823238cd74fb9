// Fitting a model's input scaling and linear head (kfm/offline/model.hpp) with the exact ridge solvers of
// ridge.hpp, on the features the runtime computes.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kfm/offline/model.hpp"
#include "offline/evaluate/aligned_workspace.hpp"
#include "offline/fit/ridge.hpp"

namespace kfm::offline {
namespace {

// Phi of every row of x through the runtime (so training sees exactly the features predict will), and
// the map's negative_dim.
Eigen::MatrixXd features_of(const map_contents& model, const float* x, std::size_t rows, std::size_t cols,
                            std::uint32_t* negative_dim) {
    const std::vector<std::uint8_t> bytes = serialize(model);
    kfm::map m;
    if (kfm::status s = kfm::open(bytes.data(), bytes.size(), &m); s != kfm::status::ok)
        throw std::invalid_argument(std::string("the map with its scaling does not open: ") + kfm::status_string(s));
    *negative_dim = m.negative_dim();
    const std::size_t D = m.output_dim();
    std::vector<float> phi(rows * D);
    const aligned_workspace workspace(kfm::workspace_bytes(m, 64));
    const kfm::status s =
        kfm::transform_batch(m, x, rows, cols, cols, phi.data(), D, workspace.data(), workspace.size());
    if (s != kfm::status::ok) throw std::invalid_argument(std::string("x: ") + kfm::status_string(s));
    Eigen::MatrixXd out(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(D));
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < D; ++c) out(Eigen::Index(r), Eigen::Index(c)) = phi[r * D + c];
    return out;
}

// A head weight or bias as the float32 the model file stores.
float to_head_float(double v, const std::string& targets_name) {
    const float f = static_cast<float>(v);
    if (!std::isfinite(f))
        throw std::invalid_argument(targets_name + ": the fitted head has a value (" + exact_text(v) +
                                    ") beyond float32, which the model file stores (targets too large)");
    return f;
}

}  // namespace

input_scaling learn_input_scaling(const float* x, std::size_t rows, std::size_t cols, scaler kind) {
    if (rows == 0) throw std::invalid_argument("input scaling: no rows to learn it from");
    const bool standardize = kind == scaler::standard;
    input_scaling s;
    for (std::size_t c = 0; c < cols; ++c) {
        double sum = 0.0, lo = x[c], hi = x[c];
        for (std::size_t r = 0; r < rows; ++r) {
            const double v = x[r * cols + c];
            sum += v;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        const double mean = sum / double(rows);
        double spread = hi - lo;
        if (standardize) {
            double ss = 0.0;
            for (std::size_t r = 0; r < rows; ++r) ss += std::pow(x[r * cols + c] - mean, 2);
            spread = std::sqrt(ss / double(rows));
        }
        const float inverse = static_cast<float>(1.0 / spread);
        s.shift.push_back(static_cast<float>(standardize ? mean : lo));
        s.scale.push_back(spread > 0.0 && std::isfinite(inverse) && inverse != 0.0f ? inverse : 1.0f);
    }
    return s;
}

fitted_head fit_head(const map_contents& model, const float* x, std::size_t rows, std::size_t cols,
                     const double* y, std::size_t y_cols, const fit_options& options) {
    const bool classify = options.task == fit_task::classification;
    if (rows < 2) throw std::invalid_argument("fit: at least two rows are needed");
    if (y_cols == 0) throw std::invalid_argument(options.targets_name + ": no target columns");
    if (classify && y_cols != 1)
        throw std::invalid_argument(options.targets_name + ": classification needs one label per row, not " +
                                    std::to_string(y_cols));
    if (options.alphas.empty()) throw std::invalid_argument("fit: no alpha given");
    for (double a : options.alphas)
        if (!(a > 0.0) || !std::isfinite(a)) throw std::invalid_argument("fit: alphas must be positive and finite");
    if (options.alphas.size() > 1 && options.folds == 0)
        throw std::invalid_argument("fit: several alphas need cross-validation folds to choose among them");
    if (options.folds == 1) throw std::invalid_argument("fit: cross-validation needs at least 2 folds");
    const auto progress = [&](const std::string& what) {
        if (options.progress) options.progress(what);
    };

    progress("features of " + std::to_string(rows) + " rows");
    std::uint32_t negative = 0;
    const Eigen::MatrixXd phi = features_of(model, x, rows, cols, &negative);
    std::vector<std::int32_t> labels;
    Eigen::MatrixXd t;
    std::vector<double> truth;
    try {
        if (classify) {
            truth.assign(y, y + rows);
            t = class_targets(truth, &labels);
        } else {
            t = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
                y, Eigen::Index(rows), Eigen::Index(y_cols));
        }
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(options.targets_name + ": " + e.what());
    }

    fitted_head fitted;
    fitted.alpha = options.alphas[0];
    if (options.folds >= 2) {
        const cv_result cv = cross_validate(phi, t, truth, labels, options.alphas, options.folds, negative,
                                            options.progress);
        fitted.alpha = options.alphas[cv.best];
        fitted.best = cv.best;
        fitted.cv_scores = cv.mean_scores;
    }
    progress("solving with alpha " + exact_text(fitted.alpha));
    const ridge_solution s = solve_ridge(phi, t, fitted.alpha, negative);
    fitted.dual = s.dual;

    linear_head& head = fitted.head;
    head.kind = !classify ? format::task_kind::regression
                          : (labels.size() == 2 ? format::task_kind::binary : format::task_kind::multiclass);
    head.outputs = static_cast<std::uint32_t>(s.w.cols());
    head.labels = labels;
    head.stored_as = options.stored_as;
    for (Eigen::Index j = 0; j < s.w.cols(); ++j) {
        for (Eigen::Index i = 0; i < s.w.rows(); ++i)
            head.weights.push_back(to_head_float(s.w(i, j), options.targets_name));
        head.bias.push_back(to_head_float(s.b(j), options.targets_name));
    }
    const Eigen::MatrixXd train_scores = ridge_scores(s, phi);
    fitted.fit_score = classify ? accuracy(predicted_labels(train_scores, labels), truth) : r2_score(train_scores, t);
    return fitted;
}

}  // namespace kfm::offline
