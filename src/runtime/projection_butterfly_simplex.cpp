// The quadrature projection (SR(3,3) rules, docs methods.md): for each rule k, y = M_k x with the
// butterfly network of the rule (apply_butterfly_block), then the d+1 simplex projections V^T y in O(d)
// with a running sum, written to t[k (d+1) ..]. The point for t_j is Q_k v_j with Q_k = M_k^T;
// radii, weights and the arccos reflections are applied by the feature stage.
#include <cmath>
#include <cstdint>

#include "runtime/butterfly_sections.hpp"
#include "runtime/projection.hpp"

namespace kfm::detail {
namespace {

status butterfly_simplex_verify(const map_state& map) {
    const auto& m = *map.meta;
    if (m.work_dim != m.input_dim) return status::bad_meta;
    if (std::uint64_t(m.block_count) * (std::uint64_t(m.work_dim) + 1) != m.projection_dim)
        return status::bad_meta;
    return verify_butterfly_sections(map);
}

// The scratch holds four buffers of d floats, each starting on a 64-byte boundary: the kernel's scratch,
// the network output y, and the simplex coefficients r_j and (d-j) r_j (computed once per call, shared by
// all rules). The network runs in the aligned y rather than in t: libc's memcpy of x into a destination a
// few bytes past x's page offset (t + k (d+1)) is several times slower on some CPUs.
std::size_t padded(std::uint32_t d) { return (std::size_t(d) + 15) / 16 * 16; }
std::size_t butterfly_simplex_scratch_floats(const format::map_meta& meta) { return 4 * padded(meta.work_dim); }

// 1/sqrt(L (L+1)) in double: 1/(L + 1/2) is within 6% (at L = 1), and six Newton steps reach double
// rounding (6e-2 -> 5e-3 -> 4e-5 -> 2e-9 -> ...). constexpr, so the table below costs nothing at run time.
constexpr double inv_sqrt_pair(double left) {
    const double product = left * (left + 1.0);
    double inv = 1.0 / (left + 0.5);
    for (int step = 0; step < 6; ++step) inv = inv * (1.5 - 0.5 * product * inv * inv);
    return inv;
}

// inv_sqrt_pair(L) for L = 1 .. table_dims, stored by descending L (entry i holds L = table_dims - i) so
// that for d <= table_dims the entries of j = 0 .. d-1 (L = d - j) are contiguous from table_dims - d.
// Computing them per call (a division and square root per row) cost as much as a rule's simplex stage.
constexpr std::uint32_t table_dims = 4096;
struct inv_sqrt_pair_table {
    float value[table_dims];
};
constexpr inv_sqrt_pair_table make_inv_sqrt_pair_table() {
    inv_sqrt_pair_table t{};
    for (std::uint32_t i = 0; i < table_dims; ++i) t.value[i] = float(inv_sqrt_pair(double(table_dims - i)));
    return t;
}
constexpr inv_sqrt_pair_table inv_sqrt_pairs = make_inv_sqrt_pair_table();

// r[j] = r_j, the entry scale of row j of V (docs methods.md): sqrt((d+1)/d) / sqrt(L (L+1)) with
// L = d - j, and diag[j] = L r_j. Beyond the table, the float Newton iteration from 1/(L + 1/2) (three
// steps: below float rounding), which vectorises, unlike a libm sqrt (errno).
void simplex_coefficients(std::uint32_t d, float* __restrict r, float* __restrict diag) {
    const float scale = float(std::sqrt((double(d) + 1.0) / double(d)));
    const std::uint32_t computed = d > table_dims ? d - table_dims : 0;  // rows with L > table_dims
    for (std::uint32_t j = 0; j < computed; ++j) {
        const float left = float(std::int32_t(d - j));  // d <= 2^24 (verify.hpp max_dim)
        const float product = left * (left + 1.0f);
        float inv = 1.0f / (left + 0.5f);
        for (int step = 0; step < 3; ++step) inv = inv * (1.5f - 0.5f * product * inv * inv);
        r[j] = scale * inv;
    }
    const std::uint32_t tabled = d - computed;
    const float* __restrict from = inv_sqrt_pairs.value + (table_dims - tabled);  // L = tabled .. 1
    float* __restrict to = r + computed;
    for (std::uint32_t i = 0; i < tabled; ++i) to[i] = scale * from[i];
    for (std::uint32_t j = 0; j < d; ++j) diag[j] = float(std::int32_t(d - j)) * r[j];
}

// t[0..d] = V^T y: column j of V has (d-j) r_j in row j and -r_i in every row i < j, so
// t_j = (d-j) r_j y_j - sum_{i<j} r_i y_i and t_d = -sum_i r_i y_i. The running sum is the one serial
// part; it runs as four independent chains over four segments of t (then offset by the segments before),
// and the other two passes vectorise.
void simplex_project(const float* __restrict y, std::uint32_t d, const float* __restrict r,
                     const float* __restrict diag, float* __restrict t) {
    constexpr std::uint32_t chains = 4;
    for (std::uint32_t j = 0; j < d; ++j) t[j] = r[j] * y[j];
    // t[j] <- exclusive prefix sum of r_i y_i within j's segment (the last segment takes the remainder)
    const std::uint32_t len = d / chains;
    float total[chains] = {};
    for (std::uint32_t i = 0; i < len; ++i)
        for (std::uint32_t c = 0; c < chains; ++c) {
            const float ry = t[c * len + i];
            t[c * len + i] = total[c];
            total[c] += ry;
        }
    for (std::uint32_t j = chains * len; j < d; ++j) {
        const float ry = t[j];
        t[j] = total[chains - 1];
        total[chains - 1] += ry;
    }
    float before = 0.0f;  // sum of r_i y_i over the earlier segments
    for (std::uint32_t c = 0; c < chains; ++c) {
        const std::uint32_t begin = c * len, count = c + 1 < chains ? len : d - begin;
        float* __restrict ts = t + begin;
        const float* __restrict ys = y + begin;
        const float* __restrict ds = diag + begin;
        for (std::uint32_t i = 0; i < count; ++i) ts[i] = ds[i] * ys[i] - (before + ts[i]);
        before += total[c];
    }
    t[d] = -before;
}

void butterfly_simplex_apply(const map_state& map, const float* x, float* t, float* scratch) {
    const auto& m = *map.meta;
    const std::uint32_t d = m.work_dim;
    float* y = scratch + padded(d);
    float* r = y + padded(d);
    float* diag = r + padded(d);
    simplex_coefficients(d, r, diag);
    for (std::uint32_t k = 0; k < m.block_count; ++k) {
        apply_butterfly_block(map, k, x, y, scratch);
        simplex_project(y, d, r, diag, t + std::size_t(k) * (d + 1));
    }
}

}  // namespace

extern const projection_ops butterfly_simplex_projection = {
    butterfly_simplex_verify, butterfly_simplex_scratch_floats, butterfly_simplex_apply, nullptr, nullptr};

}  // namespace kfm::detail
