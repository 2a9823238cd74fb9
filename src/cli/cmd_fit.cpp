// `kfm fit`: ridge regression / one-vs-rest ridge classification on a map's features (exact, double
// precision, src/offline/fit/ridge.cpp), optional input scaling learned from X, written as a model file:
// the map's sections plus PREP, TASK, HEAD, BIAS (and LABL) through write_map_file.
#include <chrono>
#include <cmath>
#include <cstdio>

#include "cli/model_data.hpp"
#include "kfm/offline.hpp"
#include "offline/fit/model.hpp"
#include "offline/fit/ridge.hpp"

namespace kfm::cli {
namespace {

// StandardScaler (mean, 1 / population std) or MinMaxScaler to [0, 1] (min, 1 / range), per column;
// a constant column (or one whose inverse spread is not a finite float) keeps scale 1.
offline::input_scaling learn_scaling(const offline::npy_array& x, bool standardize) {
    offline::input_scaling s;
    for (std::size_t c = 0; c < x.cols; ++c) {
        double sum = 0.0, lo = x.data[c], hi = x.data[c];
        for (std::size_t r = 0; r < x.rows; ++r) {
            const double v = x.data[r * x.cols + c];
            sum += v;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        const double mean = sum / double(x.rows);
        double spread = hi - lo;
        if (standardize) {
            double ss = 0.0;
            for (std::size_t r = 0; r < x.rows; ++r) ss += std::pow(x.data[r * x.cols + c] - mean, 2);
            spread = std::sqrt(ss / double(x.rows));
        }
        const float inverse = static_cast<float>(1.0 / spread);
        s.shift.push_back(static_cast<float>(standardize ? mean : lo));
        s.scale.push_back(spread > 0.0 && std::isfinite(inverse) && inverse != 0.0f ? inverse : 1.0f);
    }
    return s;
}

// Phi of every row of X through the runtime (so training sees exactly the features predict will).
Eigen::MatrixXd features_of(const offline::map_contents& map, const offline::npy_array& x) {
    const std::vector<std::uint8_t> bytes = offline::serialize(map);
    kfm::map m;
    if (kfm::status s = kfm::open(bytes.data(), bytes.size(), &m); s != kfm::status::ok)
        throw cli_error(std::string("the map with its scaling does not open: ") + kfm::status_string(s));
    const std::size_t D = m.output_dim();
    std::vector<float> phi(x.rows * D);
    const aligned_buffer workspace(kfm::workspace_bytes(m, 64));
    const kfm::status s = kfm::transform_batch(m, x.data.data(), x.rows, x.cols, x.cols, phi.data(), D,
                                               workspace.data(), workspace.size());
    if (s != kfm::status::ok) throw cli_error(std::string("--x: ") + kfm::status_string(s));
    Eigen::MatrixXd out(Eigen::Index(x.rows), Eigen::Index(D));
    for (std::size_t r = 0; r < x.rows; ++r)
        for (std::size_t c = 0; c < D; ++c) out(Eigen::Index(r), Eigen::Index(c)) = phi[r * D + c];
    return out;
}

// How far the written model's training score (float32, as the runtime computes it) may fall below the
// double-precision fit's before kfm fit warns (docs/reliability.md, "Scores are the model's, against the
// targets as given").
constexpr double float32_score_tolerance = 1e-3;

// A head weight or bias as the float32 the model file stores; cli_error when it does not fit.
float to_head_float(double v, const std::string& y_path) {
    const float f = static_cast<float>(v);
    if (!std::isfinite(f))
        throw cli_error(y_path + ": the fitted head has a value (" + json_number(v) +
                        ") beyond float32, which the model file stores (targets too large)");
    return f;
}

// The score of the model `contents` as kfm::predict computes it on the rows of x, against y (score_rows).
double model_score(const offline::map_contents& contents, const offline::npy_array& x, const targets& y,
                   const std::string& x_path) {
    loaded_map model;
    model.path = "the fitted model";
    model.storage = offline::serialize(contents);
    if (kfm::status s = kfm::open(model.storage.data(), model.storage.size(), &model.view); s != kfm::status::ok)
        throw cli_error(std::string("the fitted model does not open: ") + kfm::status_string(s));
    return score_rows(model, x, y, x_path);
}

}  // namespace

int run_fit(const std::vector<std::string>& argv) {
    const arguments args("fit", argv,
                         {{"--x", true}, {"--y", true}, {"--task", true}, {"--alpha", true}, {"--cv", true},
                          {"--standardize", false}, {"--minmax", false}, {"--head-dtype", true}, {"-o", true},
                          {"--quiet", false}},
                         1);
    if (args.positional().empty()) usage_error("'kfm fit' needs a MAP.kfm (see 'kfm help fit')");
    const std::string map_path = args.positional()[0];
    const std::string x_path = args.value("--x"), y_path = args.value("--y"), out = args.value("-o");
    const std::string task = args.value("--task");
    if (task != "regression" && task != "classification")
        usage_error("--task must be regression or classification, not '" + task + "'");
    const bool classify = task == "classification";
    if (args.has("--standardize") && args.has("--minmax")) usage_error("--standardize and --minmax exclude each other");
    const std::string head_dtype = args.has("--head-dtype") ? args.value("--head-dtype") : "f32";
    if (head_dtype != "f32" && head_dtype != "int8") usage_error("--head-dtype must be f32 or int8, not '" + head_dtype + "'");
    std::vector<double> alphas = args.has("--alpha") ? args.reals("--alpha") : std::vector<double>{1.0};
    for (double a : alphas)
        if (!(a > 0.0)) usage_error("--alpha values must be positive");
    const unsigned folds = args.u32("--cv", 0);
    if (alphas.size() > 1 && folds == 0) usage_error("several --alpha values need --cv K to choose among them");
    if (args.has("--cv") && folds < 2) usage_error("--cv needs at least 2 folds");
    if (out.empty()) usage_error("-o needs a file name");
    refuse_overwriting_inputs("-o", out, {{"MAP", map_path}, {"--x", x_path}, {"--y", y_path}});

    const loaded_map file = load_map(map_path);
    offline::map_contents contents = offline::map_part(file.storage.data(), file.storage.size());
    const offline::npy_array x = read_inputs(x_path, file.view);
    if (x.rows < 2) throw cli_error(x_path + ": at least two rows are needed to fit");
    const targets y = read_targets(y_path, x.rows, classify);
    if (folds > x.rows) usage_error("--cv " + std::to_string(folds) + " exceeds the " + std::to_string(x.rows) + " rows");

    offline::input_scaling scaling;
    if (args.has("--standardize") || args.has("--minmax")) scaling = learn_scaling(x, args.has("--standardize"));
    offline::add_preprocessing(contents, scaling);

    // Progress on stderr when the solve is large enough to take a few seconds.
    const double n = double(x.rows), D = double(file.view.output_dim());
    const bool verbose = !args.has("--quiet") && n * D * std::min(n, D) * double(std::max(1u, folds) * alphas.size()) > 5e9;
    const auto start = std::chrono::steady_clock::now();
    auto progress = [&](const std::string& what) {
        if (!verbose) return;
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::fprintf(stderr, "kfm fit: %6.1f s  %s\n", s, what.c_str());
    };

    progress("features of " + std::to_string(x.rows) + " rows");
    const Eigen::MatrixXd phi = features_of(contents, x);
    std::vector<std::int32_t> labels;
    Eigen::MatrixXd t;
    std::vector<double> truth;
    try {
        if (classify) {
            truth = y.values;
            t = offline::class_targets(truth, &labels);
        } else {
            t = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
                y.values.data(), Eigen::Index(y.rows), Eigen::Index(y.cols));
        }
    } catch (const std::invalid_argument& e) {
        throw cli_error(y_path + ": " + e.what());
    }
    const std::uint32_t negative = file.view.negative_dim();

    double alpha = alphas[0];
    offline::cv_result cv;
    if (folds >= 2) {
        cv = offline::cross_validate(phi, t, truth, labels, alphas, folds, negative, progress);
        alpha = alphas[cv.best];
    }
    progress("solving with alpha " + json_number(alpha));
    const offline::ridge_solution s = offline::solve_ridge(phi, t, alpha, negative);

    offline::linear_head head;
    head.kind = !classify ? format::task_kind::regression
                          : (labels.size() == 2 ? format::task_kind::binary : format::task_kind::multiclass);
    head.outputs = static_cast<std::uint32_t>(s.w.cols());
    head.labels = labels;
    head.stored_as = head_dtype == "int8" ? offline::head_dtype::int8 : offline::head_dtype::f32;
    for (Eigen::Index j = 0; j < s.w.cols(); ++j) {
        for (Eigen::Index i = 0; i < s.w.rows(); ++i) head.weights.push_back(to_head_float(s.w(i, j), y_path));
        head.bias.push_back(to_head_float(s.b(j), y_path));
    }
    offline::add_head(contents, head);

    // The training score of the file as the runtime computes it (float32 scores) against y as given,
    // beside the double-precision fit's: what 'kfm score' will report, never a rounded one.
    const Eigen::MatrixXd train_scores = offline::ridge_scores(s, phi);
    const double fit_score = classify ? offline::accuracy(offline::predicted_labels(train_scores, labels), truth)
                                      : offline::r2_score(train_scores, t);
    const double train = model_score(contents, x, y, x_path);
    const bool int8 = head.stored_as == offline::head_dtype::int8;
    if (train < fit_score - float32_score_tolerance)
        std::fprintf(stderr,
                     "kfm fit: warning: the model's %s lose accuracy: training %s %s as kfm::predict "
                     "computes it, %s in double precision%s\n",
                     int8 ? "int8 head weights" : "float32 scores", classify ? "accuracy" : "R^2",
                     json_number(train).c_str(), json_number(fit_score).c_str(),
                     int8 ? " (--head-dtype f32 keeps the float32 weights)"
                          : (classify ? "" : " (targets with a large offset: subtract it from y before fitting)"));
    offline::write_map_file(out, contents);

    std::printf("%s: %s, %u output%s%s, %s head, alpha %s (%s), %s solve, training %s %s\n", out.c_str(),
                task.c_str(), head.outputs, head.outputs == 1 ? "" : "s",
                classify ? (", " + std::to_string(labels.size()) + " classes").c_str() : "", head_dtype.c_str(),
                json_number(alpha).c_str(),
                folds >= 2 ? (std::to_string(folds) + "-fold CV score " + json_number(cv.mean_scores[cv.best])).c_str()
                           : "given",
                s.dual ? "dual N x N" : "primal D x D", classify ? "accuracy" : "R^2", json_number(train).c_str());
    return 0;
}

}  // namespace kfm::cli
