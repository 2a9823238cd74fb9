// The section table: one row per section the format defines, saying how it is stored, what its elements
// must satisfy, which projections may carry it, who may read it in an open map and which minor version
// introduced it. The writer (offline/io/serialize.cpp), the container checks (runtime/verify_container.cpp)
// and the open map's section views (runtime/map_state.hpp) are all driven by it, so adding a section is one
// tag in format.hpp, one value of `section` and one row here (docs/architecture.md, "How to add a section").
#pragma once
#include <cstddef>
#include <cstdint>

#include "kfm/format.hpp"

namespace kfm::detail {

// What every element of a section must satisfy, checked for all maps at open (projections add their own
// range checks, e.g. indices < d).
enum class element_rule : std::uint8_t {
    any,     // integers and bits: ranges depend on the projection
    finite,  // floating point: no NaN or Inf
};

// Who may look a section up in an open map.
enum class section_access : std::uint8_t {
    shared,  // every stage: the pipeline, the model, the bounds and every projection that carries it
    own,     // only the projections of the row's `projections` column: their private data
};

// The rows, in table order: an open map keeps one view per row, indexed by this value.
enum class section : std::uint8_t {
    meta, segments, kernel_params, dense, scales, weights, phases, constants, signs, indices, frequencies,
    twiddles, butterfly, permutation, groups, gaussian_diagonal, landmark_norms, kernel_inverse_root,
    preprocess, task, head, head_int8, head_scales, bias, labels, label_type,
};

struct section_row {
    section id;
    std::uint32_t tag;
    format::dtype type;
    std::uint32_t record_bytes;  // dtype::record only
    element_rule rule;
    std::uint32_t projections;   // projection_bit of every projection that may carry it
    section_access access;
    std::uint16_t since_minor;   // the format minor version that introduced it (0: the 1.0 sections)
};

constexpr std::uint32_t projection_bit(format::projection p) { return 1u << static_cast<unsigned>(p); }
// The feature stage (segments, per-argument arrays, constants), the kernel parameters and the model serve
// every projection.
inline constexpr std::uint32_t every_projection = ~0u;

namespace section_columns {
namespace fmt = kfm::format;
using fmt::dtype;
using fmt::projection;
constexpr element_rule any = element_rule::any, finite = element_rule::finite;
constexpr section_access shared = section_access::shared, own = section_access::own;
constexpr std::uint32_t all = every_projection;
constexpr std::uint32_t dense = projection_bit(projection::dense);
constexpr std::uint32_t ssf = projection_bit(projection::ssf_fft);
constexpr std::uint32_t sketch = projection_bit(projection::count_sketch_fft);
constexpr std::uint32_t hadamard = projection_bit(projection::hadamard);
constexpr std::uint32_t fastfood = projection_bit(projection::fastfood);
constexpr std::uint32_t landmarks = projection_bit(projection::kernel_landmarks);
constexpr std::uint32_t butterflies =
    projection_bit(projection::butterfly_simplex) | projection_bit(projection::butterfly_blocks);

inline constexpr section_row rows[] = {
    // id                           tag                         dtype          record bytes              rule    projections                           access  minor
    {section::meta,                fmt::tag::meta,                dtype::record, sizeof(fmt::map_meta),        any,    all,                                   shared, 0},
    {section::segments,            fmt::tag::segments,            dtype::record, sizeof(fmt::feature_segment), any,    all,                                   shared, 0},
    {section::kernel_params,       fmt::tag::kernel_params,       dtype::f64,    0,                            finite, all,                                   shared, 0},
    {section::dense,               fmt::tag::dense,               dtype::f32,    0,                            finite, dense | landmarks,                     shared, 0},
    {section::scales,              fmt::tag::scales,              dtype::f32,    0,                            finite, all,                                   shared, 0},
    {section::weights,             fmt::tag::weights,             dtype::f32,    0,                            finite, all,                                   shared, 0},
    {section::phases,              fmt::tag::phases,              dtype::f32,    0,                            finite, all,                                   shared, 0},
    {section::constants,           fmt::tag::constants,           dtype::f32,    0,                            finite, all,                                   shared, 0},
    {section::signs,               fmt::tag::signs,               dtype::bits,   0,                            any,    ssf | hadamard | sketch | fastfood,    shared, 0},
    {section::indices,             fmt::tag::indices,             dtype::u32,    0,                            any,    sketch | hadamard,                     shared, 0},
    {section::frequencies,         fmt::tag::frequencies,         dtype::bits,   0,                            any,    ssf,                                   shared, 0},
    {section::twiddles,            fmt::tag::twiddles,            dtype::f32,    0,                            finite, ssf | sketch,                          shared, 0},
    {section::butterfly,           fmt::tag::butterfly,           dtype::f32,    0,                            finite, butterflies,                           own,    0},
    {section::permutation,         fmt::tag::permutation,         dtype::u32,    0,                            any,    butterflies | fastfood,                shared, 0},
    {section::groups,              fmt::tag::groups,              dtype::u32,    0,                            any,    all,                                   shared, 0},
    {section::gaussian_diagonal,   fmt::tag::gaussian_diagonal,   dtype::f32,    0,                            finite, fastfood,                              own,    2},
    {section::landmark_norms,      fmt::tag::landmark_norms,      dtype::f32,    0,                            finite, landmarks,                             own,    2},
    {section::kernel_inverse_root, fmt::tag::kernel_inverse_root, dtype::f32,    0,                            finite, landmarks,                             own,    2},
    // The model sections (verify_model.cpp).
    {section::preprocess,          fmt::tag::preprocess,          dtype::f32,    0,                            finite, all,                                   shared, 1},
    {section::task,                fmt::tag::task,                dtype::record, sizeof(fmt::model_task),      any,    all,                                   shared, 1},
    {section::head,                fmt::tag::head,                dtype::f32,    0,                            finite, all,                                   shared, 1},
    {section::head_int8,           fmt::tag::head_int8,           dtype::i8,     0,                            any,    all,                                   shared, 3},
    {section::head_scales,         fmt::tag::head_scales,         dtype::f32,    0,                            finite, all,                                   shared, 3},
    {section::bias,                fmt::tag::bias,                dtype::f32,    0,                            finite, all,                                   shared, 1},
    {section::labels,              fmt::tag::labels,              dtype::i32,    0,                            any,    all,                                   shared, 1},
    {section::label_type,          fmt::tag::label_type,          dtype::u8,     0,                            any,    all,                                   shared, 4},
};
}  // namespace section_columns

inline constexpr const section_row* section_rows = section_columns::rows;
constexpr std::size_t section_row_count() noexcept { return sizeof(section_columns::rows) / sizeof(section_row); }

// Room for rows in an open map's state (runtime/map_state.hpp sizes its views by it and checks that the
// state still fits kfm::map's storage): rows up to this number cost no room in the public ABI.
inline constexpr std::size_t max_section_rows = 40;
static_assert(section_row_count() <= max_section_rows, "raise max_section_rows (map_state.hpp checks the room)");

constexpr bool rows_follow_section_order() noexcept {
    for (std::size_t i = 0; i < section_row_count(); ++i)
        if (static_cast<std::size_t>(section_rows[i].id) != i) return false;
    return true;
}
static_assert(rows_follow_section_order(), "row i describes section value i");

constexpr const section_row& row_of(section s) noexcept { return section_rows[static_cast<std::size_t>(s)]; }

// The row for `tag`, or null for a tag this version does not know.
const section_row* find_section(std::uint32_t tag) noexcept;
// The format minor version that introduced `tag` (0 for the 1.0 sections and for unknown tags): a file of
// an older minor cannot carry it (its writer did not know the tag), and the writer stamps the newest one
// it uses.
std::uint16_t section_since_minor(std::uint32_t tag) noexcept;

// The C++ element type of a section's views: the dtype's, or the record's struct (one specialisation per
// record row below).
template <format::dtype> struct dtype_element;
template <> struct dtype_element<format::dtype::u8> { using type = std::uint8_t; };
template <> struct dtype_element<format::dtype::u16> { using type = std::uint16_t; };
template <> struct dtype_element<format::dtype::u32> { using type = std::uint32_t; };
template <> struct dtype_element<format::dtype::i32> { using type = std::int32_t; };
template <> struct dtype_element<format::dtype::f32> { using type = float; };
template <> struct dtype_element<format::dtype::f64> { using type = double; };
template <> struct dtype_element<format::dtype::bits> { using type = std::uint8_t; };  // packed, LSB first
template <> struct dtype_element<format::dtype::i8> { using type = std::int8_t; };

template <section S> struct section_element { using type = typename dtype_element<row_of(S).type>::type; };
template <> struct section_element<section::meta> { using type = format::map_meta; };
template <> struct section_element<section::segments> { using type = format::feature_segment; };
template <> struct section_element<section::task> { using type = format::model_task; };
template <section S> using section_element_t = typename section_element<S>::type;

}  // namespace kfm::detail
