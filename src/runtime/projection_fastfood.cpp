// The fastfood projection (Le, Sarlós, Smola 2013): x padded to n = block_size, then for each block b
// t[b n ..] = H G_b Π_b H B_b x with H the normalised Walsh-Hadamard matrix (n^{-1/2} ±1, orthogonal),
// B_b the sign diagonal from the SIGN bits (block b at bit b hadamard_sign_stride(n)), Π_b the gather
// (Π y)_i = y[perm_b[i]] from PERM, and G_b the GDIA diagonal; the stack truncated to projection_dim.
// The per-row scale S (radius sqrt(n) / ||G_b||_F) is the feature stage's per-argument scale.
#include <cstring>

#include "kernels/kernel_table.hpp"
#include "format/checked.hpp"
#include "runtime/projection.hpp"
#include "runtime/work_bound.hpp"

namespace kfm::detail {
namespace {

constexpr unsigned max_log2_block = 24;
// The permutation check marks seen values in a stack bitmap of this many bits, one window of values per
// pass over the block (one pass for n <= 2^15).
constexpr std::uint32_t seen_window_bits = 1u << 15;

// G, Fastfood's own section (only this file reads it).
section_view<float> gaussian_diagonal(const map_state& map) {
    return map.own_view<format::projection::fastfood, section::gaussian_diagonal>();
}

// Whether perm[0 .. n) holds every value of [0, n) exactly once.
bool is_permutation(const std::uint32_t* perm, std::uint32_t n) {
    std::uint64_t seen[seen_window_bits / 64];
    for (std::uint32_t lo = 0; lo < n; lo += seen_window_bits) {
        std::memset(seen, 0, sizeof(seen));
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t v = perm[i];
            if (v >= n) return false;
            if (v < lo || v - lo >= seen_window_bits) continue;
            const std::uint32_t k = v - lo;
            const std::uint64_t bit = std::uint64_t(1) << (k % 64);
            if (seen[k / 64] & bit) return false;
            seen[k / 64] |= bit;
        }
    }
    return true;  // n values in [0, n), none twice
}

status fastfood_verify(const map_state& map) {
    const auto& m = *map.meta;
    const std::uint64_t n = m.block_size, p = m.projection_dim;
    const unsigned log2 = ceil_log2(m.block_size);
    if (n == 0 || log2 > max_log2_block || (std::uint64_t(1) << log2) != n) return status::bad_meta;
    if (m.work_dim != n || m.input_dim > n || m.repeats != 0 || m.block_count == 0) return status::bad_meta;
    if (p == 0 || p > std::uint64_t(m.block_count) * n || p <= (std::uint64_t(m.block_count) - 1) * n)
        return status::bad_meta;
    std::uint64_t bits = 0, entries = 0;
    if (!checked_mul(m.block_count, format::hadamard_sign_stride(m.block_size), &bits) ||
        !checked_mul(m.block_count, n, &entries))
        return status::bad_meta;
    const auto signs = map.view<section::signs>();
    const auto perm = map.view<section::permutation>();
    const auto g = gaussian_diagonal(map);
    if (!signs.present() || !perm.present() || !g.present()) return status::missing_section;
    if (signs.count != bits || perm.count != entries || g.count != entries) return status::bad_section_size;
    for (std::uint32_t b = 0; b < m.block_count; ++b)
        if (!is_permutation(perm.data + std::size_t(b) * n, m.block_size)) return status::index_out_of_range;
    return status::ok;
}

// One block's H B x (n floats) and, for a truncated last block, its output (n floats).
std::size_t fastfood_scratch_floats(const format::map_meta& meta) { return 2 * std::size_t(meta.block_size); }

void fastfood_apply(const map_state& map, const float* x, float* t, float* scratch) {
    const auto& m = *map.meta;
    const std::uint32_t n = m.block_size;
    const unsigned log2 = ceil_log2(n);
    const std::size_t sign_bytes = format::hadamard_sign_stride(n) / 8;
    float* hbx = scratch;
    for (std::uint32_t b = 0; b < m.block_count; ++b) {
        const std::size_t begin = std::size_t(b) * n;
        const std::size_t count = m.projection_dim - begin < n ? m.projection_dim - begin : n;
        float* y = count == n ? t + begin : scratch + n;  // full blocks are written in place in t
        std::memcpy(hbx, x, sizeof(float) * n);
        map.kernels->fwht(hbx, log2, map.view<section::signs>().data + std::size_t(b) * sign_bytes);
        const std::uint32_t* perm = map.view<section::permutation>().data + begin;
        const float* g = gaussian_diagonal(map).data + begin;
        for (std::uint32_t i = 0; i < n; ++i) y[i] = g[i] * hbx[perm[i]];
        map.kernels->fwht(y, log2, nullptr);
        if (y != t + begin) std::memcpy(t + begin, y, sizeof(float) * count);
    }
}

// Per block: two Walsh-Hadamard passes with their diagonals, the permutation, the copies.
std::uint64_t fastfood_work(const map_state& map) {
    const std::uint64_t n = map.meta->block_size, blocks = map.meta->block_count;
    return blocks * (2 * (transform_cost(n) + n) + 3 * n);
}

// H B x keeps |x|_2, Pi too, G scales it by max |G|, then as hadamard.
template <class M>
typename M::real fastfood_output_bound(const map_state& map, const input_norms<typename M::real>& x) {
    using real = typename M::real;
    return x.two + log2_magnitudes<M>::log2_max_abs(gaussian_diagonal(map).data, gaussian_diagonal(map).count) +
           M::log2(real(map.meta->block_size));
}

}  // namespace

extern const projection_ops fastfood_projection = {
    fastfood_verify, fastfood_scratch_floats, fastfood_apply,
    nullptr, nullptr,  // no batched path: transform_batch runs apply row by row
    fastfood_work, KFM_OUTPUT_BOUNDS(fastfood_output_bound)};

}  // namespace kfm::detail
