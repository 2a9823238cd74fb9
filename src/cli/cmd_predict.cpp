// `kfm predict`: a model file's predictions for every row of a .npy file: int64 labels (N,) for a
// classifier, float32 scores (N,) or (N, k) for regression; --scores also writes the scores.
#include "cli/model_data.hpp"
#include "cli/vanished_rows.hpp"

namespace kfm::cli {

int run_predict(const std::vector<std::string>& argv) {
    const arguments args("predict", argv, {{"--in", true}, {"--out", true}, {"--scores", true}}, 1);
    if (args.positional().empty()) usage_error("'kfm predict' needs a MODEL.kfm (see 'kfm help predict')");
    const std::string model_path = args.positional()[0];
    const std::string in_path = args.value("--in"), out_path = args.value("--out");
    const std::string scores_path = args.value_or("--scores", "");
    if (out_path.empty()) usage_error("--out needs a file name");
    if (args.has("--scores") && scores_path.empty()) usage_error("--scores needs a file name");
    refuse_overwriting_inputs("--out", out_path, {{"MODEL", model_path}, {"--in", in_path}});
    if (!scores_path.empty()) {
        refuse_overwriting_inputs("--scores", scores_path, {{"MODEL", model_path}, {"--in", in_path}});
        if (offline::same_destination(scores_path, out_path))
            usage_error("--scores " + scores_path + " is the same file as --out " + out_path +
                        " (each output needs a file of its own)");
    }

    const loaded_map model = load_map(model_path);
    require_head(model);
    const offline::npy_array x = read_inputs(in_path, model.view);
    const offline::predictions p = predict_rows(model, x, in_path);
    const std::size_t k = model.view.head_outputs();
    const auto scores = k == 1 ? offline::encode_npy_f32_vector(x.rows, p.scores.data())
                               : offline::encode_npy_f32(x.rows, k, p.scores.data());
    // Both outputs are complete before either replaces its target: an error leaves neither.
    offline::output_files outputs;
    if (p.labels.empty()) {
        outputs.add(out_path, scores);
    } else {
        const std::vector<std::int64_t> labels(p.labels.begin(), p.labels.end());
        outputs.add(out_path, offline::encode_npy_i64_vector(labels.size(), labels.data()));
    }
    if (!scores_path.empty()) outputs.add(scores_path, scores);
    outputs.commit();
    const std::size_t vanished = offline::vanished_predictions(model.view, x.data.data(), p.scores.data(), x.rows);
    warn_vanished_rows("predict", model.view, vanished, x.rows, in_path, ", and the model predicts its bias alone");
    return 0;
}

}  // namespace kfm::cli
