// The dense projection: t = W x with W (projection_dim x work_dim, row-major) stored in the DENS section.
// Used by rff, rff-phase, orf, qmc and the dense-direction variants of other methods.
#include "kernels/kernel_table.hpp"
#include "runtime/projection.hpp"
#include "runtime/work_bound.hpp"

namespace kfm::detail {
namespace {

status dense_verify(const map_state& map) {
    if (!map.view<section::dense>().present()) return status::missing_section;
    const std::uint64_t expected = std::uint64_t(map.meta->projection_dim) * map.meta->work_dim;
    // Values are finite: the section table's element rule.
    return map.view<section::dense>().count == expected ? status::ok : status::bad_section_size;
}

std::size_t dense_scratch_floats(const format::map_meta&) { return 0; }

void dense_apply(const map_state& map, const float* x, float* t, float*) {
    map.kernels->gemv(map.view<section::dense>().data, map.meta->projection_dim, map.meta->work_dim, x, t);
}

#if !KFM_FIRMWARE  // the batched path (runtime/projection.hpp, KFM_BATCH_PATH)
std::size_t dense_batch_scratch_floats(const format::map_meta&, std::size_t) { return 0; }

// T = X W^T: one gemm for the batch.
void dense_apply_batch(const map_state& map, const float* x, std::size_t rows, float* t, float*) {
    const format::map_meta& m = *map.meta;
    const float* w = map.view<section::dense>().data;
    map.kernels->gemm(w, m.projection_dim, m.work_dim, x, m.work_dim, rows, t, m.projection_dim);
}
#endif  // !KFM_FIRMWARE

// One multiply-add per weight.
std::uint64_t dense_work(const map_state& map) { return std::uint64_t(map.meta->projection_dim) * map.meta->work_dim; }

// Every partial sum of W x is at most max |W| |x|_1.
template <class M>
typename M::real dense_output_bound(const map_state& map, const input_norms<typename M::real>& x) {
    return log2_magnitudes<M>::log2_max_abs(map.view<section::dense>().data, map.view<section::dense>().count) + x.one;
}

}  // namespace

extern const projection_ops dense_projection = {
    dense_verify, dense_scratch_floats, dense_apply,
    KFM_BATCH_PATH(dense_batch_scratch_floats, dense_apply_batch),
    dense_work, KFM_OUTPUT_BOUNDS(dense_output_bound)};

}  // namespace kfm::detail
