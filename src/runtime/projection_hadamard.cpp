// The hadamard projection (SORF, structured GORF/SRF): x padded to d2 = block_size, then for each block b
// t[b d2 ..] = H D1 H D2 H D3 x with H the normalised Walsh-Hadamard matrix and D_i sign diagonals from
// the SIGN bits (stage i = 0 is D3, applied first; layout format::hadamard_sign_stride), the stack
// truncated to projection_dim. Scaling by sqrt(d2)/sigma is the feature stage's scale. With repeats = 1
// (maclaurin-opt) each block is one stage, H D x.
#include <cstring>

#include "kernels/kernel_table.hpp"
#include "format/checked.hpp"
#include "runtime/projection.hpp"
#include "runtime/work_bound.hpp"

namespace kfm::detail {
namespace {

constexpr unsigned max_log2_block = 24;

// Sign-flip-and-transform stages per block: map_meta::repeats, 3 (H D1 H D2 H D3) or 1 (H D).
bool stages_ok(std::uint32_t repeats) { return repeats == 3 || repeats == 1; }

status hadamard_verify(const map_state& map) {
    const auto& m = *map.meta;
    const std::uint64_t d2 = m.block_size, p = m.projection_dim;
    const unsigned log2 = ceil_log2(m.block_size);
    if (d2 == 0 || log2 > max_log2_block || (std::uint64_t(1) << log2) != d2) return status::bad_meta;
    if (m.work_dim != d2 || m.input_dim > d2 || !stages_ok(m.repeats) || m.block_count == 0)
        return status::bad_meta;
    if (p == 0 || p > std::uint64_t(m.block_count) * d2 || p <= (std::uint64_t(m.block_count) - 1) * d2)
        return status::bad_meta;
    std::uint64_t bits = 0;
    if (!checked_mul(std::uint64_t(m.block_count) * m.repeats, format::hadamard_sign_stride(m.block_size), &bits))
        return status::bad_meta;
    if (!map.view<section::signs>().present()) return status::missing_section;
    if (map.view<section::signs>().count != bits) return status::bad_section_size;
    return status::ok;
}

std::size_t hadamard_scratch_floats(const format::map_meta& meta) { return meta.block_size; }

void hadamard_apply(const map_state& map, const float* x, float* t, float* scratch) {
    const auto& m = *map.meta;
    const std::uint32_t d2 = m.block_size;
    const unsigned log2 = ceil_log2(d2);
    const std::size_t stage_bytes = format::hadamard_sign_stride(d2) / 8;
    const std::uint8_t* signs = map.view<section::signs>().data;
    for (std::uint32_t b = 0; b < m.block_count; ++b) {
        const std::size_t begin = std::size_t(b) * d2;
        const std::size_t count = m.projection_dim - begin < d2 ? m.projection_dim - begin : d2;
        float* y = count == d2 ? t + begin : scratch;  // full blocks run in place in t
        std::memcpy(y, x, sizeof(float) * d2);
        for (std::uint32_t i = 0; i < m.repeats; ++i)
            map.kernels->fwht(y, log2, signs + (std::size_t(b) * m.repeats + i) * stage_bytes);
        if (y != t + begin) std::memcpy(t + begin, y, sizeof(float) * count);
    }
}

// Batches: the rows one after the other through apply, so that the pass's feature stage and prefactors run
// over its rows together, which overlaps their latencies (maclaurin-opt's exp) and spreads the per-pass work.
// A pass stays within 64 KiB of x and t: against one row per pass, sorf's time per row on AVX2 was 0.88x at
// (d, D) = (16, 32) and level (within 2 %) from D = 2048 to 16400, where passes of up to 64 rows were 1-5 %
// slower (their rows leave the cache before the feature stage reads them).
constexpr std::size_t hadamard_batch_pass_floats = 16384;

std::size_t hadamard_batch_scratch_floats(const format::map_meta& meta, std::size_t) { return meta.block_size; }

void hadamard_apply_batch(const map_state& map, const float* x, std::size_t rows, float* t, float* scratch) {
    const auto& m = *map.meta;
    for (std::size_t r = 0; r < rows; ++r) hadamard_apply(map, x + r * m.work_dim, t + r * m.projection_dim, scratch);
}

// Per block: the copy in, `repeats` sign flips and Walsh-Hadamard passes, the copy out.
std::uint64_t hadamard_work(const map_state& map) {
    const std::uint64_t n = map.meta->block_size, blocks = map.meta->block_count;
    return blocks * (map.meta->repeats * (transform_cost(n) + n) + 2 * n);
}

// Unnormalised passes: at most sqrt(d2) |x|_2 between the scalings.
template <class M>
typename M::real hadamard_output_bound(const map_state& map, const input_norms<typename M::real>& x) {
    return x.two + M::log2(typename M::real(map.meta->block_size));
}

}  // namespace

extern const projection_ops hadamard_projection = {
    hadamard_verify, hadamard_scratch_floats, hadamard_apply,
    KFM_BATCH_PATH(hadamard_batch_scratch_floats, hadamard_apply_batch),
    hadamard_work, KFM_OUTPUT_BOUNDS(hadamard_output_bound), hadamard_batch_pass_floats};

}  // namespace kfm::detail
