// The runtime's contract for model files (map_contract.hpp, check_model_bytes): predict and predict_batch
// agree bit for bit with each other and with transform, whatever the batch and the workspace, give
// finite scores and a label of the file's for bounded inputs, and refuse bad arguments without writing.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "kfm/format.hpp"
#include "kfm/kfm.hpp"
#include "map_contract.hpp"

namespace kfm::fuzz {
namespace {

namespace fmt = kfm::format;

constexpr std::int32_t label_sentinel = -123456789;
constexpr std::size_t rows = 5;

// `rows` inputs of d values: pseudo-random in [-max_input_abs, max_input_abs] (seeded by the bytes),
// small values, zeros, and one row at the bound.
std::vector<float> bounded_rows(std::size_t d, const std::uint8_t* bytes, std::size_t size) {
    std::vector<float> x(rows * d);
    std::uint32_t state = 2166136261u;
    for (std::size_t i = 0; i < size && i < 256; ++i) state = (state ^ bytes[i]) * 16777619u;
    for (std::size_t r = 0; r < rows; ++r) {
        const float amplitude = r == 0 ? float(fmt::max_input_abs) : (r == 1 ? 1e-3f : (r == 2 ? 0.0f : 1.0f));
        for (std::size_t j = 0; j < d; ++j) {
            state = state * 1664525u + 1013904223u;
            x[r * d + j] = amplitude * (float(state >> 8) / float(1u << 23) - 1.0f);
        }
    }
    for (std::size_t j = 0; j < d; ++j) x[4 * d + j] = (j % 2 ? 1.0f : -1.0f) * float(fmt::max_input_abs);
    return x;
}

bool same_bits(const float* a, const float* b, std::size_t n) { return std::memcmp(a, b, n * sizeof(float)) == 0; }

void check_open_model(const map& m, isa i, const std::uint8_t* bytes, std::size_t size) {
    const std::size_t d = m.input_dim(), D = m.output_dim();
    const std::size_t k = m.head_outputs();
    const std::vector<float> x = bounded_rows(d, bytes, size);
    std::vector<std::uint8_t> one(workspace_bytes(m, 1)), many(workspace_bytes(m, rows));

    if (m.task() == fmt::task_kind::none) {
        float s = sentinel;
        std::int32_t label = label_sentinel;
        if (predict(m, x.data(), d, &s, 1, &label, one.data(), one.size()) != status::no_head) violated("predict without a head", i);
        if (s != sentinel || label != label_sentinel) violated("a refused predict wrote", i);
        return;
    }
    const bool classifier = m.task() != fmt::task_kind::regression;

    // One row at a time, each with the smallest workspace.
    std::vector<float> scores(rows * k, sentinel);
    std::vector<std::int32_t> labels(rows, label_sentinel);
    for (std::size_t r = 0; r < rows; ++r) {
        if (predict(m, &x[r * d], d, &scores[r * k], k, &labels[r], one.data(), one.size()) != status::ok)
            violated("a valid predict failed", i);
        for (std::size_t c = 0; c < k; ++c)
            if (!std::isfinite(scores[r * k + c])) violated("non-finite score for a bounded finite input", i);
        if (classifier) {
            bool known = false;
            for (std::uint32_t c = 0; c < m.class_count(); ++c) known = known || labels[r] == m.class_label(c);
            if (!known) violated("a label that is not one of the file's", i);
        } else if (labels[r] != label_sentinel) {
            violated("a regression predict wrote the label", i);
        }
        if (classifier) {  // the label alone, scores in the workspace
            std::int32_t alone = label_sentinel;
            if (predict(m, &x[r * d], d, nullptr, 0, &alone, one.data(), one.size()) != status::ok || alone != labels[r])
                violated("the label without scores differs", i);
        }
    }

    // The same rows as one batch, with the batch workspace and with the smallest one: the same bits.
    for (std::vector<std::uint8_t>* ws : {&many, &one}) {
        std::vector<float> batch_scores(rows * k, sentinel);
        std::vector<std::int32_t> batch_labels(rows, label_sentinel);
        if (predict_batch(m, x.data(), rows, d, d, batch_scores.data(), k, batch_labels.data(), ws->data(), ws->size()) !=
            status::ok)
            violated("a valid predict_batch failed", i);
        if (!same_bits(batch_scores.data(), scores.data(), rows * k)) violated("predict_batch scores differ from predict", i);
        if (batch_labels != labels) violated("predict_batch labels differ from predict", i);
    }

    // The features: transform_batch row by row equal to transform.
    std::vector<float> phi(rows * D), phi_batch(rows * D);
    for (std::size_t r = 0; r < rows; ++r)
        if (transform(m, &x[r * d], d, &phi[r * D], D, one.data(), one.size()) != status::ok) violated("transform failed", i);
    if (transform_batch(m, x.data(), rows, d, d, phi_batch.data(), D, many.data(), many.size()) != status::ok)
        violated("transform_batch failed", i);
    if (!same_bits(phi.data(), phi_batch.data(), rows * D)) violated("transform_batch differs from transform", i);

    // Bad arguments: a status, and nothing written.
    std::vector<float> s(k + 1, sentinel);
    std::int32_t label = label_sentinel;
    std::vector<float> bad(x.begin(), x.begin() + d);
    bad[d - 1] = std::numeric_limits<float>::infinity();
    if (predict(m, x.data(), d + 1, s.data(), k, &label, one.data(), one.size()) != status::wrong_dimension ||
        predict(m, x.data(), d, s.data(), k - 1, &label, one.data(), one.size()) != status::output_too_small ||
        predict(m, x.data(), d, s.data(), k, &label, one.data(), one.size() - 1) != status::workspace_too_small ||
        predict(m, bad.data(), d, s.data(), k, &label, one.data(), one.size()) != status::non_finite_input)
        violated("a bad predict argument was not refused", i);
    for (float v : s)
        if (v != sentinel) violated("a refused predict wrote scores", i);
    if (label != label_sentinel) violated("a refused predict wrote the label", i);
}

}  // namespace

void check_model_bytes(const std::uint8_t* bytes, std::size_t size) {
    std::vector<std::uint64_t> aligned(size / 8 + 1);
    if (size > 0) std::memcpy(aligned.data(), bytes, size);
    for (std::size_t n = 0; n < isa_count(); ++n) {
        const isa i = isa_at(n);
        if (!isa_available(i)) continue;
        map m;
        if (open(aligned.data(), size, &m, i) != status::ok) continue;  // refusals: check_map_bytes
        check_open_model(m, i, bytes, size);
    }
}

}  // namespace kfm::fuzz
