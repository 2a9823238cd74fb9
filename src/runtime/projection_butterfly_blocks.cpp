// Stacked butterfly orthogonal blocks (structured directions for GORF/SRF): t[k d + i] = (M_k x)_i with
// M_k the butterfly network of block k (kernels->butterfly, not transposed), the stack truncated to
// projection_dim. The rows of M_k are the directions; offline, butterfly_dense_q gives Q_k = M_k^T.
#include <cstring>

#include "runtime/butterfly_sections.hpp"
#include "runtime/projection.hpp"
#include "runtime/work_bound.hpp"

namespace kfm::detail {
namespace {

status butterfly_blocks_verify(const map_state& map) {
    const auto& m = *map.meta;
    const std::uint64_t d = m.work_dim, p = m.projection_dim;
    // Every block contributes at least one projection, and the last may be truncated.
    if (p == 0 || d == 0 || p > std::uint64_t(m.block_count) * d || p <= (std::uint64_t(m.block_count) - 1) * d)
        return status::bad_meta;
    return verify_butterfly_sections(map);
}

// The kernel's scratch (d floats) plus room for a truncated last block (d floats).
std::size_t butterfly_blocks_scratch_floats(const format::map_meta& meta) { return 2 * std::size_t(meta.work_dim); }

void butterfly_blocks_apply(const map_state& map, const float* x, float* t, float* scratch) {
    const auto& m = *map.meta;
    const std::uint32_t d = m.work_dim;
    float* partial = scratch + d;
    for (std::uint32_t k = 0; k < m.block_count; ++k) {
        const std::size_t begin = std::size_t(k) * d;
        const std::size_t count = m.projection_dim - begin < d ? m.projection_dim - begin : d;
        if (count == d) {
            apply_butterfly_block(map, k, x, t + begin, scratch);
        } else {  // the network needs all d rows; keep the first `count`
            apply_butterfly_block(map, k, x, partial, scratch);
            std::memcpy(t + begin, partial, sizeof(float) * count);
        }
    }
}

// Per block: repeats butterfly passes over the padded input, and its copy in and out.
std::uint64_t butterfly_blocks_work(const map_state& map) {
    const format::map_meta& m = *map.meta;
    const std::uint64_t w = m.work_dim, n = m.block_size, blocks = m.block_count;
    return blocks * (m.repeats * (transform_cost(n) + w) + 2 * w);
}

// Rotations (verified to 2^-20): the 2-norm is kept.
template <class M>
typename M::real butterfly_blocks_output_bound(const map_state&, const input_norms<typename M::real>& x) {
    return x.two + typename M::real(1);
}

}  // namespace

extern const projection_ops butterfly_blocks_projection = {
    butterfly_blocks_verify, butterfly_blocks_scratch_floats, butterfly_blocks_apply,
    nullptr, nullptr,  // no batched path: transform_batch runs apply row by row
    butterfly_blocks_work, KFM_OUTPUT_BOUNDS(butterfly_blocks_output_bound)};

}  // namespace kfm::detail
