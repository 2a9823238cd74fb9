// The model commands run as processes: fit (regression, binary, multiclass, CV, scaling), predict (label
// and score files equal kfm::predict in process), score, inspect and export, and their refusals (one
// error line, no output file).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cli/cli_harness.hpp"
#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/npy.hpp"

using namespace kfm_cli_test;

namespace {

// X (N x d) from kfm synth and targets written as float32 .npy files computed from X.
struct data_set {
    scratch dir;
    kfm::offline::npy_array x;
    data_set() {
        REQUIRE(dir.kfm("synth --rows 240 --dim 6 --seed 4 -o x.npy").exit_code == 0);
        REQUIRE(dir.kfm("build --method rff --kernel gaussian --sigma 1 --input-dim 6 --features 64 -o map.kfm")
                    .exit_code == 0);
        x = kfm::offline::read_npy(dir.path("x.npy"));
        std::vector<float> binary, multi, reg, two_col;
        for (std::size_t i = 0; i < x.rows; ++i) {
            const float* r = x.row(i);
            binary.push_back(r[0] + r[1] > 0 ? 5.0f : -1.0f);
            multi.push_back(r[0] > r[1] ? (r[0] > r[2] ? 0.0f : 2.0f) : (r[1] > r[2] ? 1.0f : 2.0f));
            reg.push_back(std::sin(2 * r[0]) + r[1] * r[1]);
            two_col.push_back(reg.back());
            two_col.push_back(r[2]);
        }
        kfm::offline::write_npy_f32_vector(dir.path("yb.npy"), x.rows, binary.data());
        kfm::offline::write_npy_f32_vector(dir.path("ym.npy"), x.rows, multi.data());
        kfm::offline::write_npy_f32_vector(dir.path("yr.npy"), x.rows, reg.data());
        kfm::offline::write_npy_f32(dir.path("yr2.npy"), x.rows, 2, two_col.data());
    }
};

double number_after(const std::string& text, const std::string& key) {
    const auto at = text.find(key);
    REQUIRE_MESSAGE(at != std::string::npos, key << " not in " << text);
    return std::strtod(text.c_str() + at + key.size(), nullptr);
}

// kfm::predict in process on every row of x.
void predict_in_process(const std::string& model_path, const kfm::offline::npy_array& x, std::vector<float>* scores,
                        std::vector<std::int32_t>* labels) {
    const std::vector<std::uint8_t> bytes = kfm::offline::read_regular_file(model_path);
    kfm::map m;
    REQUIRE(kfm::open(bytes.data(), bytes.size(), &m) == kfm::status::ok);
    const std::size_t k = m.head_outputs();
    std::vector<std::uint8_t> ws(kfm::workspace_bytes(m, 1));
    scores->assign(x.rows * k, 0.0f);
    labels->assign(x.rows, 0);
    for (std::size_t i = 0; i < x.rows; ++i)
        REQUIRE(kfm::predict(m, x.row(i), x.cols, scores->data() + i * k, k, labels->data() + i, ws.data(),
                             ws.size()) == kfm::status::ok);
}

}  // namespace

TEST_CASE("cli model: fit, predict, score, inspect and export for every task") {
    data_set d;
    const scratch& s = d.dir;

    // Binary with --standardize: labels are the user's (-1, 5), int64 (N,), equal to kfm::predict.
    auto r = s.kfm("fit map.kfm --x x.npy --y yb.npy --task classification --standardize -o mb.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    REQUIRE(s.kfm("predict mb.kfm --in x.npy --out pb.npy --scores sb.npy").exit_code == 0);
    CHECK(slurp(s.dir / "pb.npy").find("'descr': '<i8', 'fortran_order': False, 'shape': (240,)") != std::string::npos);
    const auto labels = kfm::offline::read_npy(s.path("pb.npy"));
    const auto scores = kfm::offline::read_npy(s.path("sb.npy"));
    std::vector<float> ref_scores;
    std::vector<std::int32_t> ref_labels;
    predict_in_process(s.path("mb.kfm"), d.x, &ref_scores, &ref_labels);
    REQUIRE(labels.data.size() == d.x.rows);
    std::size_t right = 0;
    const auto yb = kfm::offline::read_npy(s.path("yb.npy"));
    for (std::size_t i = 0; i < d.x.rows; ++i) {
        CHECK(labels.data[i] == float(ref_labels[i]));
        CHECK(scores.data[i] == ref_scores[i]);
        CHECK((labels.data[i] == -1.0f || labels.data[i] == 5.0f));
        right += labels.data[i] == yb.data[i] ? 1 : 0;
    }
    r = s.kfm("score mb.kfm --x x.npy --y yb.npy --json");
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("\"metric\": \"accuracy\"") != std::string::npos);
    CHECK(number_after(r.out, "\"value\": ") == doctest::Approx(double(right) / double(d.x.rows)));
    CHECK(number_after(r.out, "\"value\": ") > 0.85);
    r = s.kfm("inspect mb.kfm");
    CHECK(r.out.find("format 1.1") != std::string::npos);
    CHECK(r.out.find("preprocessing     shift/scale per input") != std::string::npos);
    CHECK(r.out.find("head              binary, 1 output(s) over 64 features, labels -1,5") != std::string::npos);

    // Multiclass with CV over alphas.
    r = s.kfm("fit map.kfm --x x.npy --y ym.npy --task classification --alpha 1e-3,1,1e6 --cv 4 -o mm.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out.find("3 classes") != std::string::npos);
    CHECK(r.out.find("alpha 1e6") == std::string::npos);  // the useless alpha is not chosen
    r = s.kfm("score mm.kfm --x x.npy --y ym.npy");
    REQUIRE(r.exit_code == 0);
    CHECK(number_after(r.out, "accuracy ") > 0.8);

    // Regression, one and two outputs, with --minmax; scores file shapes (N,) and (N, 2).
    REQUIRE(s.kfm("fit map.kfm --x x.npy --y yr.npy --task regression --minmax --alpha 0.1 -o mr.kfm").exit_code == 0);
    REQUIRE(s.kfm("predict mr.kfm --in x.npy --out pr.npy").exit_code == 0);
    CHECK(slurp(s.dir / "pr.npy").find("'descr': '<f4', 'fortran_order': False, 'shape': (240,)") != std::string::npos);
    r = s.kfm("score mr.kfm --x x.npy --y yr.npy");
    CHECK(number_after(r.out, "r2 ") > 0.9);
    REQUIRE(s.kfm("fit map.kfm --x x.npy --y yr2.npy --task regression -o mr2.kfm").exit_code == 0);
    REQUIRE(s.kfm("predict mr2.kfm --in x.npy --out pr2.npy").exit_code == 0);
    CHECK(slurp(s.dir / "pr2.npy").find("'shape': (240, 2)") != std::string::npos);
    predict_in_process(s.path("mr2.kfm"), d.x, &ref_scores, &ref_labels);
    CHECK(kfm::offline::read_npy(s.path("pr2.npy")).data == ref_scores);

    // The int8 head: the same fit stored as int8 weights with a scale per output (format 1.3), a smaller
    // file, predict equal to kfm::predict in process, labels close to the f32 model's.
    r = s.kfm("fit map.kfm --x x.npy --y ym.npy --task classification --alpha 1 --head-dtype int8 -o mq.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out.find("int8 head") != std::string::npos);
    REQUIRE(s.kfm("fit map.kfm --x x.npy --y ym.npy --task classification --alpha 1 -o mf.kfm").exit_code == 0);
    CHECK(slurp(s.dir / "mq.kfm").size() < slurp(s.dir / "mf.kfm").size());
    r = s.kfm("inspect mq.kfm");
    CHECK(r.out.find("format 1.3") != std::string::npos);
    CHECK(r.out.find("3 output(s) over 64 features, int8 weights") != std::string::npos);
    CHECK(r.out.find("HDI8") != std::string::npos);
    CHECK(s.kfm("inspect mq.kfm --json").out.find("\"weights\": \"int8\"") != std::string::npos);
    CHECK(s.kfm("inspect mf.kfm --json").out.find("\"weights\": \"f32\"") != std::string::npos);
    REQUIRE(s.kfm("predict mq.kfm --in x.npy --out pq.npy --scores sq.npy").exit_code == 0);
    REQUIRE(s.kfm("predict mf.kfm --in x.npy --out pf.npy").exit_code == 0);
    predict_in_process(s.path("mq.kfm"), d.x, &ref_scores, &ref_labels);
    CHECK(kfm::offline::read_npy(s.path("sq.npy")).data == ref_scores);
    const auto int8_labels = kfm::offline::read_npy(s.path("pq.npy")).data;
    const auto f32_labels = kfm::offline::read_npy(s.path("pf.npy")).data;
    std::size_t same = 0;
    for (std::size_t i = 0; i < d.x.rows; ++i) same += int8_labels[i] == f32_labels[i] ? 1 : 0;
    CHECK(same >= d.x.rows * 97 / 100);

    // Export: a header with the bytes and the macros.
    REQUIRE(s.kfm("export mm.kfm --c-header model.h --name my_model").exit_code == 0);
    const std::string h = slurp(s.dir / "model.h");
    const std::string bytes = slurp(s.dir / "mm.kfm");
    CHECK(h.find("#define MY_MODEL_INPUT_DIM 6u") != std::string::npos);
    CHECK(h.find("#define MY_MODEL_OUTPUT_COUNT 3u") != std::string::npos);
    CHECK(h.find("#define MY_MODEL_SIZE " + std::to_string(bytes.size()) + "u") != std::string::npos);
    CHECK(h.find("MY_MODEL_WORKSPACE_BYTES") != std::string::npos);
    CHECK(h.find("const unsigned char my_model[MY_MODEL_SIZE]") != std::string::npos);
    CHECK(h.find("_Alignas(8)") != std::string::npos);
    CHECK(std::count(h.begin(), h.end(), 'x') >= long(bytes.size()));  // one 0x.. per byte

    for (const char* c : {"fit", "predict", "score", "export"}) {
        r = s.kfm(std::string("help ") + c);
        CHECK(r.exit_code == 0);
        CHECK(r.out.find(std::string("usage: kfm ") + c) != std::string::npos);
    }
}

TEST_CASE("cli model: fit warns when the int8 head loses training score, naming the int8 weights") {
    data_set d;
    const scratch& s = d.dir;
    // A near-interpolating regression (tiny alpha): large cancelling weights whose int8 rounding costs R^2.
    auto r = s.kfm("fit map.kfm --x x.npy --y yr.npy --task regression --alpha 1e-6 --head-dtype int8 -o mq.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.err.find("warning: the model's int8 head weights lose accuracy") != std::string::npos);
    CHECK(r.err.find("--head-dtype f32 keeps the float32 weights") != std::string::npos);
    CHECK(fs::exists(s.dir / "mq.kfm"));
    r = s.kfm("fit map.kfm --x x.npy --y yr.npy --task regression --alpha 1e-6 -o mf.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.err.find("warning") == std::string::npos);
}

TEST_CASE("cli model: fit given a model says that it replaces the head and what becomes of the scaling") {
    data_set d;
    const scratch& s = d.dir;
    REQUIRE(s.kfm("fit map.kfm --x x.npy --y ym.npy --task classification --standardize -o scaled.kfm").exit_code == 0);
    REQUIRE(s.kfm("fit map.kfm --x x.npy --y yr.npy --task regression -o plain.kfm").exit_code == 0);
    // Before, each of these wrote the new model without a word about the head or the scaling it lost.
    auto r = s.kfm("fit scaled.kfm --x x.npy --y yr.npy --task regression -o a.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.err == "kfm fit: warning: scaled.kfm is a model, not a map: this fit replaced its head and dropped its input "
                   "scaling (--standardize or --minmax learns one)\n");
    CHECK(s.kfm("inspect a.kfm").out.find("preprocessing     none") != std::string::npos);
    r = s.kfm("fit scaled.kfm --x x.npy --y yr.npy --task regression --minmax -o b.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.err == "kfm fit: warning: scaled.kfm is a model, not a map: this fit replaced its head and its input scaling\n");
    r = s.kfm("fit plain.kfm --x x.npy --y ym.npy --task classification -o c.kfm");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.err == "kfm fit: warning: plain.kfm is a model, not a map: this fit replaced its head\n");
    // A failed fit on a model prints its one error line only.
    r = s.kfm("fit scaled.kfm --x x.npy --y yr.npy --task classification -o d.kfm");  // yr: not labels
    CHECK(r.exit_code != 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(!fs::exists(s.dir / "d.kfm"));
}

TEST_CASE("cli model: a scaler that would overflow the map names the column, not an unnamed open refusal") {
    data_set d;
    const scratch& s = d.dir;
    // Column 3 spans 1e-38: 1 / spread is about 1e38, so (x - shift) * scale overflows for |x| up to 2^20.
    kfm::offline::npy_array narrow = d.x;
    for (std::size_t i = 0; i < narrow.rows; ++i) narrow.data[i * narrow.cols + 3] = i % 2 == 0 ? 0.0f : 1e-38f;
    kfm::offline::write_npy_f32(s.path("narrow.npy"), narrow.rows, narrow.cols, narrow.data.data());
    for (const char* scaler : {"--minmax", "--standardize"}) {
        CAPTURE(scaler);
        const run_result r = s.kfm(std::string("fit map.kfm --x narrow.npy --y yr.npy --task regression -o n.kfm ") + scaler);
        check_error(r, std::string("narrow.npy: ") + scaler + " maps column 3 as (x - ");
        CHECK(r.err.find("(kfm's finite-output contract): drop or rescale that column") != std::string::npos);
        CHECK(!fs::exists(s.dir / "n.kfm"));
    }
    CHECK(s.kfm("fit map.kfm --x narrow.npy --y yr.npy --task regression -o n.kfm").exit_code == 0);  // unscaled: fine
}

TEST_CASE("cli model: kfm eval of a scaled model measures against the kernel of the scaled rows it maps") {
    data_set d;
    const scratch& s = d.dir;
    REQUIRE(s.kfm("fit map.kfm --x x.npy --y yr.npy --task regression --minmax -o scaled.kfm").exit_code == 0);
    // The rows as the model's PREP maps them, (x - shift) * scale in float.
    const kfm::offline::input_scaling scaling =
        kfm::offline::learn_input_scaling(d.x.data.data(), d.x.rows, d.x.cols, kfm::offline::scaler::min_max);
    std::vector<float> scaled = d.x.data;
    for (std::size_t i = 0; i < scaled.size(); ++i)
        scaled[i] = (scaled[i] - scaling.shift[i % d.x.cols]) * scaling.scale[i % d.x.cols];
    kfm::offline::write_npy_f32(s.path("xs.npy"), d.x.rows, d.x.cols, scaled.data());
    const run_result model = s.kfm("eval scaled.kfm --data x.npy --samples 100 --runs 3 --json");
    const run_result map = s.kfm("eval map.kfm --data xs.npy --samples 100 --runs 3 --json");
    REQUIRE_MESSAGE(model.exit_code == 0, model.err);
    REQUIRE_MESSAGE(map.exit_code == 0, map.err);
    // Before, the model's features of x' were compared with the kernel of the raw x, another kernel.
    const std::string key = "\"rel_frobenius\": {\"mean\": ";
    CHECK(number_after(model.out, key) == doctest::Approx(number_after(map.out, key)).epsilon(1e-9));
}

TEST_CASE("cli model: bad input gets one error line and writes nothing") {
    data_set d;
    const scratch& s = d.dir;
    std::vector<float> short_y(100, 1.0f), nan_y(240, 1.0f), one_class(240, 3.0f), fractional(240, 0.5f);
    nan_y[7] = std::nanf("");
    fractional[0] = 1.0f;
    kfm::offline::write_npy_f32_vector(s.path("short.npy"), short_y.size(), short_y.data());
    kfm::offline::write_npy_f32_vector(s.path("nan.npy"), nan_y.size(), nan_y.data());
    kfm::offline::write_npy_f32_vector(s.path("one.npy"), one_class.size(), one_class.data());
    kfm::offline::write_npy_f32_vector(s.path("frac.npy"), fractional.size(), fractional.data());
    REQUIRE(s.kfm("synth --rows 240 --dim 5 --seed 4 -o x5.npy").exit_code == 0);

    const std::string fit = "fit map.kfm --x x.npy --task classification -o out.kfm --y ";
    check_error(s.kfm(fit + "short.npy"), "100 targets for 240 input rows");
    check_error(s.kfm(fit + "nan.npy"), "row 7 is NaN");
    check_error(s.kfm(fit + "one.npy"), "at least two classes");
    check_error(s.kfm(fit + "frac.npy"), "is not an integer class label");
    check_error(s.kfm("fit map.kfm --x x5.npy --y yr.npy --task regression -o out.kfm"), "input_dim is 6");
    check_error(s.kfm("fit map.kfm --x x.npy --y yr2.npy --task classification -o out.kfm"), "one label per row");
    check_error(s.kfm("fit map.kfm --x x.npy --y yr.npy --task regression --alpha 1,2 -o out.kfm"), "need --cv");
    check_error(s.kfm("fit map.kfm --x x.npy --y yr.npy --task regression --alpha -1 -o out.kfm"), "positive");
    check_error(s.kfm("fit map.kfm --x x.npy --y yr.npy --task clustering -o out.kfm"), "--task must be");
    check_error(s.kfm("fit map.kfm --x x.npy --y yr.npy --task regression --standardize --minmax -o out.kfm"),
                "exclude each other");
    check_error(s.kfm("fit map.kfm --x x.npy --y yr.npy --task regression --head-dtype f16 -o out.kfm"),
                "--head-dtype must be f32 or int8");
    CHECK_FALSE(fs::exists(s.dir / "out.kfm"));

    check_error(s.kfm("predict map.kfm --in x.npy --out p.npy"), "no linear head");
    check_error(s.kfm("score map.kfm --x x.npy --y yr.npy"), "no linear head");
    CHECK_FALSE(fs::exists(s.dir / "p.npy"));
    REQUIRE(s.kfm("fit map.kfm --x x.npy --y yr.npy --task regression -o mr.kfm").exit_code == 0);
    check_error(s.kfm("predict mr.kfm --in x5.npy --out p.npy"), "input_dim is 6");
    check_error(s.kfm("score mr.kfm --x x.npy --y yr2.npy"), "2 target columns but the model has 1 outputs");
    check_error(s.kfm("export mr.kfm --c-header m.h --name 9lives"), "C identifier");
    CHECK_FALSE(fs::exists(s.dir / "p.npy"));
    CHECK_FALSE(fs::exists(s.dir / "m.h"));
}
