// The ssf_fft projection (docs/methods.md, "SSF"): z = x[0:m] + i x[m:2m] placed into a zero length-n
// buffer at the frequencies of the FREQ section (x_l at the l-th set bit); per block b, the signs of block
// b (SIGN bits b 2n + k for the real part at frequency k, b 2n + n + k for the imaginary part: stored in
// frequency order), one forward FFT, and t[b 2n ..] = m^{-1/2} [Re; Im], the stack truncated to
// projection_dim (keeping whole (Re_j, Im_j) pairs in a truncated block measured no better on LETTER/USPS).
// Each t_i is then v_i . (s x) with |v_i| = 1.
//
// Single vectors and batches share one pipeline over a group of L rows interleaved lane by lane
// (element k of row v at buf[k L + v]): L = fft_batch_lanes with kernels->fft_batch when n <=
// max_interleaved_fft (where batches pay), so every block of L rows costs one FFT call, else L = 1 with
// kernels->fft. One row (L = 1) builds each block's FFT input in one pass (kernels->expand: the placement,
// the scaling and the block's signs together), which is all that stands between x and the FFT; a group
// places its rows once and flips each block's signs over the interleaved lanes (kernels->flip_signs).
// Where the batches interleave, a single row runs kernels->fft_batch_row, the batch FFT's operations on one
// row, and the rows left over after the whole groups of a batch run as a group padded with zero rows (the
// batch FFT's lanes are independent): every row goes through the same operations, so its projections are
// the same bits alone, in a group or left over.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "format/fft_twiddles.hpp"
#include "kernels/kernel_table.hpp"
#include "runtime/projection.hpp"
#include "runtime/work_bound.hpp"

namespace kfm::detail {
namespace {

constexpr unsigned max_log2_fft = 16;  // the FFT kernel's limit
// Batches go through the interleaved path only up to this FFT size. Measured per vector against single
// transforms (kfm bench, batch 64, AVX2 / AVX-512): 1.5-2x faster at n = 16, 1.3-1.6x at 32, but 0.6-0.85x
// from n = 64 on, where the single FFT's register tiles are already efficient and the interleaving,
// strided scatter and de-interleaving cost more than the batch FFT saves.
constexpr std::uint32_t max_interleaved_fft = 32;

// Where the buffers of one group of L rows live in the scratch (carve).
struct buffers {
    float* re;       // n x L: the FFT input of one block (and its output in place when it cannot go
    float* im;       // straight into t: L > 1, or a truncated block)
    float* base_re;  // n x L, L > 1 only: the rows scaled by m^{-1/2} at the index set, zero elsewhere
    float* base_im;
};

// The scratch size for L lanes: the FFT input, and for an interleaved group its rows before the signs.
std::size_t scratch_for_lanes(const format::map_meta& m, std::size_t lanes) {
    return (lanes == 1 ? 2 : 4) * std::size_t(m.block_size) * lanes;
}

// The buffers, back to back, with no slack. Placing the FFT inputs a quarter page from the outputs modulo
// 4 KiB (against x86 4K aliasing, at a page of padding per buffer: a 16 KiB floor on every SSF workspace)
// measured no difference with kfm_bench: map/ssf/{avx2,avx512}/{64/1024,784/8192,1024/16384}, single and
// /batch, CPU time within 3% either way over four interleaved runs (docs/benchmarks.md,
// "SSF workspace padding re-measured"). So the workspace is the same on every ISA, and exact on
// microcontrollers.
buffers carve(const format::map_meta& m, std::size_t lanes, float* scratch) {
    const std::size_t ln = std::size_t(m.block_size) * lanes;
    buffers b;
    b.re = scratch;
    b.im = b.re + ln;
    b.base_re = lanes == 1 ? nullptr : b.im + ln;
    b.base_im = lanes == 1 ? nullptr : b.base_re + ln;
    return b;
}

// log2 of a power of two (verify checked n), one instruction or two where ceil_log2 loops over the bits.
unsigned exact_log2(std::uint32_t n) { return unsigned(__builtin_ctz(n)); }

// Loops below use __restrict (GCC and Clang): their buffers never overlap, and without it the compiler
// keeps them scalar or adds overlap checks.

// base_re[Lambda_l L + v] = norm x[v work_dim + l], base_im[Lambda_l L + v] = norm x[v work_dim + m + l]
// for the rows v < count, zero at the other frequencies (Lambda_l: the l-th set bit of FREQ) and in the
// lanes v >= count: the L interleaved rows (n <= max_interleaved_fft), element by element.
template <std::size_t L>
void scatter_rows(const map_state& map, const float* __restrict x, std::size_t count, float norm,
                  float* __restrict base_re, float* __restrict base_im) {
    const std::uint32_t w = map.meta->work_dim, half = w / 2, n = map.meta->block_size;
    const std::uint8_t* frequencies = map.view<section::frequencies>().data;
    std::memset(base_re, 0, sizeof(float) * n * L);
    std::memset(base_im, 0, sizeof(float) * n * L);
    std::uint32_t l = 0;
    for (std::uint32_t k = 0; k < n; ++k) {
        if (!bit_at(frequencies, k)) continue;
        for (std::size_t v = 0; v < count; ++v) {
            base_re[k * L + v] = norm * x[v * w + l];
            base_im[k * L + v] = norm * x[v * w + half + l];
        }
        ++l;
    }
}

// t[v p + i] = in[i L + v] for i < count and v < rows: interleaved lanes back to rows of stride p.
template <std::size_t L>
void deinterleave(const float* __restrict in, std::size_t count, std::size_t p, std::size_t rows,
                  float* __restrict t) {
    std::size_t i = 0;
    // Through a 4 x L tile the compiler keeps in registers: every row gets whole 16-byte stores. Measured
    // twice as fast as element-wise loops when t (64 rows) no longer fits the L1 and L2 caches.
    for (; i + 4 <= count; i += 4) {
        float tile[L][4];
        for (std::size_t j = 0; j < 4; ++j)
            for (std::size_t v = 0; v < L; ++v) tile[v][j] = in[(i + j) * L + v];
        for (std::size_t v = 0; v < rows; ++v) std::memcpy(t + v * p + i, tile[v], sizeof tile[v]);
    }
    for (; i < count; ++i)
        for (std::size_t v = 0; v < rows; ++v) t[v * p + i] = in[i * L + v];
}

// The FFT of one row (L = 1): where batches interleave (n <= max_interleaved_fft on a table with a batch
// FFT), fft_batch_row, which performs exactly the operations of each lane of fft_batch, so a row gets the
// same bits alone as in any batch; elsewhere fft, which batches use too.
using fft_kernel = void (*)(const float*, const float*, float*, float*, unsigned, const float*, bool);
fft_kernel row_fft(const map_state& map) {
    const bool interleaved = map.kernels->fft_batch != nullptr && map.kernels->fft_batch_lanes > 1 &&
                             map.meta->block_size <= max_interleaved_fft;
    return interleaved ? map.kernels->fft_batch_row : map.kernels->fft;
}

// Rows [0, count) of t from the same rows of x (count <= L) through L-lane FFTs (L = 1: row_fft).
template <std::size_t L>
void project_group(const map_state& map, const float* x, std::size_t count, float* t, float* scratch) {
    const auto& m = *map.meta;
    const std::uint32_t n = m.block_size;
    const unsigned log2_n = exact_log2(n);
    const std::size_t p = m.projection_dim, block = std::size_t(2) * n;
    const buffers buf = carve(m, L, scratch);
    const fft_kernel fft = L == 1 ? row_fft(map) : nullptr;
    // The FFT is linear: scaling the m inputs by m^{-1/2} costs less than scaling the 2n outputs.
    const float norm = 1.0f / std::sqrt(float(m.work_dim / 2));
    const std::uint8_t* frequencies = map.view<section::frequencies>().data;
    const std::uint8_t* signs = map.view<section::signs>().data;
    const float* twiddles = map.view<section::twiddles>().data;
    if constexpr (L > 1) scatter_rows<L>(map, x, count, norm, buf.base_re, buf.base_im);
    for (std::uint32_t b = 0; b < m.block_count; ++b) {
        if constexpr (L == 1) {
            // verify checked: work_dim / 2 bits are set, and buf.im = buf.re + n
            map.kernels->expand(x, m.work_dim / 2, frequencies, n, norm, signs, std::size_t(b) * block, buf.re);
        } else {
            map.kernels->flip_signs(buf.base_re, signs, std::size_t(b) * block, n, L, buf.re);
            map.kernels->flip_signs(buf.base_im, signs, std::size_t(b) * block + n, n, L, buf.im);
        }
        const std::size_t begin = std::size_t(b) * block;
        if (L == 1 && p - begin >= block) {  // one full block: straight into t
            fft(buf.re, buf.im, t + begin, t + begin + n, log2_n, twiddles, false);
            continue;
        }
        if constexpr (L == 1) {
            fft(buf.re, buf.im, buf.re, buf.im, log2_n, twiddles, false);
        } else {
            map.kernels->fft_batch(buf.re, buf.im, buf.re, buf.im, log2_n, twiddles, false);
        }
        const std::size_t kept = p - begin < block ? p - begin : block;
        deinterleave<L>(buf.re, kept < n ? kept : n, p, count, t + begin);
        if (kept > n) deinterleave<L>(buf.im, kept - n, p, count, t + begin + n);
    }
}

status ssf_verify(const map_state& map) {
    const auto& m = *map.meta;
    const std::uint32_t n = m.block_size;
    const unsigned log2_n = ceil_log2(n);
    if (n < 2 || log2_n > max_log2_fft || (std::uint64_t(1) << log2_n) != n) return status::bad_meta;
    // x is padded by at most one zero to an even length; nothing may be appended.
    if (m.work_dim % 2 != 0 || m.work_dim < 2 || m.work_dim - m.input_dim > 1 || m.input_append != 0.0)
        return status::bad_meta;
    const std::uint32_t half = m.work_dim / 2;
    if (half >= n) return status::bad_meta;
    const std::uint64_t per_block = 2ull * n, p = m.projection_dim;
    if (m.block_count == 0 || p == 0 || p > per_block * m.block_count || p <= per_block * (m.block_count - 1ull))
        return status::bad_meta;

    const auto frequencies = map.view<section::frequencies>();
    const auto signs = map.view<section::signs>();
    const auto twiddles = map.view<section::twiddles>();
    if (!frequencies.present() || !signs.present() || !twiddles.present()) return status::missing_section;
    if (frequencies.count != n) return status::bad_section_size;
    if (signs.count != per_block * m.block_count) return status::bad_section_size;
    if (twiddles.count != fft_twiddle_floats(log2_n)) return status::bad_section_size;
    // m = work_dim / 2 distinct frequencies (bits as a set), none of them 0 (the DC row would be one point
    // shared by every block).
    if ((frequencies[0] & 1u) != 0) return status::index_out_of_range;
    std::uint32_t set = 0;
    for (std::uint32_t k = 0; k < n; ++k) set += bit_at(frequencies.data, k) ? 1u : 0u;
    if (set != half) return status::bad_section_size;
    // The table is a function of n: it must be the one fft_make_twiddles writes (to the ulp).
    if (!fft_twiddles_match(log2_n, twiddles.data)) return status::bad_parameter_value;
    return status::ok;
}

// A single row takes one lane (row_fft).
std::size_t ssf_scratch_floats(const format::map_meta& meta) { return scratch_for_lanes(meta, 1); }

#if !KFM_FIRMWARE  // the batched path (runtime/projection.hpp, KFM_BATCH_PATH)
// The lane count depends on the ISA, which the meta does not name: size for the widest.
std::size_t ssf_batch_scratch_floats(const format::map_meta& meta, std::size_t) {
    return scratch_for_lanes(meta, meta.block_size <= max_interleaved_fft ? max_batch_lanes : 1);
}

// Whole groups of L rows through the batch FFT, then the remaining rows as one group padded with zero
// rows, or a last single row alone (fft_batch_row: the same operations; a padded group of L costs less than
// two rows alone, 29 ns against 17 ns each at n = 16 on AVX2).
template <std::size_t L>
void apply_groups(const map_state& map, const float* x, std::size_t rows, float* t, float* scratch) {
    const std::size_t w = map.meta->work_dim, p = map.meta->projection_dim;
    std::size_t r = 0;
    for (; r + L <= rows; r += L) project_group<L>(map, x + r * w, L, t + r * p, scratch);
    if (rows - r == 1) project_group<1>(map, x + r * w, 1, t + r * p, scratch);
    else if (r < rows) project_group<L>(map, x + r * w, rows - r, t + r * p, scratch);
}

void ssf_apply_batch(const map_state& map, const float* x, std::size_t rows, float* t, float* scratch) {
    const bool interleave = map.kernels->fft_batch != nullptr && map.meta->block_size <= max_interleaved_fft;
    const unsigned lanes = interleave ? map.kernels->fft_batch_lanes : 1;
    switch (lanes) {
        case 2: apply_groups<2>(map, x, rows, t, scratch); break;
        case 4: apply_groups<4>(map, x, rows, t, scratch); break;
        case 8: apply_groups<8>(map, x, rows, t, scratch); break;
        case 16: apply_groups<16>(map, x, rows, t, scratch); break;
        default: apply_groups<1>(map, x, rows, t, scratch); break;  // no batch FFT: one vector at a time
    }
}

#endif  // !KFM_FIRMWARE

// One row, through row_fft (in the firmware profile, which has no batch FFT, always kernels->fft).
void ssf_apply(const map_state& map, const float* x, float* t, float* scratch) {
    project_group<1>(map, x, 1, t, scratch);
}

// Per block the placement of x with the block's signs (2n) and a complex FFT, then the copy into t.
std::uint64_t ssf_work(const map_state& map) {
    const format::map_meta& m = *map.meta;
    const std::uint64_t w = m.work_dim, p = m.projection_dim, n = m.block_size, blocks = m.block_count;
    return 2 * w + blocks * 2 * (n + transform_cost(n)) + p;
}

// |twiddles| <= 1 (verified): every FFT partial sum is <= |x|_1.
template <class M>
typename M::real ssf_output_bound(const map_state&, const input_norms<typename M::real>& x) {
    return x.one + typename M::real(1);
}

}  // namespace

extern const projection_ops ssf_fft_projection = {
    ssf_verify, ssf_scratch_floats, ssf_apply,
    KFM_BATCH_PATH(ssf_batch_scratch_floats, ssf_apply_batch),
    ssf_work, KFM_OUTPUT_BOUNDS(ssf_output_bound)};

}  // namespace kfm::detail
