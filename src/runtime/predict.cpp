// predict and predict_batch: scores = HEAD phi(x) + BIAS and the label the task implies, computed in the
// caller's workspace (phi and the scores live there: no heap, no D-sized buffer from the caller); and
// kfm::map's accessors for the model sections.
#include "kernels/accumulator.hpp"
#include "runtime/pipeline.hpp"

namespace kfm {
namespace {

namespace fmt = kfm::format;
using detail::accumulator;
using detail::map_state;
using detail::section;
using detail::section_view;

constexpr std::size_t alignment = 64;

constexpr std::size_t aligned_bytes(std::size_t floats) {
    return (floats * sizeof(float) + alignment - 1) / alignment * alignment;
}

// The model's task record (verify_model checked it is there when a head is).
const fmt::model_task& task_of(const map_state& map) { return *map.view<section::task>().data; }

std::uint32_t outputs(const map_state& map) { return task_of(map).output_count; }

// The head's part of the workspace: after the pipeline's part, 64-byte aligned.
struct head_layout {
    float* phi;     // rows x output_dim
    float* scores;  // k, when the caller passes no scores buffer
};

head_layout carve_head(const map_state& map, std::size_t rows, void* workspace) {
    auto address = reinterpret_cast<std::uintptr_t>(workspace) + detail::pipeline_bytes(map, rows);
    address = (address + alignment - 1) / alignment * alignment;
    head_layout h;
    h.phi = reinterpret_cast<float*>(address);
    h.scores = h.phi + aligned_bytes(rows * map.meta->output_dim) / sizeof(float);
    return h;
}

std::size_t total_bytes(const map_state& map, std::size_t rows) {
    return detail::pipeline_bytes(map, rows) + detail::head_bytes(map, rows);
}

// w . phi over n values, w float or int8 (each int8 converts to float exactly): 16 independent float sums
// (so the loop vectorises), combined in the accumulator (double; float in the firmware profile on a
// single-precision FPU, kernels/accumulator.hpp).
template <class W>
accumulator dot(const W* w, const float* phi, std::size_t n) {
    constexpr std::size_t K = 16;
    float partial[K] = {};
    std::size_t i = 0;
    for (; i + K <= n; i += K)
        for (std::size_t k = 0; k < K; ++k) partial[k] += float(w[i + k]) * phi[i + k];
    accumulator sum = 0;
    for (std::size_t k = 0; k < K; ++k) sum += partial[k];
    for (; i < n; ++i) sum += accumulator(w[i]) * accumulator(phi[i]);
    return sum;
}

// Head row j . phi: the float row, or the int8 row's sum times its scale (HDI8, HSCL).
accumulator head_dot(const map_state& map, std::uint32_t j, const float* phi, std::size_t d) {
    if (map.view<section::head>().present()) return dot(map.view<section::head>().data + j * d, phi, d);
    return accumulator(map.view<section::head_scales>()[j]) * dot(map.view<section::head_int8>().data + j * d, phi, d);
}

// scores[j] = bias[j] + head row j . phi; the label for a classifier.
void apply_head(const map_state& map, const float* phi, float* scores, std::int32_t* label) {
    const std::uint32_t k = outputs(map);
    const std::size_t d = map.meta->output_dim;
    for (std::uint32_t j = 0; j < k; ++j)
        scores[j] = static_cast<float>(accumulator(map.view<section::bias>()[j]) + head_dot(map, j, phi, d));
    if (label == nullptr) return;
    switch (static_cast<fmt::task_kind>(task_of(map).kind)) {
        case fmt::task_kind::binary: *label = map.view<section::labels>()[scores[0] > 0.0f ? 1 : 0]; break;
        case fmt::task_kind::multiclass: {
            std::uint32_t best = 0;
            for (std::uint32_t j = 1; j < k; ++j)
                if (scores[j] > scores[best]) best = j;  // the first maximum wins ties
            *label = map.view<section::labels>()[best];
            break;
        }
        default: break;  // regression: no label, *label untouched
    }
}

// The checks predict and predict_batch share, in the documented order.
status check_call(const map_state* map, const float* x, std::size_t x_dim, const float* scores,
                  std::size_t scores_dim, const std::int32_t* label) {
    if (map == nullptr) return status::not_open;
    if (!map->view<section::task>().present()) return status::no_head;
    const bool regression = task_of(*map).kind == static_cast<std::uint32_t>(fmt::task_kind::regression);
    if (x == nullptr || (scores == nullptr && (label == nullptr || regression))) return status::null_argument;
    if (x_dim != map->meta->input_dim) return status::wrong_dimension;
    if (scores != nullptr && scores_dim < outputs(*map)) return status::output_too_small;
    return status::ok;
}

}  // namespace

namespace detail {

std::size_t head_bytes(const map_state& map, std::size_t rows) noexcept {
    if (!map.view<section::task>().present()) return 0;
    return alignment + aligned_bytes(rows * map.meta->output_dim) + aligned_bytes(task_of(map).output_count);
}

}  // namespace detail

status predict(const map& m, const float* x, std::size_t x_dim, float* scores, std::size_t scores_dim,
               std::int32_t* label, void* workspace, std::size_t workspace_size) noexcept {
    const map_state* map = detail::state_of(m);
    if (status s = check_call(map, x, x_dim, scores, scores_dim, label); s != status::ok) return s;
    if (workspace == nullptr || workspace_size < total_bytes(*map, 1)) return status::workspace_too_small;
    if (!detail::pipeline_check_one(*map, x, workspace)) return status::non_finite_input;
    const head_layout h = carve_head(*map, 1, workspace);
    detail::pipeline_run_one(*map, x, h.phi, workspace);
    apply_head(*map, h.phi, scores != nullptr ? scores : h.scores, label);
    return status::ok;
}

status predict_batch(const map& m, const float* x, std::size_t n, std::size_t x_stride, std::size_t x_dim,
                     float* scores, std::size_t scores_stride, std::int32_t* labels, void* workspace,
                     std::size_t workspace_size) noexcept {
    const map_state* map = detail::state_of(m);
    if (map == nullptr) return status::not_open;
    if (n == 0) return !map->view<section::task>().present() ? status::no_head : status::ok;
    if (status s = check_call(map, x, x_dim, scores, scores_stride, labels); s != status::ok) return s;
    if (x_stride < x_dim) return status::wrong_dimension;
    if (workspace == nullptr || workspace_size < total_bytes(*map, 1)) return status::workspace_too_small;

    // As many rows per pass as the workspace holds.
    std::size_t rows = detail::pipeline_rows_per_pass(*map, n);
    while (rows > 1 && total_bytes(*map, rows) > workspace_size) --rows;
    if (!detail::pipeline_check(*map, x, n, x_stride, rows, workspace)) return status::non_finite_input;
    const head_layout h = carve_head(*map, rows, workspace);
    const std::size_t d = map->meta->output_dim;
    for (std::size_t r = 0; r < n; r += rows) {
        const std::size_t count = n - r < rows ? n - r : rows;
        detail::pipeline_run(*map, x, n, x_stride, rows, r, h.phi, d, workspace);
        for (std::size_t i = 0; i < count; ++i) {
            float* row_scores = scores != nullptr ? scores + (r + i) * scores_stride : h.scores;
            apply_head(*map, h.phi + i * d, row_scores, labels != nullptr ? labels + r + i : nullptr);
        }
    }
    return status::ok;
}

format::task_kind map::task() const noexcept {
    const map_state* s = detail::state_of(*this);
    return s != nullptr && s->view<section::task>().present() ? static_cast<format::task_kind>(task_of(*s).kind)
                                                               : format::task_kind::none;
}

std::uint32_t map::head_outputs() const noexcept {
    const map_state* s = detail::state_of(*this);
    return s != nullptr && s->view<section::task>().present() ? task_of(*s).output_count : 0;
}

std::uint32_t map::class_count() const noexcept {
    const map_state* s = detail::state_of(*this);
    return s != nullptr && s->view<section::task>().present() ? task_of(*s).class_count : 0;
}

std::int32_t map::class_label(std::uint32_t i) const noexcept {
    const map_state* s = detail::state_of(*this);
    if (s == nullptr) return 0;
    const section_view<std::int32_t> labels = s->view<section::labels>();
    return i < labels.count ? labels[i] : 0;
}

bool map::has_preprocessing() const noexcept {
    const map_state* s = detail::state_of(*this);
    return s != nullptr && s->view<section::preprocess>().present();
}

}  // namespace kfm
