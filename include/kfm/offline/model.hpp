// Models on the offline side: the map part of an existing .kfm file, the model sections (PREP input
// scaling, TASK/HEAD/BIAS linear head, LABL class labels) appended to it, fitting that head by ridge
// regression or one-vs-rest ridge classification (exact, double precision), and a model's predictions
// and score as the runtime computes them. What `kfm fit`, `kfm predict` and `kfm score` do.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"

namespace kfm::offline {

// x' = (x - shift) * scale per input; both empty: no pre-processing.
struct input_scaling {
    std::vector<float> shift;
    std::vector<float> scale;
};

// How HEAD's weights are stored: float32 (HEAD), or int8 with one float32 scale per output (HDI8 and
// HSCL, format minor 3: a quarter of the bytes).
enum class head_dtype { f32, int8 };

// scores = weights phi + bias over the map's D features.
struct linear_head {
    format::task_kind kind = format::task_kind::regression;
    std::uint32_t outputs = 0;          // k
    std::vector<float> weights;         // k x D, row-major
    std::vector<float> bias;            // k
    std::vector<std::int32_t> labels;   // classifiers: the class labels, strictly increasing
    head_dtype stored_as = head_dtype::f32;
    // Classifiers: the type a host gives labels back in (LTYP, written when not i32); every label must fit it.
    format::label_type label_type = format::label_type::i32;
};

// The LTYP of an opened model: the type its labels were trained in (i32 when the file does not say).
format::label_type label_type_of(const kfm::map& map);
// NumPy's name of a label type ("int8" ... "uint64"), and back: nullptr / false for anything else.
const char* label_type_name(format::label_type type) noexcept;
bool label_type_from_name(const std::string& name, format::label_type* type) noexcept;

// The int8 form of a k x D head: per output j, scale_j = max_i |w_ji| / 127 (1 for an all-zero row, or one
// whose scale underflows float) and q_ji = round(w_ji / scale_j), so every weight is within scale_j / 2.
struct int8_head {
    std::vector<std::int8_t> weights;  // k x D
    std::vector<float> scales;         // k
};
// Throws std::invalid_argument when weights is not outputs x D.
int8_head quantize_head(const std::vector<float>& weights, std::uint32_t outputs);

// Whether `tag` is one of the model sections (PREP, TASK, HEAD, HDI8, HSCL, BIAS, LABL, LTYP).
bool is_model_section(std::uint32_t tag) noexcept;

// The map of a file kfm::open accepted (META and every section in file order), with its model sections
// dropped, so that a new model can be added to it. A map with the gaussian prefactor (maclaurin-opt) keeps
// its PREP: the centring fitted at build is part of the map. Throws std::invalid_argument for bytes too short for
// a file or a section outside them (give it verified bytes: map_file::storage).
map_contents map_part(const std::uint8_t* bytes, std::size_t size);

// Appends PREP (when `scaling` is not empty: input_dim shifts then scales). Throws std::invalid_argument
// unless shift and scale hold input_dim values each, or when the map already carries a PREP of its own.
void add_preprocessing(map_contents& map, const input_scaling& scaling);

// Appends TASK, HEAD (or HDI8 and HSCL, head.stored_as), BIAS and (classifiers) LABL. The sections are
// checked when the map is serialised (serialize_verified, write_map_file: std::invalid_argument with
// kfm::open's status for a head that does not match the map).
void add_head(map_contents& map, const linear_head& head);

// ---- fitting

// Input scaling learned per column of x (rows x cols, row-major): standard is scikit-learn's
// StandardScaler (shift the mean, scale 1 / population standard deviation), min_max its MinMaxScaler to
// [0, 1] (shift the minimum, scale 1 / range). A constant column, or one whose inverse spread is not a
// finite nonzero float, keeps scale 1. Throws std::invalid_argument for rows = 0.
enum class scaler { standard, min_max };
input_scaling learn_input_scaling(const float* x, std::size_t rows, std::size_t cols, scaler kind);

enum class fit_task { regression, classification };

struct fit_options {
    fit_task task = fit_task::regression;
    std::vector<double> alphas{1.0};  // ridge penalties (> 0); with folds >= 2 the best is chosen
    unsigned folds = 0;               // K-fold cross-validation over alphas (contiguous folds); 0: none
    head_dtype stored_as = head_dtype::f32;
    std::string targets_name = "y";   // names the targets in error messages (e.g. the file they came from)
    std::function<void(const std::string&)> progress;  // told each stage of a long fit (may be empty)
};

struct fitted_head {
    linear_head head;                // for add_head: k x D float32 weights, bias, labels (classifiers)
    double alpha = 0.0;              // the alpha the head was solved with
    std::vector<double> cv_scores;   // per alpha, the mean fold accuracy or R^2 (empty without folds)
    std::size_t best = 0;            // index of `alpha` in options.alphas
    bool dual = false;               // solved as the N x N dual system (D > N) instead of the D x D primal
    double fit_score = 0.0;          // training accuracy or R^2 of the double-precision solution
};

// Fits a linear head on phi(x), phi being `model` as it stands (its map and any PREP, no head) run
// through the runtime, so the fit sees exactly the features kfm::predict will. x: rows x cols float32
// (cols = the map's input_dim, finite); y: rows x y_cols targets, row-major (classification: one column
// of integer labels, at least two distinct, up to int32). For a signed map the fit is the ridge of the
// indefinite kernel (docs/reliability.md). Throws std::invalid_argument: "<targets_name>: ..." for
// unusable targets or a fitted value beyond float32 (targets too large for the stored head); for fewer
// than two rows, y_cols = 0, no alpha, an alpha <= 0, several alphas without folds, folds of 1 or beyond
// rows; "ridge: the system is singular ..." when no solution exists for the alpha; and when `model` does
// not open or the runtime refuses x.
fitted_head fit_head(const map_contents& model, const float* x, std::size_t rows, std::size_t cols,
                     const double* y, std::size_t y_cols, const fit_options& options);

// ---- predicting and scoring with a model

// kfm::predict_batch over every row of x (rows x cols, row-major): scores rows x head_outputs, and the
// predicted labels for a classifier (empty for regression). Throws std::invalid_argument when the map
// has no head, std::runtime_error "rows a..b: <status>" when the runtime refuses a block (a wrong
// dimension, a non-finite value).
struct predictions {
    std::vector<float> scores;
    std::vector<std::int32_t> labels;
};
predictions predict_rows(const kfm::map& model, const float* x, std::size_t rows, std::size_t cols);

// The score of predict_rows against y (rows x y_cols, row-major), computed in double: accuracy for a
// classifier (y_cols = 1), R^2 averaged uniformly over the outputs for regression (scikit-learn's
// r2_score; a constant column scores 1 when predicted exactly, else 0). Throws std::invalid_argument for
// rows = 0, no head, a y_cols other than the model's outputs (1 for a classifier) or a classifier's label
// that is not an integer within int32 ("y: value 0.5 at row 3 is not an integer class label", as
// fit_head), and what predict_rows throws.
double score_rows(const kfm::map& model, const float* x, std::size_t rows, std::size_t cols, const double* y,
                  std::size_t y_cols);
// The same score of predictions p already made by predict_rows for `rows` rows (a caller that also needs
// them predicts once). Throws as score_rows, and std::invalid_argument when p is not of that size.
double score_predictions(const kfm::map& model, const predictions& p, std::size_t rows, const double* y,
                         std::size_t y_cols);

}  // namespace kfm::offline
