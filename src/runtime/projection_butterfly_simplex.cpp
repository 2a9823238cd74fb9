// The quadrature projection (SR(3,3) rules, docs/methods.md, "Quadrature"): for each rule k, y = M_k x with the
// butterfly network of the rule (the sections of runtime/butterfly_sections.hpp), then the d+1 simplex
// projections V^T y in O(d) with a running sum, both in one kernel call (kernels->butterfly_simplex_row),
// written to t[k (d+1) ..]. The point for t_j is Q_k v_j with
// Q_k = M_k^T; radii, weights and the arccos reflections are applied by the feature stage. A partial last rule (the
// builder's partial_rule: projection_dim < block_count (d+1)) is computed whole and only its first
// projections are kept. A map built with blocked permutations (format::method_flag_quadrature_blocked_permutation,
// checked at open) tells the single-vector kernel so, which on AVX2 / AVX-512 gathers eight floats at a time.
// A batch runs R = kernels->butterfly_simplex_batch_rows rows at a time interleaved (element i of row v at
// [i R + v]) through the kernel's batched network and simplex step, written back row by row. Both paths
// perform the same operations on each row (the network's rotations round alike, and butterfly_simplex_row's
// simplex step is one lane of the batched step), so a row's projections do not depend on its batch.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/kernel_table.hpp"
#include "format/bits.hpp"
#include "runtime/butterfly_sections.hpp"
#include "runtime/projection.hpp"
#include "runtime/work_bound.hpp"

namespace kfm::detail {
namespace {

// Whether the builder recorded blocked permutations (format::method_flag_quadrature_blocked_permutation).
bool blocked_permutations(const format::map_meta& m) {
    return m.method == std::uint32_t(format::method::quadrature) &&
           (m.method_flags & format::method_flag_quadrature_blocked_permutation) != 0;
}

// Whether each aligned group of eight outputs of perm (n indices, n a multiple of 8) reads one aligned group
// of eight inputs.
bool is_blocked(const std::uint32_t* perm, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i)
        if ((perm[i] ^ perm[i & ~std::uint64_t(7)]) >> 3 != 0) return false;
    return true;
}

status butterfly_simplex_verify(const map_state& map) {
    const auto& m = *map.meta;
    if (m.work_dim != m.input_dim) return status::bad_meta;
    // block_count rules, the last one holding 1 .. d+1 of its points
    const std::uint64_t rule = std::uint64_t(m.work_dim) + 1;
    if (m.block_count == 0 || m.projection_dim > std::uint64_t(m.block_count) * rule ||
        m.projection_dim <= (std::uint64_t(m.block_count) - 1) * rule)
        return status::bad_meta;
    if (const status s = verify_butterfly_sections(map); s != status::ok) return s;
    // The blocked bit selects a gather that reads whole groups of eight: a file must not claim it falsely.
    if (blocked_permutations(m)) {
        const section_view<std::uint32_t> perm = map.view<section::permutation>();
        if (m.work_dim % 8 != 0 || !is_blocked(perm.data, perm.count)) return status::bad_parameter_value;
    }
    return status::ok;
}

// The scratch holds four buffers of d floats, each starting on a 64-byte boundary: the kernel's scratch
// (two of them) and the simplex coefficients r_j and (d-j) r_j (computed once per call, shared by all
// rules); a map with a partial last rule has a fifth, of d+1 floats, for that rule's projections.
std::size_t padded(std::uint32_t d) { return (std::size_t(d) + 15) / 16 * 16; }
bool has_partial_rule(const format::map_meta& meta) {
    return meta.projection_dim < std::uint64_t(meta.block_count) * (std::uint64_t(meta.work_dim) + 1);
}
std::size_t butterfly_simplex_scratch_floats(const format::map_meta& meta) {
    return 4 * padded(meta.work_dim) + (has_partial_rule(meta) ? padded(meta.work_dim + 1) : 0);
}

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

// r[j] = r_j, the entry scale of row j of V (docs/methods.md, "The simplex"): sqrt((d+1)/d) / sqrt(L (L+1)) with
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

void butterfly_simplex_apply(const map_state& map, const float* x, float* t, float* scratch) {
    const auto& m = *map.meta;
    const std::uint32_t d = m.work_dim;
    const std::size_t cs_stride = 2 * (std::size_t(m.block_size) - 1);
    const float* cs = map.own_view<format::projection::butterfly_simplex, section::butterfly>().data;
    const std::uint32_t* perm = map.view<section::permutation>().data;
    float* r = scratch + 2 * padded(d);
    float* diag = r + padded(d);
    float* partial = diag + padded(d);
    simplex_coefficients(d, r, diag);
    // every full rule in one call, then a partial last rule whole into its own buffer
    const std::uint32_t full = has_partial_rule(m) ? m.block_count - 1 : m.block_count;
    const bool blocked = blocked_permutations(m);
    map.kernels->butterfly_simplex_row(x, t, full, d, ceil_log2(d), cs, perm, blocked, m.repeats, r, diag, scratch);
    if (full < m.block_count) {
        map.kernels->butterfly_simplex_row(x, partial, 1, d, ceil_log2(d), cs + full * cs_stride, perm + std::size_t(full) * d,
                                           blocked, m.repeats, r, diag, scratch);
        const std::size_t begin = std::size_t(full) * (d + 1);
        std::memcpy(t + begin, partial, (m.projection_dim - begin) * sizeof(float));
    }
}

#if !KFM_FIRMWARE  // the batched path (runtime/projection.hpp, KFM_BATCH_PATH)
// The batch scratch, for R rows interleaved: the rows x (d R), the rule's projections t ((d+1) R), the
// kernel's scratch (d R), then r and diag (d each). R depends on the ISA, which the meta does not name:
// sized for the widest.
struct batch_buffers {
    float *x, *t, *kernel, *r, *diag;
};
batch_buffers carve_batch(std::uint32_t d, std::size_t rows, float* scratch) {
    const std::size_t n = padded(d) * rows, n1 = padded(d + 1) * rows;
    return {scratch, scratch + n, scratch + n + n1, scratch + 2 * n + n1, scratch + 2 * n + n1 + padded(d)};
}
std::size_t butterfly_simplex_batch_scratch_floats(const format::map_meta& meta, std::size_t) {
    const std::uint32_t d = meta.work_dim;
    return (2 * padded(d) + padded(d + 1)) * max_butterfly_simplex_batch_rows + 2 * padded(d);
}

// xi[i R + v] = row v of x (d floats each, stride d) for v < count, 0 for the rows beyond.
template <std::size_t R>
void interleave_rows(const float* x, std::uint32_t d, std::size_t count, float* xi) {
    for (std::uint32_t i = 0; i < d; ++i)
        for (std::size_t v = 0; v < R; ++v) xi[std::size_t(i) * R + v] = v < count ? x[v * d + i] : 0.0f;
}

// Rows v < count of t (stride p) at [0, n) from the interleaved ti (n rows of R), four elements at a time
// through a small tile so each row gets 16-byte stores.
template <std::size_t R>
void deinterleave_rows(const float* ti, std::size_t n, std::size_t count, std::size_t p, float* t) {
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        float tile[R][4];
        for (std::size_t j = 0; j < 4; ++j)
            for (std::size_t v = 0; v < R; ++v) tile[v][j] = ti[(i + j) * R + v];
        for (std::size_t v = 0; v < count; ++v) std::memcpy(t + v * p + i, tile[v], sizeof tile[v]);
    }
    for (; i < n; ++i)
        for (std::size_t v = 0; v < count; ++v) t[v * p + i] = ti[i * R + v];
}

// Rows [0, count) of t from the same rows of x (count <= R), one kernel call per rule.
template <std::size_t R>
void project_group(const map_state& map, const float* x, std::size_t count, float* t, const batch_buffers& b) {
    const auto& m = *map.meta;
    const std::uint32_t d = m.work_dim;
    const std::size_t cs_stride = 2 * (std::size_t(m.block_size) - 1);
    interleave_rows<R>(x, d, count, b.x);
    for (std::uint32_t k = 0; k < m.block_count; ++k) {
        const float* cs = map.own_view<format::projection::butterfly_simplex, section::butterfly>().data;
        const std::uint32_t* perm = map.view<section::permutation>().data;
        map.kernels->butterfly_simplex_batch(b.x, b.t, d, ceil_log2(d), cs + k * cs_stride, perm + std::size_t(k) * d,
                                             m.repeats, b.r, b.diag, b.kernel);
        const std::size_t begin = std::size_t(k) * (d + 1);
        deinterleave_rows<R>(b.t, std::min<std::size_t>(d + 1, m.projection_dim - begin), count, m.projection_dim,
                             t + begin);
    }
}

// Whole groups of R rows; a remainder of at least R/2 rows as one padded group, a smaller one row by row
// (a padded group costs all R rows).
template <std::size_t R>
void apply_groups(const map_state& map, const float* x, std::size_t rows, float* t, float* scratch) {
    const std::uint32_t d = map.meta->work_dim;
    const std::size_t p = map.meta->projection_dim;
    const batch_buffers b = carve_batch(d, R, scratch);
    simplex_coefficients(d, b.r, b.diag);
    std::size_t v = 0;
    for (; v + R <= rows; v += R) project_group<R>(map, x + v * d, R, t + v * p, b);
    if (2 * (rows - v) >= R) {
        project_group<R>(map, x + v * d, rows - v, t + v * p, b);
        return;
    }
    for (; v < rows; ++v) butterfly_simplex_apply(map, x + v * d, t + v * p, scratch);
}

void butterfly_simplex_apply_batch(const map_state& map, const float* x, std::size_t rows, float* t, float* scratch) {
    switch (map.kernels->butterfly_simplex_batch_rows) {
        case 4: apply_groups<4>(map, x, rows, t, scratch); break;
        case 8: apply_groups<8>(map, x, rows, t, scratch); break;
        default:  // no other width is built; row by row stays correct
            for (std::size_t v = 0; v < rows; ++v)
                butterfly_simplex_apply(map, x + v * map.meta->work_dim, t + v * map.meta->projection_dim, scratch);
    }
}
#endif  // !KFM_FIRMWARE

// Per block: repeats butterfly passes, then the simplex vertices' running sums; the input's copy.
std::uint64_t butterfly_simplex_work(const map_state& map) {
    const format::map_meta& m = *map.meta;
    const std::uint64_t w = m.work_dim, n = m.block_size, blocks = m.block_count;
    return blocks * (m.repeats * (transform_cost(n) + w) + 3 * (w + 1)) + 2 * w;
}

// Rotations keep the 2-norm, then running sums of d + 1 entries with coefficients <= 2.
template <class M>
typename M::real butterfly_simplex_output_bound(const map_state& map, const input_norms<typename M::real>& x) {
    using real = typename M::real;
    return x.two + real(2) + M::log2(real(map.meta->work_dim) + real(1));
}

}  // namespace

extern const projection_ops butterfly_simplex_projection = {
    butterfly_simplex_verify, butterfly_simplex_scratch_floats, butterfly_simplex_apply,
    KFM_BATCH_PATH(butterfly_simplex_batch_scratch_floats, butterfly_simplex_apply_batch),
    butterfly_simplex_work, KFM_OUTPUT_BOUNDS(butterfly_simplex_output_bound)};

}  // namespace kfm::detail
