// The quadrature projection (SR(3,3) rules, docs methods.md): for each rule k, y = M_k x with the
// butterfly network of the rule (kernels->butterfly), then the d+1 simplex projections V^T y in O(d)
// with a running sum, written in place into t[k (d+1) ..]. The point for t_j is Q_k v_j with Q_k = M_k^T;
// radii, weights and the arccos reflections are applied by the feature stage.
#include <cmath>
#include <cstring>

#include "kernels/kernel_table.hpp"
#include "runtime/butterfly_sections.hpp"
#include "runtime/projection.hpp"

namespace kfm::detail {
namespace {

status butterfly_simplex_verify(const map_view& map) {
    const auto& m = *map.meta;
    if (m.work_dim != m.input_dim) return status::bad_meta;
    if (std::uint64_t(m.block_count) * (std::uint64_t(m.work_dim) + 1) != m.projection_dim)
        return status::bad_meta;
    return verify_butterfly_sections(map);
}

// The kernel's scratch (d floats), then the simplex row scales r_j (d floats), computed once per call
// and shared by all rules.
std::size_t butterfly_simplex_scratch_floats(const format::map_meta& meta) { return 2 * std::size_t(meta.work_dim); }

// r[j] = r_j, the entry scale of row j of V (docs methods.md).
void simplex_scales(std::uint32_t d, float* r) {
    const double scale = std::sqrt((double(d) + 1.0) / double(d));
    for (std::uint32_t j = 0; j < d; ++j) {
        const double left = double(d - j);  // >= 1
        r[j] = float(scale / std::sqrt(left * (left + 1.0)));
    }
}

// t[0..d] = V^T y for y = t[0..d): column j of V has (d-j) r_j in row j and -r_i in every row i < j,
// so t_j = (d-j) r_j y_j - sum_{i<j} r_i y_i; reading y_j before writing t_j makes it in place.
void simplex_in_place(float* t, std::uint32_t d, const float* r) {
    float below = 0.0f;
    for (std::uint32_t j = 0; j < d; ++j) {
        const float ry = r[j] * t[j];
        t[j] = float(d - j) * ry - below;
        below += ry;
    }
    t[d] = -below;
}

void butterfly_simplex_apply(const map_view& map, const float* x, float* t, float* scratch) {
    const auto& m = *map.meta;
    const std::uint32_t d = m.work_dim;
    const unsigned log2_d2 = butterfly_log2_d2(d);
    const std::size_t cs_stride = 2 * (std::size_t(m.block_size) - 1);
    float* r = scratch + d;
    simplex_scales(d, r);
    for (std::uint32_t k = 0; k < m.block_count; ++k) {
        float* y = t + std::size_t(k) * (d + 1);
        std::memcpy(y, x, sizeof(float) * d);
        map.kernels->butterfly(y, d, log2_d2, map.butterfly + k * cs_stride, map.permutation + std::size_t(k) * d,
                               m.repeats, false, scratch);
        simplex_in_place(y, d, r);
    }
}

}  // namespace

extern const projection_ops butterfly_simplex_projection = {
    butterfly_simplex_verify, butterfly_simplex_scratch_floats, butterfly_simplex_apply, nullptr, nullptr};

}  // namespace kfm::detail
