// The dense projection: t = W x with W (projection_dim x work_dim, row-major) stored in the DENS section.
// Used by rff, rff-phase, orf, qmc and the dense-direction variants of other methods.
#include "kernels/kernel_table.hpp"
#include "runtime/projection.hpp"

namespace kfm::detail {
namespace {

status dense_verify(const map_state& map) {
    if (map.dense == nullptr) return status::missing_section;
    const std::uint64_t expected = std::uint64_t(map.meta->projection_dim) * map.meta->work_dim;
    // Values are finite: the section table's element rule.
    return map.dense_count == expected ? status::ok : status::bad_section_size;
}

std::size_t dense_scratch_floats(const format::map_meta&) { return 0; }

void dense_apply(const map_state& map, const float* x, float* t, float*) {
    map.kernels->gemv(map.dense, map.meta->projection_dim, map.meta->work_dim, x, t);
}

#if !KFM_FIRMWARE  // the batched path (runtime/projection.hpp, KFM_BATCH_PATH)
std::size_t dense_batch_scratch_floats(const format::map_meta&, std::size_t) { return 0; }

// T = X W^T: one gemm for the batch.
void dense_apply_batch(const map_state& map, const float* x, std::size_t rows, float* t, float*) {
    const format::map_meta& m = *map.meta;
    map.kernels->gemm(map.dense, m.projection_dim, m.work_dim, x, m.work_dim, rows, t, m.projection_dim);
}
#endif  // !KFM_FIRMWARE

}  // namespace

extern const projection_ops dense_projection = {dense_verify, dense_scratch_floats, dense_apply,
                                                KFM_BATCH_PATH(dense_batch_scratch_floats, dense_apply_batch)};

}  // namespace kfm::detail
