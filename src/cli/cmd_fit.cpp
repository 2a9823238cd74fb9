// `kfm fit`: ridge regression / one-vs-rest ridge classification on a map's features (exact, double
// precision: offline::fit_head), optional input scaling learned from X, written as a model file: the
// map's sections plus PREP, TASK, HEAD, BIAS (and LABL) through write_map_file.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "cli/model_data.hpp"
#include "kfm/offline.hpp"

namespace kfm::cli {
namespace {

// How far the written model's training score (float32, as the runtime computes it) may fall below the
// double-precision fit's before kfm fit warns (docs/reliability.md, "Scores are the model's, against the
// targets as given").
constexpr double float32_score_tolerance = 1e-3;

// The score of the model `contents` as kfm::predict computes it on the rows of x, against y.
double model_score(const offline::map_contents& contents, const offline::npy_array& x, const targets& y,
                   const std::string& x_path, const std::string& y_path) {
    const std::vector<std::uint8_t> bytes = offline::serialize(contents);
    const loaded_map model = offline::open_map_bytes(bytes.data(), bytes.size(), "the fitted model");
    return score_predictions(model, predict_rows(model, x, x_path), y, y_path);
}

// A column spread so narrowly (1e-38) that the scaler's 1 / spread lets the map overflow an input within the
// finite-output bound (|x_i| <= 2^20): kfm::open refuses the scaled map, so name the column (the largest
// (2^20 + |shift|) |scale|, as the bound sees it) and the scaler.
void refuse_unbounded_scaling(const offline::map_contents& contents, const offline::input_scaling& scaling,
                              const std::string& x_path, const std::string& scaler) {
    const std::vector<std::uint8_t> bytes = offline::serialize(contents);
    kfm::map opened;
    if (kfm::open(bytes.data(), bytes.size(), &opened) != kfm::status::value_too_large) return;
    const auto reach = [&](std::size_t i) {
        return (double(format::max_input_abs) + std::fabs(double(scaling.shift[i]))) * std::fabs(double(scaling.scale[i]));
    };
    std::size_t worst = 0;
    for (std::size_t i = 1; i < scaling.scale.size(); ++i)
        if (reach(i) > reach(worst)) worst = i;
    throw cli_error(x_path + ": " + scaler + " maps column " + std::to_string(worst) + " as (x - " +
                    json_number(scaling.shift[worst]) + ") * " + json_number(scaling.scale[worst]) +
                    ", and the map would give Inf or NaN for inputs within |x_i| <= " +
                    std::to_string(format::max_input_abs) +
                    " (kfm's finite-output contract): drop or rescale that column");
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
    // A model given as the map: the new fit replaces its head, and its input scaling unless that is the
    // map's own (maclaurin-opt's centring, which map_part keeps). Said once the new model is written.
    std::string replaced;
    if (file.view.task() != format::task_kind::none) {
        const bool scaling_dropped =
            file.view.has_preprocessing() &&
            std::none_of(contents.sections.begin(), contents.sections.end(),
                         [](const offline::section& s) { return s.tag == format::tag::preprocess; });
        const bool rescaled = args.has("--standardize") || args.has("--minmax");
        replaced = "kfm fit: warning: " + map_path + " is a model, not a map: this fit replaced its head" +
                   (!scaling_dropped ? ""
                    : rescaled       ? " and its input scaling"
                                     : " and dropped its input scaling (--standardize or --minmax learns one)");
    }
    const offline::npy_array x = read_inputs(x_path, file.view);
    if (x.rows < 2) throw cli_error(x_path + ": at least two rows are needed to fit");
    const targets y = read_targets(y_path, x.rows, classify);
    if (folds > x.rows) usage_error("--cv " + std::to_string(folds) + " exceeds the " + std::to_string(x.rows) + " rows");

    if (args.has("--standardize") || args.has("--minmax")) {
        const std::string scaler = args.has("--standardize") ? "--standardize" : "--minmax";
        const offline::input_scaling scaling = offline::learn_input_scaling(
            x.data.data(), x.rows, x.cols, args.has("--standardize") ? offline::scaler::standard : offline::scaler::min_max);
        offline::add_preprocessing(contents, scaling);
        refuse_unbounded_scaling(contents, scaling, x_path, scaler);
    }

    // Progress on stderr when the solve is large enough to take a few seconds.
    const double n = double(x.rows), D = double(file.view.output_dim());
    const bool verbose = !args.has("--quiet") && n * D * std::min(n, D) * double(std::max(1u, folds) * alphas.size()) > 5e9;
    const auto start = std::chrono::steady_clock::now();
    offline::fit_options options;
    options.task = classify ? offline::fit_task::classification : offline::fit_task::regression;
    options.alphas = alphas;
    options.folds = folds;
    options.stored_as = head_dtype == "int8" ? offline::head_dtype::int8 : offline::head_dtype::f32;
    options.targets_name = y_path;
    if (verbose)
        options.progress = [&](const std::string& what) {
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::fprintf(stderr, "kfm fit: %6.1f s  %s\n", s, what.c_str());
        };
    const offline::fitted_head fit = offline::fit_head(contents, x.data.data(), x.rows, x.cols, y.values.data(),
                                                       y.cols, options);
    const offline::linear_head& head = fit.head;
    offline::add_head(contents, head);

    // The training score of the file as the runtime computes it (float32 scores) against y as given,
    // beside the double-precision fit's: what 'kfm score' will report, never a rounded one.
    const double train = model_score(contents, x, y, x_path, y_path);
    const bool int8 = head.stored_as == offline::head_dtype::int8;
    if (train < fit.fit_score - float32_score_tolerance)
        std::fprintf(stderr,
                     "kfm fit: warning: the model's %s lose accuracy: training %s %s as kfm::predict "
                     "computes it, %s in double precision%s\n",
                     int8 ? "int8 head weights" : "float32 scores", classify ? "accuracy" : "R^2",
                     json_number(train).c_str(), json_number(fit.fit_score).c_str(),
                     int8 ? " (--head-dtype f32 keeps the float32 weights)"
                          : (classify ? "" : " (targets with a large offset: subtract it from y before fitting)"));
    offline::write_map_file(out, contents);
    if (!replaced.empty()) std::fprintf(stderr, "%s\n", replaced.c_str());

    std::printf("%s: %s, %u output%s%s, %s head, alpha %s (%s), %s solve, training %s %s\n", out.c_str(),
                task.c_str(), head.outputs, head.outputs == 1 ? "" : "s",
                classify ? (", " + std::to_string(head.labels.size()) + " classes").c_str() : "", head_dtype.c_str(),
                json_number(fit.alpha).c_str(),
                folds >= 2 ? (std::to_string(folds) + "-fold CV score " + json_number(fit.cv_scores[fit.best])).c_str()
                           : "given",
                fit.dual ? "dual N x N" : "primal D x D", classify ? "accuracy" : "R^2", json_number(train).c_str());
    return 0;
}

}  // namespace kfm::cli
