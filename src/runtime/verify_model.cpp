// Verification of the optional model sections (format minor 1): input pre-processing (PREP), and the
// linear head (TASK, HEAD or the int8 head HDI8 + HSCL of minor 3, BIAS, LABL, and LTYP of minor 4). The container already checked dtypes, CRCs and that every float
// is finite; this checks sizes against the map's dimensions and the task, and the value domains.
#include <cstdint>

#include "format/checked.hpp"
#include "runtime/verify.hpp"

namespace kfm::detail {
namespace {

namespace fmt = kfm::format;

// PREP: input_dim shifts then input_dim scales, every scale nonzero (a zero scale would erase an input).
status check_preprocess(const map_state& v) {
    const section_view<float> prep = v.view<section::preprocess>();
    if (!prep.present()) return status::ok;
    const std::uint32_t d = v.meta->input_dim;
    if (prep.count != 2ull * d) return status::bad_section_size;
    for (std::uint32_t i = 0; i < d; ++i)
        if (prep[d + i] == 0.0f) return status::bad_parameter_value;
    return status::ok;
}

bool reserved_zero(const fmt::model_task& t) {
    for (std::uint32_t r : t.reserved)
        if (r != 0) return false;
    return true;
}

// k and the class count the task kind implies: regression any k >= 1 and no classes; binary one score and
// two classes; multiclass one score per class, at least three.
bool task_consistent(const fmt::model_task& t) {
    switch (static_cast<fmt::task_kind>(t.kind)) {
        case fmt::task_kind::regression: return t.output_count >= 1 && t.class_count == 0;
        case fmt::task_kind::binary: return t.output_count == 1 && t.class_count == 2;
        case fmt::task_kind::multiclass: return t.output_count >= 3 && t.class_count == t.output_count;
        default: return false;
    }
}

// The int8 head's weights: k x D of them, and one scale per output, every scale nonzero (finite is the
// container's element rule).
status check_int8_head(const map_state& v, std::uint64_t weights, std::uint32_t k) {
    const section_view<float> scales = v.view<section::head_scales>();
    if (v.view<section::head_int8>().count != weights || scales.count != k) return status::bad_section_size;
    for (std::uint32_t j = 0; j < k; ++j)
        if (scales[j] == 0.0f) return status::bad_parameter_value;
    return status::ok;
}

// LTYP: one known type that holds every label (LABL is sorted: its ends suffice).
status check_label_type(const map_state& v) {
    const auto type = v.view<section::label_type>();
    if (type.count != 1) return status::bad_section_size;
    const auto labels = v.view<section::labels>();
    const std::int64_t lowest = labels[0], highest = labels[labels.count - 1];
    std::int64_t low = 0, high = 0;
    switch (static_cast<fmt::label_type>(type[0])) {
    case fmt::label_type::i8: low = -128, high = 127; break;
    case fmt::label_type::u8: low = 0, high = 255; break;
    case fmt::label_type::i16: low = -32768, high = 32767; break;
    case fmt::label_type::u16: low = 0, high = 65535; break;
    case fmt::label_type::i32:
    case fmt::label_type::i64: low = INT32_MIN, high = INT32_MAX; break;
    case fmt::label_type::u32:
    case fmt::label_type::u64: low = 0, high = INT32_MAX; break;
    default: return status::bad_parameter_value;
    }
    return lowest >= low && highest <= high ? status::ok : status::bad_model;
}

status check_head(const map_state& v) {
    const auto task = v.view<section::task>();
    const auto head = v.view<section::head>();
    const auto bias = v.view<section::bias>();
    const auto labels = v.view<section::labels>();
    const bool int8 = v.view<section::head_int8>().present() || v.view<section::head_scales>().present();
    const bool any = task.present() || head.present() || int8 || bias.present() || labels.present();
    if (!any) return status::ok;
    // TASK, the weights (HEAD, or HDI8 with HSCL) and BIAS come together; LABL only with them.
    if (head.present() && int8) return status::bad_model;
    const bool weights_present =
        head.present() || (v.view<section::head_int8>().present() && v.view<section::head_scales>().present());
    if (!task.present() || !weights_present || !bias.present()) return status::missing_section;
    if (task.count != 1) return status::bad_section_size;
    const fmt::model_task& t = task[0];
    if (!reserved_zero(t) || !task_consistent(t)) return status::bad_model;
    if (t.output_count > max_dim) return status::bad_model;
    std::uint64_t weights = 0;
    if (!checked_mul(t.output_count, v.meta->output_dim, &weights)) return status::bad_section_size;
    if (int8) {
        if (status s = check_int8_head(v, weights, t.output_count); s != status::ok) return s;
    } else if (head.count != weights) {
        return status::bad_section_size;
    }
    if (bias.count != t.output_count) return status::bad_section_size;
    // Labels exactly when classifying, one per class, strictly increasing (hence distinct, checked in O(k)).
    const bool typed = v.view<section::label_type>().present();
    if (t.class_count == 0) return !labels.present() && !typed ? status::ok : status::bad_model;
    if (!labels.present()) return status::missing_section;
    if (labels.count != t.class_count) return status::bad_section_size;
    for (std::uint64_t i = 1; i < labels.count; ++i)
        if (!(labels[i - 1] < labels[i])) return status::bad_model;
    return typed ? check_label_type(v) : status::ok;
}

}  // namespace

status verify_model(const map_state& v) noexcept {
    if (status s = check_preprocess(v); s != status::ok) return s;
    return check_head(v);
}

}  // namespace kfm::detail
