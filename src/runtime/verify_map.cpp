// Map-level verification, after the container checks: map_meta fields and their consistency, kernel
// parameters, and the feature segments (ranges inside
// the projections and outputs, outputs covered exactly once, index ranges inside their sections).
#include <cmath>
#include <cstring>

#include "kernels/nonlinearity_selection.hpp"
#include "format/checked.hpp"
#include "runtime/kernel_selection.hpp"
#include "runtime/projection.hpp"
#include "runtime/verify.hpp"

namespace kfm::detail {
namespace {

namespace fmt = kfm::format;

bool bytes_zero(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    for (std::size_t i = 0; i < n; ++i)
        if (b[i] != 0) return false;
    return true;
}

bool dim_ok(std::uint32_t d) { return d > 0 && d <= max_dim; }

status check_kernel(const map_state& v) {
    const fmt::map_meta& m = *v.meta;
    switch (static_cast<fmt::kernel>(m.kernel)) {
        case fmt::kernel::gaussian:
            if (!(m.kernel_sigma > 0.0)) return status::bad_parameter_value;
            break;
        case fmt::kernel::arccos:
            if (m.kernel_order > 2) return status::bad_parameter_value;
            break;
        case fmt::kernel::polynomial_sphere:
            if (!(m.kernel_scale > 0.0)) return status::bad_parameter_value;
            break;
        case fmt::kernel::delta_gaussian:
            if (m.mixture_count == 0) return status::bad_meta;
            break;
        case fmt::kernel::matern:              // length l and nu
        case fmt::kernel::rational_quadratic:  // length l and alpha
            if (!(m.kernel_sigma > 0.0) || !(m.kernel_scale > 0.0)) return status::bad_parameter_value;
            break;
        case fmt::kernel::laplacian:
            if (!(m.kernel_sigma > 0.0)) return status::bad_parameter_value;
            break;
        default: return status::unknown_kernel;
    }
    // kernel_params holds mixture_count weights then mixture_count sigmas (and nothing otherwise).
    if (v.view<section::kernel_params>().count != 2ull * m.mixture_count) return status::bad_section_size;
    for (std::uint32_t i = 0; i < m.mixture_count; ++i) {
        const double c = v.view<section::kernel_params>()[i];
        const double sigma = v.view<section::kernel_params>()[m.mixture_count + i];
        if (!std::isfinite(c) || !std::isfinite(sigma) || !(sigma > 0.0)) return status::bad_parameter_value;
    }
    return status::ok;
}

status check_meta(const map_state& v) {
    const fmt::map_meta& m = *v.meta;
    if (m.method < 1 || m.method > fmt::method_last)
        return status::unknown_method;
    if (m.kernel < 1 || m.kernel > static_cast<std::uint32_t>(fmt::kernel::laplacian))
        return status::unknown_kernel;
    if (projection_ops_for(m.projection) == nullptr) return status::unknown_projection;
    if ((m.flags & ~fmt::meta_flags_known) != 0) return status::bad_meta;
    // The gaussian prefactor is built with the identity nonlinearity (transform.cpp).
    if ((m.flags & fmt::meta_flag_gaussian_prefactor) != 0 && !nonlinearity_built(fmt::nonlinearity::identity))
        return status::unknown_nonlinearity;
    if (!bytes_zero(m.reserved_u32, sizeof(m.reserved_u32)) || !bytes_zero(m.reserved_f64, sizeof(m.reserved_f64)))
        return status::bad_meta;
    if (!dim_ok(m.input_dim) || !dim_ok(m.work_dim) || !dim_ok(m.projection_dim) || !dim_ok(m.output_dim))
        return status::bad_meta;
    if (m.work_dim < m.input_dim || m.negative_dim > m.output_dim) return status::bad_meta;
    if (m.output_convention < 1 || m.output_convention > static_cast<std::uint32_t>(fmt::output_convention::real))
        return status::bad_meta;
    if (!std::isfinite(m.kernel_sigma) || !std::isfinite(m.kernel_scale) || !std::isfinite(m.input_append))
        return status::bad_parameter_value;
    // The appended value needs a slot after the input.
    if (m.input_append != 0.0 && m.work_dim == m.input_dim) return status::bad_meta;
    return check_kernel(v);
}

// The constants fit the outputs (their values are finite: the section table's element rule).
status check_constants(const map_state& v) {
    return v.view<section::constants>().count > v.meta->output_dim ? status::bad_section_size : status::ok;
}

// [index, index + n) inside a section of `count` elements (no_index: nothing to check).
bool index_range_ok(std::uint32_t index, std::uint64_t n, std::uint64_t count) {
    return index == fmt::no_index || range_inside(index, n, count);
}

bool nonlinearity_known(std::uint32_t k) {
    return k >= 1 && k <= static_cast<std::uint32_t>(fmt::nonlinearity::product);
}

// Whether a segment's nonlinearity fits the map's output convention.
bool fits_convention(fmt::nonlinearity k, std::uint32_t convention) {
    switch (static_cast<fmt::output_convention>(convention)) {
        case fmt::output_convention::paired_cos_sin: return k == fmt::nonlinearity::cos_sin;
        case fmt::output_convention::cos_phase: return k == fmt::nonlinearity::cos_phase;
        default: return k != fmt::nonlinearity::cos_sin && k != fmt::nonlinearity::cos_phase;
    }
}

// A product segment's group offsets: arg_count + 1 non-decreasing offsets inside [0, proj_count], or, with
// indexed rows, inside the INDX section, whose entries they cover are each below proj_count.
status check_groups(const map_state& v, const fmt::feature_segment& s) {
    if (s.group_index == fmt::no_index) return status::missing_section;
    if (!range_inside(s.group_index, std::uint64_t(s.arg_count) + 1, v.view<section::groups>().count))
        return status::index_out_of_range;
    const std::uint32_t* g = v.view<section::groups>().data + s.group_index;
    for (std::uint32_t j = 0; j < s.arg_count; ++j)
        if (g[j] > g[j + 1]) return status::index_out_of_range;
    if ((s.flags & fmt::segment_flag_indexed_rows) == 0) return g[s.arg_count] > s.proj_count ? status::index_out_of_range : status::ok;
    const section_view<std::uint32_t> rows = v.view<section::indices>();
    if (!rows.present()) return status::missing_section;
    if (g[s.arg_count] > rows.count) return status::index_out_of_range;
    for (std::uint32_t k = g[0]; k < g[s.arg_count]; ++k)
        if (rows[k] >= s.proj_count) return status::index_out_of_range;
    return status::ok;
}

// A block product, real (one row per factor) or complex (two): on a hadamard map (the projection whose
// build keeps the block product kernels, projection_list.def), degree k = proj_count / (rows_per_factor
// block_size) >= 1, its factor rows inside the projections (checked by the caller's proj range), at most
// block_size features, and scalar scale and weight only.
status check_block_product(const map_state& v, const fmt::feature_segment& s, std::uint32_t rows_per_factor) {
    if (v.meta->projection != static_cast<std::uint32_t>(fmt::projection::hadamard)) return status::bad_meta;
    const std::uint32_t stride = v.meta->block_size;
    if (stride == 0 || s.proj_count % stride != 0 || (s.proj_count / stride) % rows_per_factor != 0 || s.arg_count > stride)
        return status::bad_meta;
    if (s.scale_index != fmt::no_index || s.weight_index != fmt::no_index || s.group_index != fmt::no_index)
        return status::bad_meta;
    return status::ok;
}

status check_segment(const map_state& v, const fmt::feature_segment& s, std::uint64_t expected_out_begin,
                     std::uint64_t* out_end) {
    const fmt::map_meta& m = *v.meta;
    if (!nonlinearity_known(s.nonlinearity)) return status::unknown_nonlinearity;
    const auto kind = static_cast<fmt::nonlinearity>(s.nonlinearity);
    if (!nonlinearity_built(kind)) return status::unknown_nonlinearity;
    if (!fits_convention(kind, m.output_convention)) return status::bad_meta;
    // A build without block products (no hadamard projection) knows no complex block product flag, so it
    // compiles no complex block product path.
    constexpr std::uint32_t known_flags = fmt::segment_flag_reflect | fmt::segment_flag_indexed_rows | fmt::segment_flag_block_product |
                                          (block_products_kept() ? fmt::segment_flag_complex_block_product : 0);
    if ((s.flags & ~known_flags) != 0) return status::bad_meta;
    const bool reflect = (s.flags & fmt::segment_flag_reflect) != 0;
    const bool product = kind == fmt::nonlinearity::product;
    const bool block_product = (s.flags & fmt::segment_flag_block_product) != 0;
    const bool complex_block_product = (s.flags & known_flags & fmt::segment_flag_complex_block_product) != 0;
    if ((s.flags & fmt::segment_flag_indexed_rows) != 0 && (!product || block_product || complex_block_product))
        return status::bad_meta;
    if ((block_product || complex_block_product) && !product) return status::bad_meta;
    if (block_product && complex_block_product) return status::bad_meta;
    if (reflect && (kind == fmt::nonlinearity::cos_sin || kind == fmt::nonlinearity::cos_phase || product))
        return status::bad_meta;
    if (s.proj_count == 0 || s.arg_count == 0) return status::bad_meta;
    if (!product && s.arg_count % s.proj_count != 0) return status::bad_meta;
    if (!range_inside(s.proj_begin, s.proj_count, m.projection_dim)) return status::index_out_of_range;
    if (!std::isfinite(s.scale) || !std::isfinite(s.weight)) return status::bad_parameter_value;

    // Outputs: contiguous, in order, right after the previous segment.
    const std::uint64_t width =
        std::uint64_t(s.arg_count) * ((kind == fmt::nonlinearity::cos_sin || reflect || complex_block_product) ? 2 : 1);
    if (s.out_begin != expected_out_begin) return status::index_out_of_range;
    *out_end = expected_out_begin + width;

    // Per-argument arrays. A product segment scales each projection and weights each output.
    const std::uint64_t scale_n = product ? s.proj_count : s.arg_count;
    if (!index_range_ok(s.scale_index, scale_n, v.view<section::scales>().count) ||
        !index_range_ok(s.weight_index, s.arg_count, v.view<section::weights>().count))
        return status::index_out_of_range;
    const bool wants_phase = kind == fmt::nonlinearity::cos_phase;
    if (wants_phase != (s.phase_index != fmt::no_index)) return status::bad_meta;
    if (!index_range_ok(s.phase_index, s.arg_count, v.view<section::phases>().count)) return status::index_out_of_range;
    if (block_product || complex_block_product) return check_block_product(v, s, complex_block_product ? 2 : 1);
    if (product) return check_groups(v, s);
    if (s.group_index != fmt::no_index) return status::bad_meta;
    return status::ok;
}

status check_segments(const map_state& v) {
    // Segments tile [0, output_dim - constant_count) in order; the constants fill the rest.
    const std::uint64_t feature_end = v.meta->output_dim - v.view<section::constants>().count;
    std::uint64_t cursor = 0;
    const section_view<fmt::feature_segment> segments = v.view<section::segments>();
    for (std::uint64_t i = 0; i < segments.count; ++i) {
        std::uint64_t end = 0;
        if (status s = check_segment(v, segments[i], cursor, &end); s != status::ok) return s;
        if (end > feature_end) return status::index_out_of_range;
        cursor = end;
    }
    if (cursor != feature_end) return status::index_out_of_range;
    return status::ok;
}

}  // namespace

status verify_map(const map_state& view) noexcept {
    if (status s = check_meta(view); s != status::ok) return s;
    if (status s = check_constants(view); s != status::ok) return s;
    return check_segments(view);
}

}  // namespace kfm::detail
