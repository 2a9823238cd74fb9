// `kfm score`: accuracy (classifiers) or R^2 (regression, averaged over outputs) of a model file's
// predictions against y, as text or JSON.
#include <cstdio>

#include "cli/model_data.hpp"
#include "cli/vanished_rows.hpp"

namespace kfm::cli {

int run_score(const std::vector<std::string>& argv) {
    const arguments args("score", argv, {{"--x", true}, {"--y", true}, {"--json", false}}, 1);
    if (args.positional().empty()) usage_error("'kfm score' needs a MODEL.kfm (see 'kfm help score')");
    const loaded_map model = load_map(args.positional()[0]);
    require_head(model);
    const std::string x_path = args.value("--x"), y_path = args.value("--y");
    const offline::npy_array x = read_inputs(x_path, model.view);
    const bool classify = model.view.task() != format::task_kind::regression;
    const targets y = read_targets(y_path, x.rows, classify);
    const std::size_t k = model.view.head_outputs();
    if (!classify && y.cols != k)
        throw cli_error(y_path + ": " + std::to_string(y.cols) + " target columns but the model has " +
                        std::to_string(k) + " outputs");
    if (x.rows == 0) throw cli_error(x_path + ": no rows to score (the file holds 0 rows)");
    const offline::predictions p = predict_rows(model, x, x_path);
    const double score = score_predictions(model, p, y, y_path);
    const std::size_t vanished = offline::vanished_predictions(model.view, x.data.data(), p.scores.data(), x.rows);
    warn_vanished_rows("score", model.view, vanished, x.rows, x_path, ", and the model predicts its bias alone");
    const char* metric = classify ? "accuracy" : "r2";
    if (args.has("--json")) {
        std::printf("{\"metric\": \"%s\", \"value\": %s, \"rows\": %zu}\n", metric, json_number(score).c_str(), x.rows);
    } else {
        std::printf("%s %s (%zu rows)\n", metric, json_number(score).c_str(), x.rows);
    }
    return 0;
}

}  // namespace kfm::cli
