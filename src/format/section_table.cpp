// The rows of the section table (section_table.hpp).
#include "format/section_table.hpp"

namespace kfm::detail {
namespace {

namespace fmt = kfm::format;
using fmt::dtype;
using fmt::projection;

// Points a typed view and its element count at a verified payload.
template <class T, const T* map_state::*Data, std::uint64_t map_state::*Count>
void attach_array(map_state& s, const std::uint8_t* p, std::uint64_t n) {
    s.*Data = reinterpret_cast<const T*>(p);
    s.*Count = n;
}

void attach_meta(map_state& s, const std::uint8_t* p, std::uint64_t) {
    s.meta = reinterpret_cast<const fmt::map_meta*>(p);
}

// The container check bounds SEGS to UINT32_MAX records before attaching.
void attach_segments(map_state& s, const std::uint8_t* p, std::uint64_t n) {
    s.segments = reinterpret_cast<const fmt::feature_segment*>(p);
    s.segment_count = static_cast<std::uint32_t>(n);
}

void attach_task(map_state& s, const std::uint8_t* p, std::uint64_t n) {
    s.task = reinterpret_cast<const fmt::model_task*>(p);
    s.task_count = n;
}

constexpr std::uint32_t butterflies = projection_bit(projection::butterfly_simplex) | projection_bit(projection::butterfly_blocks);
constexpr std::uint32_t fastfood = projection_bit(projection::fastfood);

constexpr section_row rows[] = {
    {fmt::tag::meta, dtype::record, sizeof(fmt::map_meta), element_rule::any, every_projection, attach_meta},
    {fmt::tag::segments, dtype::record, sizeof(fmt::feature_segment), element_rule::any, every_projection,
     attach_segments},
    {fmt::tag::kernel_params, dtype::f64, 0, element_rule::finite, every_projection,
     attach_array<double, &map_state::kernel_params, &map_state::kernel_param_count>},
    {fmt::tag::dense, dtype::f32, 0, element_rule::finite,
     projection_bit(projection::dense) | projection_bit(projection::kernel_landmarks),
     attach_array<float, &map_state::dense, &map_state::dense_count>},
    {fmt::tag::scales, dtype::f32, 0, element_rule::finite, every_projection,
     attach_array<float, &map_state::scales, &map_state::scale_count>},
    {fmt::tag::weights, dtype::f32, 0, element_rule::finite, every_projection,
     attach_array<float, &map_state::weights, &map_state::weight_count>},
    {fmt::tag::phases, dtype::f32, 0, element_rule::finite, every_projection,
     attach_array<float, &map_state::phases, &map_state::phase_count>},
    {fmt::tag::constants, dtype::f32, 0, element_rule::finite, every_projection,
     attach_array<float, &map_state::constants, &map_state::constant_count>},
    {fmt::tag::signs, dtype::bits, 0, element_rule::any,
     projection_bit(projection::ssf_fft) | projection_bit(projection::hadamard) | projection_bit(projection::count_sketch_fft) | fastfood,
     attach_array<std::uint8_t, &map_state::signs, &map_state::sign_count>},
    {fmt::tag::indices, dtype::u32, 0, element_rule::any, projection_bit(projection::count_sketch_fft),
     attach_array<std::uint32_t, &map_state::indices, &map_state::index_count>},
    {fmt::tag::frequencies, dtype::bits, 0, element_rule::any, projection_bit(projection::ssf_fft),
     attach_array<std::uint8_t, &map_state::frequencies, &map_state::frequency_count>},
    {fmt::tag::twiddles, dtype::f32, 0, element_rule::finite,
     projection_bit(projection::ssf_fft) | projection_bit(projection::count_sketch_fft),
     attach_array<float, &map_state::twiddles, &map_state::twiddle_count>},
    {fmt::tag::butterfly, dtype::f32, 0, element_rule::finite, butterflies,
     attach_array<float, &map_state::butterfly, &map_state::butterfly_count>},
    {fmt::tag::permutation, dtype::u32, 0, element_rule::any, butterflies | fastfood,
     attach_array<std::uint32_t, &map_state::permutation, &map_state::permutation_count>},
    {fmt::tag::groups, dtype::u32, 0, element_rule::any, every_projection,
     attach_array<std::uint32_t, &map_state::groups, &map_state::group_count>},
    {fmt::tag::gaussian_diagonal, dtype::f32, 0, element_rule::finite, fastfood,
     attach_array<float, &map_state::gaussian_diagonal, &map_state::gaussian_diagonal_count>},
    {fmt::tag::landmark_norms, dtype::f32, 0, element_rule::finite, projection_bit(projection::kernel_landmarks),
     attach_array<float, &map_state::landmark_norms, &map_state::landmark_norm_count>},
    {fmt::tag::kernel_inverse_root, dtype::f32, 0, element_rule::finite, projection_bit(projection::kernel_landmarks),
     attach_array<float, &map_state::kernel_inverse_root, &map_state::kernel_inverse_root_count>},
    // The model sections (minor 1, verify_model.cpp).
    {fmt::tag::preprocess, dtype::f32, 0, element_rule::finite, every_projection,
     attach_array<float, &map_state::prep, &map_state::prep_count>},
    {fmt::tag::task, dtype::record, sizeof(fmt::model_task), element_rule::any, every_projection, attach_task},
    {fmt::tag::head, dtype::f32, 0, element_rule::finite, every_projection,
     attach_array<float, &map_state::head, &map_state::head_count>},
    {fmt::tag::head_int8, dtype::i8, 0, element_rule::any, every_projection,
     attach_array<std::int8_t, &map_state::head_int8, &map_state::head_int8_count>},
    {fmt::tag::head_scales, dtype::f32, 0, element_rule::finite, every_projection,
     attach_array<float, &map_state::head_scales, &map_state::head_scale_count>},
    {fmt::tag::bias, dtype::f32, 0, element_rule::finite, every_projection,
     attach_array<float, &map_state::bias, &map_state::bias_count>},
    {fmt::tag::labels, dtype::i32, 0, element_rule::any, every_projection,
     attach_array<std::int32_t, &map_state::labels, &map_state::label_count>},
};

static_assert(sizeof(rows) / sizeof(rows[0]) <= max_section_rows, "raise max_section_rows");

}  // namespace

const section_row* find_section(std::uint32_t tag) noexcept {
    for (const section_row& r : rows)
        if (r.tag == tag) return &r;
    return nullptr;
}

std::size_t section_index(const section_row* row) noexcept { return static_cast<std::size_t>(row - rows); }

std::size_t section_row_count() noexcept { return sizeof(rows) / sizeof(rows[0]); }

std::uint16_t section_since_minor(std::uint32_t tag) noexcept {
    switch (tag) {
        case fmt::tag::preprocess:
        case fmt::tag::task:
        case fmt::tag::head:
        case fmt::tag::bias:
        case fmt::tag::labels: return 1;
        case fmt::tag::gaussian_diagonal:
        case fmt::tag::landmark_norms:
        case fmt::tag::kernel_inverse_root: return 2;
        case fmt::tag::head_int8:
        case fmt::tag::head_scales: return 3;
        default: return 0;
    }
}

}  // namespace kfm::detail
