// Verification of the butterfly angle and permutation sections and the per-block network call (see the header).
#include "runtime/butterfly_sections.hpp"

#include <cmath>
#include <cstring>

#include "kernels/kernel_table.hpp"
#include "runtime/bits.hpp"
#include "runtime/checked.hpp"

namespace kfm::detail {

status verify_butterfly_sections(const map_state& map) noexcept {
    const auto& m = *map.meta;
    const std::uint32_t d = m.work_dim;
    if (d == 0 || m.block_count == 0 || m.repeats == 0) return status::bad_meta;
    const unsigned log2_d2 = ceil_log2(d);
    if (log2_d2 > 31 || m.block_size != (std::uint64_t(1) << log2_d2)) return status::bad_meta;

    std::uint64_t cs_floats = 0, perm_count = 0;
    if (!checked_mul(m.block_count, 2 * (std::uint64_t(m.block_size) - 1), &cs_floats) ||
        !checked_mul(m.block_count, d, &perm_count))
        return status::bad_meta;
    if ((cs_floats != 0 && map.butterfly == nullptr) || map.permutation == nullptr)
        return status::missing_section;
    if (map.butterfly_count != cs_floats || map.permutation_count != perm_count)
        return status::bad_section_size;
    for (std::uint64_t i = 0; i < cs_floats; ++i)
        if (!std::isfinite(map.butterfly[i]) || std::fabs(map.butterfly[i]) > 1.0f)
            return status::bad_parameter_value;
    for (std::uint64_t i = 0; i < perm_count; ++i)
        if (map.permutation[i] >= d) return status::index_out_of_range;
    return status::ok;
}

void apply_butterfly_block(const map_state& map, std::uint32_t k, const float* x, float* y, float* scratch) noexcept {
    const auto& m = *map.meta;
    const std::uint32_t d = m.work_dim;
    const std::size_t cs_stride = 2 * (std::size_t(m.block_size) - 1);
    std::memcpy(y, x, sizeof(float) * d);  // the kernel works in place
    map.kernels->butterfly(y, d, ceil_log2(d), map.butterfly + k * cs_stride,
                           map.permutation + std::size_t(k) * d, m.repeats, false, scratch);
}

}  // namespace kfm::detail
