// Verification of the butterfly angle and permutation sections and the per-block network call (see the header).
#include "runtime/butterfly_sections.hpp"

#include <cmath>
#include <cstring>

#include "kernels/kernel_table.hpp"
#include "format/bits.hpp"
#include "format/checked.hpp"

namespace kfm::detail {

namespace {
constexpr double rotation_tolerance = 1.0 / (1 << 20);

// BFLY is the butterfly projections' own section; this file is their shared code.
section_view<float> angles(const map_state& map) {
    return map.own_view<format::projection::butterfly_simplex, section::butterfly>();
}
}  // namespace

status verify_butterfly_sections(const map_state& map) noexcept {
    const auto& m = *map.meta;
    const std::uint32_t d = m.work_dim;
    if (d == 0 || m.block_count == 0 || m.repeats == 0 || m.repeats > format::max_butterfly_repeats)
        return status::bad_meta;
    const unsigned log2_d2 = ceil_log2(d);
    if (log2_d2 > 31 || m.block_size != (std::uint64_t(1) << log2_d2)) return status::bad_meta;

    std::uint64_t cs_floats = 0, perm_count = 0;
    if (!checked_mul(m.block_count, 2 * (std::uint64_t(m.block_size) - 1), &cs_floats) ||
        !checked_mul(m.block_count, d, &perm_count))
        return status::bad_meta;
    const section_view<float> cs = angles(map);
    const section_view<std::uint32_t> perm = map.view<section::permutation>();
    if ((cs_floats != 0 && !cs.present()) || !perm.present()) return status::missing_section;
    if (cs.count != cs_floats || perm.count != perm_count) return status::bad_section_size;
    // Each (cos, sin) pair is a rotation: c^2 + s^2 = 1 up to the rounding of two floats (2^-23), so every
    // level is orthogonal and no network can grow its input (NaN and Inf fail the test too).
    for (std::uint64_t i = 0; i < cs_floats; i += 2) {
        const double c = cs[i], s = cs[i + 1];
        if (!(std::fabs(c * c + s * s - 1.0) <= rotation_tolerance)) return status::bad_parameter_value;
    }
    for (std::uint64_t i = 0; i < perm_count; ++i)
        if (perm[i] >= d) return status::index_out_of_range;
    return status::ok;
}

void apply_butterfly_block(const map_state& map, std::uint32_t k, const float* x, float* y, float* scratch) noexcept {
    const auto& m = *map.meta;
    const std::uint32_t d = m.work_dim;
    const std::size_t cs_stride = 2 * (std::size_t(m.block_size) - 1);
    std::memcpy(y, x, sizeof(float) * d);  // the kernel works in place
    map.kernels->butterfly(y, d, ceil_log2(d), angles(map).data + k * cs_stride,
                           map.view<section::permutation>().data + std::size_t(k) * d, m.repeats, false, scratch);
}

}  // namespace kfm::detail
