// predict and predict_batch against transform + a dot product in double, on every ISA this host runs
// (AArch64/ARMv7 under qemu in CI), for hand-built maps and a map of every method and projection kind;
// PREP applied by transform; the label rules; every error status with nothing written; the C twins.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "common/builder_configs.hpp"
#include "common/test_models.hpp"
#include "kfm/kfm.h"

namespace fmt = kfm::format;
using kfm::status;
using namespace kfm::test;

namespace {

constexpr kfm::isa all_isas[] = {kfm::isa::scalar, kfm::isa::avx2, kfm::isa::avx512, kfm::isa::neon64,
                                 kfm::isa::neon32, kfm::isa::mve};

struct reference {
    std::vector<double> scores;
    double magnitude = 0.0;  // sum |b| + sum |w phi|: the rounding scale of the scores
};

// transform on the same map, then b + W phi in double from the head the file was built with (an int8
// head dequantised, applied_weights).
reference transform_and_dot(const kfm::map& m, const kfm::offline::linear_head& head, const float* x) {
    const std::size_t D = m.output_dim();
    const std::vector<double> weights = applied_weights(head);
    std::vector<std::uint8_t> ws(kfm::workspace_bytes(m, 1));
    std::vector<float> phi(D);
    REQUIRE(kfm::transform(m, x, m.input_dim(), phi.data(), D, ws.data(), ws.size()) == status::ok);
    reference r;
    for (std::uint32_t j = 0; j < head.outputs; ++j) {
        double s = head.bias[j];
        r.magnitude += std::fabs(s);
        for (std::size_t i = 0; i < D; ++i) {
            const double t = weights[j * D + i] * double(phi[i]);
            s += t;
            r.magnitude += std::fabs(t);
        }
        r.scores.push_back(s);
    }
    return r;
}

std::int32_t label_of(const std::vector<double>& s, const kfm::offline::linear_head& head) {
    if (head.kind == fmt::task_kind::binary) return head.labels[s[0] > 0.0 ? 1 : 0];
    std::size_t best = 0;
    for (std::size_t j = 1; j < s.size(); ++j)
        if (s[j] > s[best]) best = j;
    return head.labels[best];
}

// predict on rows of test vectors equals the reference; the label is the reference's whenever the
// decision is not within rounding of a tie.
void check_predict(const kfm::map& m, const kfm::offline::linear_head& head) {
    const std::uint32_t d = m.input_dim(), k = head.outputs;
    std::vector<std::uint8_t> ws(kfm::workspace_bytes(m, 1));
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        const std::vector<float> x = test_vector(d, 100 + seed);
        const reference r = transform_and_dot(m, head, x.data());
        std::vector<float> scores(k, -7.0f);
        std::int32_t label = -12345;
        REQUIRE(kfm::predict(m, x.data(), d, scores.data(), k, &label, ws.data(), ws.size()) == status::ok);
        const double tolerance = 1e-5 * (1.0 + r.magnitude);
        for (std::uint32_t j = 0; j < k; ++j) CHECK(std::fabs(scores[j] - r.scores[j]) <= tolerance);
        if (head.kind == fmt::task_kind::regression) {
            CHECK(label == -12345);
            continue;
        }
        std::vector<double> own(scores.begin(), scores.end());
        CHECK(label == label_of(own, head));
        std::vector<double> sorted = r.scores;
        bool near_tie = head.kind == fmt::task_kind::binary && std::fabs(r.scores[0]) <= 2 * tolerance;
        for (std::size_t a = 0; a < sorted.size() && head.kind == fmt::task_kind::multiclass; ++a)
            for (std::size_t b = a + 1; b < sorted.size(); ++b)
                near_tie |= std::fabs(sorted[a] - sorted[b]) <= 2 * tolerance;
        if (!near_tie) CHECK(label == label_of(r.scores, head));

        std::int32_t label_only = -1;  // scores may be null for a classifier
        REQUIRE(kfm::predict(m, x.data(), d, nullptr, 0, &label_only, ws.data(), ws.size()) == status::ok);
        CHECK(label_only == label);
    }
}

// predict_batch with strided rows equals predict row by row, for workspaces of one row and of the batch.
void check_batch(const kfm::map& m, std::size_t n) {
    const std::uint32_t d = m.input_dim(), k = m.head_outputs();
    const std::size_t x_stride = d + 2, s_stride = k + 1;
    std::vector<float> xs(n * x_stride, 0.0f);
    for (std::size_t i = 0; i < n; ++i) {
        const auto v = test_vector(d, 300 + i);
        std::memcpy(&xs[i * x_stride], v.data(), d * sizeof(float));
    }
    std::vector<std::uint8_t> ws1(kfm::workspace_bytes(m, 1));
    for (std::size_t rows : {std::size_t(1), n}) {
        std::vector<std::uint8_t> ws(kfm::workspace_bytes(m, rows));
        std::vector<float> scores(n * s_stride, -9.0f);
        std::vector<std::int32_t> labels(n, -1);
        REQUIRE(kfm::predict_batch(m, xs.data(), n, x_stride, d, scores.data(), s_stride, labels.data(), ws.data(),
                                   ws.size()) == status::ok);
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<float> single(k);
            std::int32_t label = -1;
            REQUIRE(kfm::predict(m, &xs[i * x_stride], d, single.data(), k, &label, ws1.data(), ws1.size()) ==
                    status::ok);
            for (std::uint32_t j = 0; j < k; ++j) CHECK(std::fabs(scores[i * s_stride + j] - single[j]) <= 1e-4f * (1.0f + std::fabs(single[j])));
            CHECK(scores[i * s_stride + k] == -9.0f);  // the gap is untouched
            if (m.task() != fmt::task_kind::regression) CHECK(labels[i] == label);
        }
    }
}

dense_spec varied_spec(int which) {
    dense_spec s;
    switch (which) {
        case 0: break;
        case 1:
            s.kind = fmt::nonlinearity::relu;
            s.reflect = true;
            s.negative_dim = 5;
            s.constants = 2;
            s.normalize = true;
            break;
        default:
            s.kind = fmt::nonlinearity::cos_phase;
            s.input_dim = 11;
            s.projection_dim = 40;
            s.pad = 3;
            break;
    }
    return s;
}

}  // namespace

constexpr kfm::offline::head_dtype head_dtypes[] = {kfm::offline::head_dtype::f32, kfm::offline::head_dtype::int8};

TEST_CASE("predict equals transform + dot in double on every ISA: hand-built maps, every task, f32 and int8 heads") {
    for (int which = 0; which < 3; ++which) {
        const dense_spec spec = varied_spec(which);
        for (auto kind : {fmt::task_kind::regression, fmt::task_kind::binary, fmt::task_kind::multiclass})
        for (auto stored_as : head_dtypes) {
            const auto contents = make_test_model(spec, kind, 4, which != 2, stored_as);
            auto head = make_test_head(make_dense_map(spec), kind, 4);
            head.stored_as = stored_as;
            const file_buffer buffer(kfm::offline::serialize(contents));
            for (kfm::isa isa : all_isas) {
                if (!kfm::isa_available(isa)) continue;
                INFO("spec " << which << ", task " << static_cast<int>(kind) << ", head "
                             << (stored_as == kfm::offline::head_dtype::int8 ? "int8" : "f32") << ", "
                             << kfm::isa_name(isa));
                const kfm::map m = open_or_fail(buffer, isa);
                check_predict(m, head);
                check_batch(m, 9);
            }
        }
    }
}

TEST_CASE("predict equals transform + dot in double on every ISA: a map of every method and projection, f32 and int8 heads") {
    for (const auto& config : builder_configs(13, 64))
    for (auto stored_as : head_dtypes) {
        auto contents = kfm::offline::build_map(config.options);
        // A map that owns its PREP (maclaurin-opt's centring) keeps it; the others get the test's scaling.
        if ((contents.meta.flags & fmt::meta_flag_gaussian_prefactor) == 0)
            kfm::offline::add_preprocessing(contents, make_test_scaling(contents.meta.input_dim));
        auto head = make_test_head(contents, fmt::task_kind::multiclass, 3);
        head.stored_as = stored_as;
        kfm::offline::add_head(contents, head);
        const file_buffer buffer(kfm::offline::serialize(contents));
        for (kfm::isa isa : all_isas) {
            if (!kfm::isa_available(isa)) continue;
            INFO(config.label << (stored_as == kfm::offline::head_dtype::int8 ? ", int8 head" : "") << " on "
                              << kfm::isa_name(isa));
            const kfm::map m = open_or_fail(buffer, isa);
            check_predict(m, head);
            check_batch(m, 11);
        }
    }
}

TEST_CASE("transform of a file with PREP maps the raw input: phi((x - shift) * scale) of the plain map") {
    const dense_spec spec = varied_spec(1);
    const auto scaling = make_test_scaling(spec.input_dim);
    auto with_prep = make_dense_map(spec);
    kfm::offline::add_preprocessing(with_prep, scaling);
    const file_buffer prep_buffer(kfm::offline::serialize(with_prep));
    const file_buffer plain_buffer(kfm::offline::serialize(make_dense_map(spec)));
    const kfm::map a = open_or_fail(prep_buffer), b = open_or_fail(plain_buffer);
    const auto x = test_vector(spec.input_dim, 9);
    std::vector<float> scaled(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) scaled[i] = (x[i] - scaling.shift[i]) * scaling.scale[i];
    std::vector<std::uint8_t> ws(kfm::workspace_bytes(a, 4));
    std::vector<float> fa(a.output_dim()), fb(b.output_dim());
    REQUIRE(kfm::transform(a, x.data(), x.size(), fa.data(), fa.size(), ws.data(), ws.size()) == status::ok);
    REQUIRE(kfm::transform(b, scaled.data(), x.size(), fb.data(), fb.size(), ws.data(), ws.size()) == status::ok);
    CHECK(fa == fb);
    std::vector<float> batch(a.output_dim());  // the batched path applies it too
    REQUIRE(kfm::transform_batch(a, x.data(), 1, x.size(), x.size(), batch.data(), batch.size(), ws.data(), ws.size()) ==
            status::ok);
    CHECK(batch == fb);
}

TEST_CASE("predict: workspace covers phi; errors write nothing") {
    const dense_spec spec;
    const file_buffer buffer(kfm::offline::serialize(make_test_model(spec, fmt::task_kind::multiclass, 3)));
    const file_buffer plain(kfm::offline::serialize(make_dense_map(spec)));
    const kfm::map m = open_or_fail(buffer), p = open_or_fail(plain);
    CHECK(kfm::workspace_bytes(m, 1) >= kfm::workspace_bytes(p, 1) + m.output_dim() * sizeof(float));

    const std::uint32_t d = m.input_dim();
    std::vector<float> x = test_vector(d, 1);
    std::vector<std::uint8_t> ws(kfm::workspace_bytes(m, 1));
    std::vector<float> scores(3, -7.0f);
    std::int32_t label = -1;
    auto untouched = [&] { return scores == std::vector<float>(3, -7.0f) && label == -1; };

    CHECK(kfm::predict(kfm::map{}, x.data(), d, scores.data(), 3, &label, ws.data(), ws.size()) == status::not_open);
    CHECK(kfm::predict(p, x.data(), d, scores.data(), 3, &label, ws.data(), ws.size()) == status::no_head);
    CHECK(kfm::predict(m, nullptr, d, scores.data(), 3, &label, ws.data(), ws.size()) == status::null_argument);
    CHECK(kfm::predict(m, x.data(), d, nullptr, 0, nullptr, ws.data(), ws.size()) == status::null_argument);
    CHECK(kfm::predict(m, x.data(), d + 1, scores.data(), 3, &label, ws.data(), ws.size()) == status::wrong_dimension);
    CHECK(kfm::predict(m, x.data(), d, scores.data(), 2, &label, ws.data(), ws.size()) == status::output_too_small);
    CHECK(kfm::predict(m, x.data(), d, scores.data(), 3, &label, ws.data(), ws.size() - 1) ==
          status::workspace_too_small);
    CHECK(kfm::predict(m, x.data(), d, scores.data(), 3, &label, nullptr, ws.size()) == status::workspace_too_small);
    x[2] = std::numeric_limits<float>::quiet_NaN();
    CHECK(kfm::predict(m, x.data(), d, scores.data(), 3, &label, ws.data(), ws.size()) == status::non_finite_input);
    // Finite x whose PREP result overflows (scales have magnitude >= 0.5 and up to 2).
    x[2] = std::numeric_limits<float>::max();
    x[3] = -std::numeric_limits<float>::max();
    CHECK(kfm::predict(m, x.data(), d, scores.data(), 3, &label, ws.data(), ws.size()) == status::non_finite_input);
    CHECK(untouched());

    std::vector<float> xs(2 * d, 0.25f);
    xs[d + 1] = std::numeric_limits<float>::infinity();  // the second row is bad: the first is not written either
    std::vector<std::int32_t> labels(2, -1);
    CHECK(kfm::predict_batch(m, xs.data(), 2, d, d, scores.data(), 3, labels.data(), ws.data(), ws.size()) ==
          status::non_finite_input);
    CHECK(kfm::predict_batch(p, xs.data(), 2, d, d, scores.data(), 3, labels.data(), ws.data(), ws.size()) ==
          status::no_head);
    CHECK(untouched());
    CHECK(labels == std::vector<std::int32_t>(2, -1));

    const file_buffer regression(kfm::offline::serialize(make_test_model(spec, fmt::task_kind::regression, 2)));
    const kfm::map r = open_or_fail(regression);
    x = test_vector(d, 1);
    CHECK(kfm::predict(r, x.data(), d, nullptr, 0, &label, ws.data(), ws.size()) == status::null_argument);
}

TEST_CASE("predict: binary labels follow the score's sign, multiclass the first largest score") {
    dense_spec spec;
    spec.kind = fmt::nonlinearity::identity;  // phi = 0.5 * 0.75 * W x: zero for x = 0
    auto contents = make_dense_map(spec);
    kfm::offline::linear_head head = make_test_head(contents, fmt::task_kind::multiclass, 3);
    head.bias = {0.5f, 2.0f, 2.0f};  // x = 0: scores = bias, a tie between classes 1 and 2
    kfm::offline::add_head(contents, head);
    const file_buffer buffer(kfm::offline::serialize(contents));
    const kfm::map m = open_or_fail(buffer);
    std::vector<std::uint8_t> ws(kfm::workspace_bytes(m, 1));
    const std::vector<float> zero(spec.input_dim, 0.0f);
    std::int32_t label = 0;
    std::vector<float> scores(3);
    REQUIRE(kfm::predict(m, zero.data(), zero.size(), scores.data(), 3, &label, ws.data(), ws.size()) == status::ok);
    CHECK(scores == std::vector<float>{0.5f, 2.0f, 2.0f});
    CHECK(label == 20);

    for (float b : {-0.25f, 0.0f, 0.25f}) {  // score 0 is the first class
        auto binary = make_dense_map(spec);
        kfm::offline::linear_head h = make_test_head(binary, fmt::task_kind::binary, 1);
        h.bias = {b};
        kfm::offline::add_head(binary, h);
        const file_buffer bb(kfm::offline::serialize(binary));
        const kfm::map mb = open_or_fail(bb);
        REQUIRE(kfm::predict(mb, zero.data(), zero.size(), nullptr, 0, &label, ws.data(), ws.size()) == status::ok);
        CHECK(label == (b > 0.0f ? 7 : -3));
    }
}

TEST_CASE("predict: the C API twins (f32 and int8 heads)") {
    for (auto stored_as : head_dtypes) {
    CAPTURE(stored_as == kfm::offline::head_dtype::int8);
    const file_buffer buffer(kfm::offline::serialize(make_test_model(dense_spec{}, fmt::task_kind::binary, 1, true, stored_as)));
    kfm_map handle = {{0}};
    CHECK(kfm_task(&handle) == 0);
    CHECK(kfm_predict(&handle, nullptr, 0, nullptr, 0, nullptr, nullptr, 0) == KFM_NOT_OPEN);
    REQUIRE(kfm_open(buffer.data(), buffer.size(), "scalar", &handle) == KFM_OK);
    CHECK(kfm_task(&handle) == 2);
    CHECK(kfm_head_outputs(&handle) == 1);
    CHECK(kfm_class_count(&handle) == 2);
    CHECK(kfm_class_label(&handle, 0) == -3);
    CHECK(kfm_class_label(&handle, 1) == 7);
    CHECK(kfm_has_preprocessing(&handle) == 1);
    const kfm::map m = open_or_fail(buffer);
    const std::uint32_t d = m.input_dim();
    const auto x = test_vector(d, 4);
    std::vector<std::uint8_t> ws(kfm_workspace_bytes(&handle, 2));
    float s_c = 0.0f, s_cpp = 1.0f;
    std::int32_t l_c = 0, l_cpp = 1;
    REQUIRE(kfm_predict(&handle, x.data(), d, &s_c, 1, &l_c, ws.data(), ws.size()) == KFM_OK);
    REQUIRE(kfm::predict(m, x.data(), d, &s_cpp, 1, &l_cpp, ws.data(), ws.size()) == status::ok);
    CHECK(s_c == s_cpp);
    CHECK(l_c == l_cpp);
    std::vector<float> xs(x);
    xs.insert(xs.end(), x.begin(), x.end());
    float s2[2] = {0, 0};
    std::int32_t l2[2] = {0, 0};
    REQUIRE(kfm_predict_batch(&handle, xs.data(), 2, d, d, s2, 1, l2, ws.data(), ws.size()) == KFM_OK);
    CHECK(s2[1] == s_c);
    CHECK(l2[1] == l_c);
    CHECK(std::string(kfm_status_string(KFM_NO_HEAD)).find("head") != std::string::npos);
    }
}

// The edges of predict_batch, on every ISA: an empty batch, the smallest strides and workspace, a
// workspace between one row's and the batch's, labels alone; each row's bits equal predict's.
TEST_CASE("predict_batch: empty batch, smallest strides and workspace, labels alone; bits equal predict's (f32 and int8 heads)") {
    dense_spec spec;
    spec.input_dim = 7;
    spec.projection_dim = 24;
    for (auto stored_as : head_dtypes)
    for (kfm::isa isa : all_isas) {
        if (!kfm::isa_available(isa)) continue;
        const file_buffer buffer(kfm::offline::serialize(make_test_model(spec, fmt::task_kind::multiclass, 4, true, stored_as)));
        CAPTURE(kfm::isa_name(isa));
        CAPTURE(stored_as == kfm::offline::head_dtype::int8);
        kfm::map m;
        REQUIRE(kfm::open(buffer.data(), buffer.size(), &m, isa) == status::ok);
        const std::size_t d = m.input_dim(), k = m.head_outputs(), n = 9;
        std::vector<float> xs(n * d);
        for (std::size_t i = 0; i < n; ++i) {
            const auto v = test_vector(std::uint32_t(d), 500 + i);
            std::memcpy(&xs[i * d], v.data(), d * sizeof(float));
        }
        // Row by row: the reference bits.
        std::vector<std::uint8_t> ws1(kfm::workspace_bytes(m, 1));
        std::vector<float> single(n * k);
        std::vector<std::int32_t> single_labels(n);
        for (std::size_t i = 0; i < n; ++i)
            REQUIRE(kfm::predict(m, &xs[i * d], d, &single[i * k], k, &single_labels[i], ws1.data(), ws1.size()) ==
                    status::ok);

        // An empty batch is ok and writes nothing.
        std::vector<float> scores(n * k, -9.0f);
        std::vector<std::int32_t> labels(n, -1);
        CHECK(kfm::predict_batch(m, xs.data(), 0, d, d, scores.data(), k, labels.data(), ws1.data(), ws1.size()) ==
              status::ok);
        CHECK(scores == std::vector<float>(n * k, -9.0f));
        CHECK(labels == std::vector<std::int32_t>(n, -1));

        // Strides at their minimum (d, k) and one short; workspace at the minimum and one byte short.
        CHECK(kfm::predict_batch(m, xs.data(), n, d - 1, d, scores.data(), k, labels.data(), ws1.data(), ws1.size()) ==
              status::wrong_dimension);
        CHECK(kfm::predict_batch(m, xs.data(), n, d, d, scores.data(), k - 1, labels.data(), ws1.data(), ws1.size()) ==
              status::output_too_small);
        CHECK(kfm::predict_batch(m, xs.data(), n, d, d, scores.data(), k, labels.data(), ws1.data(), ws1.size() - 1) ==
              status::workspace_too_small);
        CHECK(scores == std::vector<float>(n * k, -9.0f));
        for (std::size_t held : {std::size_t(1), std::size_t(3), n}) {  // rows the workspace holds per pass
            CAPTURE(held);
            std::vector<std::uint8_t> ws(kfm::workspace_bytes(m, held));
            std::fill(scores.begin(), scores.end(), -9.0f);
            std::fill(labels.begin(), labels.end(), -1);
            REQUIRE(kfm::predict_batch(m, xs.data(), n, d, d, scores.data(), k, labels.data(), ws.data(), ws.size()) ==
                    status::ok);
            CHECK(std::memcmp(scores.data(), single.data(), n * k * sizeof(float)) == 0);
            CHECK(labels == single_labels);
            // Labels alone: the scores live in the workspace.
            std::vector<std::int32_t> alone(n, -1);
            REQUIRE(kfm::predict_batch(m, xs.data(), n, d, d, nullptr, 0, alone.data(), ws.data(), ws.size()) ==
                    status::ok);
            CHECK(alone == single_labels);
        }
    }
}
