// Work model and cost bound of a transform (see the header).
#include "runtime/work_bound.hpp"

#include "format/bits.hpp"

namespace kfm::detail {
namespace {

namespace fmt = kfm::format;

// n log2 n for a transform of length n (at least n).
std::uint64_t transform_cost(std::uint64_t n) { return n * (ceil_log2(n) > 0 ? ceil_log2(n) : 1); }

// Every count is bounded at open (dims by max_dim, repeats and sketches by the format's limits, blocks by
// projection_dim), so none of these products can overflow 64 bits.
std::uint64_t projection_work(const map_state& map) {
    const fmt::map_meta& m = *map.meta;
    const std::uint64_t w = m.work_dim, p = m.projection_dim, n = m.block_size, blocks = m.block_count;
    switch (static_cast<fmt::projection>(m.projection)) {
#if KFM_PROJECTION_DENSE
        case fmt::projection::dense: return p * w;
#endif
#if KFM_PROJECTION_HADAMARD
        case fmt::projection::hadamard: return blocks * (3 * (transform_cost(n) + n) + 2 * n);
#endif
#if KFM_PROJECTION_BUTTERFLY_BLOCKS
        case fmt::projection::butterfly_blocks:
            return blocks * (m.repeats * (transform_cost(n) + w) + 2 * w);
#endif
#if KFM_PROJECTION_BUTTERFLY_SIMPLEX
        case fmt::projection::butterfly_simplex:
            return blocks * (m.repeats * (transform_cost(n) + w) + 3 * (w + 1)) + 2 * w;
#endif
#if KFM_PROJECTION_SSF_FFT
        case fmt::projection::ssf_fft: return 2 * w + blocks * 2 * (n + transform_cost(n)) + p;
#endif
#if KFM_PROJECTION_COUNT_SKETCH_FFT
        case fmt::projection::count_sketch_fft: return blocks * (4 * n + w + 2 * transform_cost(n)) + 2 * transform_cost(n) + n;
#endif
#if KFM_PROJECTION_FASTFOOD
        case fmt::projection::fastfood: return blocks * (2 * (transform_cost(n) + n) + 3 * n);
#endif
#if KFM_PROJECTION_KERNEL_LANDMARKS
        // |x|^2, the dot products with the landmarks, exp per landmark (counted 8), then M k.
        case fmt::projection::kernel_landmarks: return w + p * w + 8 * p + p * p;
#endif
        default: break;  // a kind this build leaves out (projection_registry.cpp): open refuses its maps
    }
    return 0;  // unreachable: verify_map refuses unknown projections
}

std::uint64_t feature_work(const map_state& map) {
    std::uint64_t work = map.view<section::constants>().count;
    const section_view<fmt::feature_segment> segments = map.view<section::segments>();
    for (std::uint64_t i = 0; i < segments.count; ++i) {
        const fmt::feature_segment& s = segments[i];
        // Products read each projection of their groups once (the offsets are non-decreasing in [0, proj_count]).
        if (s.nonlinearity == static_cast<std::uint32_t>(fmt::nonlinearity::product))
            work += 2 * std::uint64_t(s.arg_count) + s.proj_count;
        else
            work += 2 * std::uint64_t(s.arg_count);
    }
    return work;
}

}  // namespace

std::uint64_t transform_work(const map_state& map) noexcept {
    const fmt::map_meta& m = *map.meta;
    return std::uint64_t(m.input_dim) + m.work_dim + projection_work(map) + feature_work(map);
}

std::uint64_t work_limit(const map_state& map, std::uint64_t file_bytes) noexcept {
    const fmt::map_meta& m = *map.meta;
    std::uint64_t largest = m.work_dim > m.projection_dim ? m.work_dim : m.projection_dim;
    if (m.block_size > largest) largest = m.block_size;
    const std::uint64_t size = file_bytes + m.input_dim + m.work_dim + m.projection_dim + m.output_dim;
    return work_constant * size * (1 + ceil_log2(largest));
}

}  // namespace kfm::detail
