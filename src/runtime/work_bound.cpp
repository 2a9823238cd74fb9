// Work model and cost bound of a transform (see the header).
#include "runtime/work_bound.hpp"

#include "format/bits.hpp"
#include "runtime/kernel_selection.hpp"
#include "runtime/projection.hpp"

namespace kfm::detail {
namespace {

namespace fmt = kfm::format;

std::uint64_t feature_work(const map_state& map) {
    std::uint64_t work = map.view<section::constants>().count;
    const section_view<fmt::feature_segment> segments = map.view<section::segments>();
    for (std::uint64_t i = 0; i < segments.count; ++i) {
        const fmt::feature_segment& s = segments[i];
        // Products read each entry of their groups once: the offsets are non-decreasing in [0, proj_count], or
        // with indexed rows in [0, INDX count] (verify_map).
        // Block products read their k = proj_count / block_size factor rows per feature; complex ones their
        // 2k rows (k = proj_count / (2 block_size) factors) and write two outputs.
        if ((s.flags & fmt::segment_flag_block_product) != 0)
            work += std::uint64_t(s.arg_count) * (2 + s.proj_count / map.meta->block_size);
        else if (block_products_kept() && (s.flags & fmt::segment_flag_complex_block_product) != 0)
            work += std::uint64_t(s.arg_count) * (4 + s.proj_count / map.meta->block_size);
        else if (s.nonlinearity == static_cast<std::uint32_t>(fmt::nonlinearity::product)) {
            const bool indexed = (s.flags & fmt::segment_flag_indexed_rows) != 0;
            const std::uint32_t* g = map.view<section::groups>().data + s.group_index;
            work += 2 * std::uint64_t(s.arg_count) + (indexed ? std::uint64_t(g[s.arg_count] - g[0]) : s.proj_count);
        } else
            work += 2 * std::uint64_t(s.arg_count);
    }
    return work;
}

}  // namespace

std::uint64_t transform_work(const map_state& map) noexcept {
    const fmt::map_meta& m = *map.meta;
    // The gaussian prefactor: the input's squared norm, one exp, every output scaled.
    const std::uint64_t prefactor = (m.flags & fmt::meta_flag_gaussian_prefactor) != 0 ? std::uint64_t(m.input_dim) + m.output_dim : 0;
    return std::uint64_t(m.input_dim) + m.work_dim + map.ops->work(map) + feature_work(map) + prefactor;
}

std::uint64_t work_limit(const map_state& map, std::uint64_t file_bytes) noexcept {
    const fmt::map_meta& m = *map.meta;
    std::uint64_t largest = m.work_dim > m.projection_dim ? m.work_dim : m.projection_dim;
    if (m.block_size > largest) largest = m.block_size;
    const std::uint64_t size = file_bytes + m.input_dim + m.work_dim + m.projection_dim + m.output_dim;
    return work_constant * size * (1 + ceil_log2(largest));
}

}  // namespace kfm::detail
