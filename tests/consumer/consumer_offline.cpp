// A C++ program built against the installed kfm package with kfm::offline, using only the installed
// headers: it does what the kfm tool does (build a map, write and read it back verified, map rows on
// several threads, evaluate it against the exact kernel, fit and score a model, write .npy files and a C
// header), so a declaration the tools need but the package does not install fails this build.
#include <kfm/offline.hpp>

#include <memory>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
    if (!ok) {
        std::fprintf(stderr, "offline consumer: %s\n", what.c_str());
        ++failures;
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT_DIRECTORY\n", argv[0]);
        return 2;
    }
    namespace off = kfm::offline;
    const std::string dir = argv[1];
    try {
        // Data: the documented synthetic set with its three-class target.
        const std::size_t rows = 300, d = 6;
        const std::vector<float> x = off::synthetic_rows(rows, d, 5);
        const std::vector<std::int64_t> labels = off::synthetic_labels(x.data(), rows, d);
        off::write_npy_f32(dir + "/x.npy", rows, d, x.data());
        const off::npy_array x_read = off::read_npy(dir + "/x.npy");
        check(x_read.rows == rows && x_read.cols == d && x_read.data == x, "x.npy does not read back as written");

        // Build a Gaussian map with the median-heuristic bandwidth, write it, read it back verified.
        off::build_options options;
        check(off::method_from_name("orf", &options.method), "no method named orf");
        options.kernel.kind = kfm::format::kernel::gaussian;
        options.kernel.sigma = off::median_heuristic_sigma(x.data(), rows, d);
        options.input_dim = unsigned(d);
        options.features = 128;
        options.seed = 3;
        off::write_map_file(dir + "/map.kfm", off::build_map(options));
        const off::map_file map = off::read_map_file(dir + "/map.kfm");
        const std::size_t D = map.view.output_dim();
        check(map.view.input_dim() == d && D >= 128, "the map read back has the wrong dimensions");

        // Rows on several threads, the same as one kfm::transform per row.
        std::vector<float> phi(rows * D), one(D);
        off::map_rows_parallel(map.view, x.data(), rows, d, phi.data(), 3);
        std::vector<unsigned char> workspace(kfm::workspace_bytes(map.view) + 64);
        void* ws = workspace.data();
        std::size_t space = workspace.size();
        std::align(64, kfm::workspace_bytes(map.view), ws, space);
        const kfm::status s =
            kfm::transform(map.view, x.data() + 7 * d, d, one.data(), D, ws, kfm::workspace_bytes(map.view));
        check(s == kfm::status::ok && std::vector<float>(phi.begin() + 7 * D, phi.begin() + 8 * D) == one,
              "map_rows_parallel differs from kfm::transform on row 7");
        off::write_npy_f32(dir + "/phi.npy", rows, D, phi.data());

        // Kernel-approximation error against the exact Gaussian kernel.
        const off::evaluation e = off::evaluate(map.view, x.data(), rows, unsigned(d), 100, 3, 1);
        check(e.rel_frobenius.mean > 0.0 && e.rel_frobenius.mean < 0.3,
              "relative Frobenius error " + std::to_string(e.rel_frobenius.mean) + " outside (0, 0.3)");

        // A standardised ridge classifier chosen by 3-fold CV, written as a model file and scored.
        off::map_contents model = off::map_part(map.storage.data(), map.size());
        off::add_preprocessing(model, off::learn_input_scaling(x.data(), rows, d, off::scaler::standard));
        off::fit_options fit;
        fit.task = off::fit_task::classification;
        fit.alphas = {0.01, 1.0};
        fit.folds = 3;
        const std::vector<double> y(labels.begin(), labels.end());
        const off::fitted_head head = off::fit_head(model, x.data(), rows, d, y.data(), 1, fit);
        off::add_head(model, head.head);
        off::write_map_file(dir + "/model.kfm", model);
        const off::map_file fitted = off::read_map_file(dir + "/model.kfm");
        const double accuracy = off::score_rows(fitted.view, x.data(), rows, d, y.data(), 1);
        check(fitted.view.class_count() == 3 && accuracy > 0.8,
              "the classifier's training accuracy is " + std::to_string(accuracy));
        const off::predictions p = off::predict_rows(fitted.view, x.data(), rows, d);
        check(off::score_predictions(fitted.view, p, rows, y.data(), 1) == accuracy,
              "score_predictions differs from score_rows");
        // An orf gaussian map keeps a feature away from 0 for every row: nothing vanishes, through either count.
        check(!off::features_can_vanish(fitted.view) &&
                  off::vanished_rows(fitted.view, x.data(), rows) == 0 &&
                  off::vanished_predictions(fitted.view, x.data(), p.scores.data(), rows) == 0,
              "rows of an orf gaussian model were counted as vanished");
        std::vector<std::int64_t> predicted(p.labels.begin(), p.labels.end());
        off::write_npy_i64_vector(dir + "/labels.npy", rows, predicted.data());

        // The model as a C header, written with the .npy of its scores: both or neither.
        off::output_files outputs;
        off::add_c_header(outputs, dir + "/model.h", fitted, "consumer_model");
        outputs.add(dir + "/scores.npy", off::encode_npy_f32(rows, 3, p.scores.data()));
        outputs.commit();
        const std::vector<std::uint8_t> header = off::read_regular_file(dir + "/model.h");
        const std::string text(header.begin(), header.end());
        check(text.find("#define CONSUMER_MODEL_WORKSPACE_BYTES " + std::to_string(kfm::workspace_bytes(fitted.view, 1)) + "u") !=
                  std::string::npos,
              "model.h lacks its workspace figure");
        check(!off::c_header_name_refusal("int").empty(), "a keyword was accepted as a header name");

        // The model described as kfm inspect --json describes it.
        const std::string description = off::describe_map_json(fitted, "model.kfm");
        check(description.rfind("{\"file\": \"model.kfm\", \"file_bytes\": " + std::to_string(fitted.size()) + ",", 0) == 0 &&
                  description.find("\"head\": {\"task\": \"multiclass\", \"outputs\": 3,") != std::string::npos,
              "the model's description is " + description);

        // The documented contract: impossible parameters are std::invalid_argument.
        bool refused = false;
        try {
            options.features = 0;
            off::build_map(options);
        } catch (const std::invalid_argument&) {
            refused = true;
        }
        check(refused, "build_map accepted 0 features");
        std::printf("offline consumer: %zu x %zu -> D = %zu, rel. Frobenius %.4f, %s alpha %g, accuracy %.3f\n", rows,
                    d, D, e.rel_frobenius.mean, head.dual ? "dual" : "primal", head.alpha, accuracy);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "offline consumer: %s\n", e.what());
        return 1;
    }
    return failures == 0 ? 0 : 1;
}
