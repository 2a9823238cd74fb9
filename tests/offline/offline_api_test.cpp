// The public offline API's contracts beyond what the kfm tool reaches (kfm/offline/*.hpp): opening map
// files and bytes, input scaling, fit_head's argument checks and its head against the ridge solver,
// predict_rows and score_rows against kfm::predict, the C header's name checks, and the synthetic data.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "kfm/offline.hpp"

namespace off = kfm::offline;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t rows = 120, d = 4;

off::map_contents small_map() {
    off::build_options o;
    o.method = kfm::format::method::rff;
    o.kernel.sigma = 1.0;
    o.input_dim = d;
    o.features = 32;
    o.seed = 9;
    return off::build_map(o);
}

// Labels 0/1/2 of the synthetic rows, as doubles.
std::vector<double> class_labels(const std::vector<float>& x) {
    const std::vector<std::int64_t> l = off::synthetic_labels(x.data(), rows, d);
    return std::vector<double>(l.begin(), l.end());
}

template <class Exception, class F>
std::string message_of(F&& f) {
    try {
        f();
    } catch (const Exception& e) {
        return e.what();
    }
    return "(nothing thrown)";
}

struct temp_dir {
    fs::path path = fs::temp_directory_path() / ("kfm_offline_api_test_" + std::to_string(::getpid()));
    temp_dir() { fs::create_directories(path); }
    ~temp_dir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

}  // namespace

TEST_CASE("offline API: read_map_file and open_map_bytes verify with kfm::open and name the file") {
    const temp_dir dir;
    const std::string path = (dir.path / "m.kfm").string();
    off::write_map_file(path, small_map());
    const off::map_file file = off::read_map_file(path);
    CHECK(file.path == path);
    CHECK(file.view.input_dim() == d);
    CHECK(file.size() == fs::file_size(path));

    std::vector<std::uint8_t> bytes = file.storage;
    const off::map_file copy = off::open_map_bytes(bytes.data(), bytes.size(), "copy");
    CHECK(copy.view.output_dim() == file.view.output_dim());
    bytes[bytes.size() / 2] ^= 1;  // a checksum now fails
    CHECK(message_of<std::invalid_argument>([&] { off::open_map_bytes(bytes.data(), bytes.size(), "x"); })
              .rfind("not a valid .kfm file: ", 0) == 0);
    CHECK(message_of<std::runtime_error>([&] { off::read_map_file((dir.path / "none.kfm").string()); })
              .rfind((dir.path / "none.kfm").string() + ": ", 0) == 0);
    CHECK(message_of<std::runtime_error>([&] { off::read_map_file(dir.path.string()); }).find("is a directory") !=
          std::string::npos);
}

TEST_CASE("offline API: learn_input_scaling standardises, min-max scales and keeps constant columns") {
    const std::vector<float> x = {1, 5, 3, 5, 5, 5};  // 3 rows x 2 columns; the second is constant
    const off::input_scaling standard = off::learn_input_scaling(x.data(), 3, 2, off::scaler::standard);
    CHECK(standard.shift[0] == doctest::Approx(3.0));
    CHECK(standard.scale[0] == doctest::Approx(1.0 / std::sqrt(8.0 / 3.0)));
    CHECK(standard.shift[1] == 5.0f);
    CHECK(standard.scale[1] == 1.0f);
    const off::input_scaling min_max = off::learn_input_scaling(x.data(), 3, 2, off::scaler::min_max);
    CHECK(min_max.shift[0] == 1.0f);
    CHECK(min_max.scale[0] == 0.25f);
    CHECK(min_max.scale[1] == 1.0f);
    CHECK_THROWS_AS(off::learn_input_scaling(x.data(), 0, 2, off::scaler::standard), std::invalid_argument);
}

TEST_CASE("offline API: fit_head's classifier predicts as score_rows and predict_rows report") {
    const std::vector<float> x = off::synthetic_rows(rows, d, 2);
    const std::vector<double> y = class_labels(x);
    off::map_contents model = small_map();
    off::fit_options options;
    options.task = off::fit_task::classification;
    options.alphas = {10.0, 0.01};
    options.folds = 3;
    std::vector<std::string> stages;
    options.progress = [&](const std::string& s) { stages.push_back(s); };
    const off::fitted_head fit = off::fit_head(model, x.data(), rows, d, y.data(), 1, options);
    CHECK(fit.cv_scores.size() == 2);
    CHECK(fit.alpha == options.alphas[fit.best]);
    CHECK(fit.head.kind == kfm::format::task_kind::multiclass);
    CHECK(fit.head.labels == std::vector<std::int32_t>{0, 1, 2});
    CHECK(fit.head.weights.size() == 3 * 32);
    REQUIRE(stages.size() == 1 + 3 * 2 + 1);  // features, each fold and alpha, the final solve
    CHECK(stages.front() == "features of 120 rows");
    CHECK(stages.back() == "solving with alpha " + std::string(fit.alpha == 10.0 ? "10" : "0.01"));

    off::add_head(model, fit.head);
    const std::vector<std::uint8_t> bytes = off::serialize_verified(model);
    const off::map_file file = off::open_map_bytes(bytes.data(), bytes.size(), "model");
    const off::predictions p = off::predict_rows(file.view, x.data(), rows, d);
    REQUIRE(p.labels.size() == rows);
    std::size_t correct = 0;
    for (std::size_t i = 0; i < rows; ++i) correct += p.labels[i] == y[i];
    const double accuracy = off::score_rows(file.view, x.data(), rows, d, y.data(), 1);
    CHECK(accuracy == double(correct) / rows);
    CHECK(std::fabs(accuracy - fit.fit_score) <= 0.05);  // float32 scores against the double-precision fit
    CHECK(off::score_predictions(file.view, p, rows, y.data(), 1) == accuracy);  // the same score, predicted once
    CHECK_THROWS_AS(off::score_predictions(file.view, p, rows - 1, y.data(), 1), std::invalid_argument);
    std::vector<double> fractional = y;
    fractional[7] = 0.5;  // no class label: refused by row, as fit_head refuses it
    CHECK(message_of<std::invalid_argument>([&] { off::score_rows(file.view, x.data(), rows, d, fractional.data(), 1); }) ==
          "y: value 0.5 at row 7 is not an integer class label");

    CHECK_THROWS_AS(off::score_rows(file.view, x.data(), 0, d, y.data(), 1), std::invalid_argument);
    CHECK_THROWS_AS(off::score_rows(file.view, x.data(), rows, d, y.data(), 2), std::invalid_argument);
    // A wrong row length: the runtime refuses the first block, named by its rows.
    CHECK(message_of<std::runtime_error>([&] { off::predict_rows(file.view, x.data(), 10, d + 1); }) ==
          "rows 0..9: " + std::string(kfm::status_string(kfm::status::wrong_dimension)));
}

TEST_CASE("offline API: fit_head refuses impossible options and names the targets") {
    const std::vector<float> x = off::synthetic_rows(rows, d, 2);
    const std::vector<double> y = class_labels(x);
    const off::map_contents model = small_map();
    off::fit_options o;
    o.targets_name = "labels.npy";
    const auto refused = [&](const off::fit_options& options, std::size_t n, std::size_t y_cols) {
        return message_of<std::invalid_argument>(
            [&] { off::fit_head(model, x.data(), n, d, y.data(), y_cols, options); });
    };
    CHECK(refused(o, 1, 1) == "fit: at least two rows are needed");
    CHECK(refused(o, rows, 0) == "labels.npy: no target columns");
    off::fit_options bad = o;
    bad.alphas = {};
    CHECK(refused(bad, rows, 1) == "fit: no alpha given");
    bad.alphas = {1.0, -1.0};
    CHECK(refused(bad, rows, 1) == "fit: alphas must be positive and finite");
    bad.alphas = {1.0, 2.0};
    CHECK(refused(bad, rows, 1) == "fit: several alphas need cross-validation folds to choose among them");
    bad.folds = 1;
    CHECK(refused(bad, rows, 1) == "fit: cross-validation needs at least 2 folds");
    bad = o;
    bad.task = off::fit_task::classification;
    CHECK(refused(bad, rows, 2) == "labels.npy: classification needs one label per row, not 2");
    std::vector<double> one_class(rows, 4.0);
    CHECK(message_of<std::invalid_argument>([&] {
              off::fit_head(model, x.data(), rows, d, one_class.data(), 1, bad);
          }).rfind("labels.npy: y: classification needs at least two classes", 0) == 0);
    // Regression targets so large that the head does not fit in float32.
    std::vector<double> huge(rows);
    for (std::size_t i = 0; i < rows; ++i) huge[i] = 1e300 * x[i * d];
    CHECK(message_of<std::invalid_argument>([&] { off::fit_head(model, x.data(), rows, d, huge.data(), 1, o); })
              .find("labels.npy: the fitted head has a value (") == 0);
}

TEST_CASE("offline API: a map without a head is refused by predict_rows and score_rows") {
    const std::vector<std::uint8_t> bytes = off::serialize_verified(small_map());
    const off::map_file file = off::open_map_bytes(bytes.data(), bytes.size(), "map");
    const std::vector<float> x(d, 0.5f);
    const double y = 1.0;
    CHECK_THROWS_AS(off::predict_rows(file.view, x.data(), 1, d), std::invalid_argument);
    CHECK_THROWS_AS(off::score_rows(file.view, x.data(), 1, d, &y, 1), std::invalid_argument);
}

TEST_CASE("offline API: add_c_header refuses a bad name or no file and stages nothing") {
    const temp_dir dir;
    const std::vector<std::uint8_t> bytes = off::serialize_verified(small_map());
    const off::map_file file = off::open_map_bytes(bytes.data(), bytes.size(), "map");
    CHECK(off::c_header_name_refusal("my_map").empty());
    CHECK(off::c_header_name_refusal("kfm_open") == "kfm.h declares it");
    const std::string out = (dir.path / "m.h").string();
    {
        off::output_files output;
        CHECK(message_of<std::invalid_argument>([&] { off::add_c_header(output, out, file, "while"); }) ==
              "'while' cannot name the header's array: it is a C or C++ keyword");
        CHECK_THROWS_AS(off::add_c_header(output, "", file, "my_map"), std::invalid_argument);
        output.commit();
    }
    CHECK(!fs::exists(out));
    off::output_files output;
    off::add_c_header(output, out, file, "my_map");
    output.commit();
    const std::vector<std::uint8_t> text = off::read_regular_file(out);
    const std::string workspace = std::to_string(kfm::workspace_bytes(file.view, 1)) + "u\n";
    CHECK(std::string(text.begin(), text.end()).find("#define MY_MAP_WORKSPACE_BYTES " + workspace) != std::string::npos);
    CHECK(std::string(text.begin(), text.end()).find("#define MY_MAP_FIRMWARE_WORKSPACE_BYTES " + workspace) !=
          std::string::npos);
    CHECK(std::string(text.begin(), text.end()).find("#define MY_MAP_SIZE " + std::to_string(bytes.size()) + "u") !=
          std::string::npos);
}

TEST_CASE("offline API: describe_map_json and describe_map_text report a file's method option, head and sections") {
    off::build_options options;
    options.method = kfm::format::method::gq;
    options.input_dim = 3;
    options.features = 64;
    options.gq_nodes = 3;
    const std::vector<std::uint8_t> bytes = off::serialize_verified(off::build_map(options));
    const off::map_file file = off::open_map_bytes(bytes.data(), bytes.size(), "map");
    const std::string json = off::describe_map_json(file, "gq \"3\".kfm");
    CHECK(json.rfind("{\"file\": \"gq \\\"3\\\".kfm\", \"file_bytes\": " + std::to_string(bytes.size()) + ", ", 0) == 0);
    CHECK(json.find(", \"method\": \"gq\", \"gq_nodes\": 3, \"kernel\": \"gaussian\", \"kernel_params\": {\"sigma\": 1}, ") !=
          std::string::npos);
    CHECK(json.find(", \"preprocessing\": null, \"head\": null, \"segments\": [{") != std::string::npos);
    CHECK(json.find("{\"tag\": \"META\", \"dtype\": \"record\", \"count\": 1, ") != std::string::npos);
    CHECK(json.back() == '}');
    const std::string text = off::describe_map_text(file, "gq.kfm");
    CHECK(text.rfind("file              gq.kfm (" + std::to_string(bytes.size()) + " bytes, format 1.", 0) == 0);
    CHECK(text.find("\nmethod            gq (3 ") != std::string::npos);
    CHECK(text.find("\nhead              none (a map: 'kfm fit' adds one)\n") != std::string::npos);
    CHECK(text.back() == '\n');
    // A map_file whose map is not open is refused, not read.
    const off::map_file empty;
    CHECK(message_of<std::invalid_argument>([&] { off::describe_map_json(empty, "x"); }) == "the map is not open");
    CHECK_THROWS_AS(off::describe_map_text(empty, "x"), std::invalid_argument);
    CHECK_THROWS_AS(off::kernel_spec_from_map(empty.view), std::invalid_argument);
}

TEST_CASE("offline API: synthetic data is deterministic and labels the largest of the first three values") {
    const std::vector<float> a = off::synthetic_rows(50, 5, 7), b = off::synthetic_rows(50, 5, 7);
    CHECK(a == b);
    CHECK(a != off::synthetic_rows(50, 5, 8));
    const std::vector<std::int64_t> labels = off::synthetic_labels(a.data(), 50, 5);
    for (std::size_t i = 0; i < 50; ++i) {
        const float* r = a.data() + i * 5;
        const std::int64_t best = r[1] > r[0] ? (r[2] > r[1] ? 2 : 1) : (r[2] > r[0] ? 2 : 0);
        CHECK(labels[i] == best);
    }
    const std::vector<float> u = off::uniform_values(1000, 12345);
    for (float v : u) CHECK((v >= -1.0f && v <= 1.0f));
}
