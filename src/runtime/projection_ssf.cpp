// The ssf_fft projection (SSF, docs/methods.md): per block b, flip the signs of x (SIGN bits
// b*work_dim ..), scatter z = x[0:m] + i x[m:2m] into a zero length-n buffer at the frequencies of the
// INDX section, one forward FFT, and t[b 2n ..] = m^{-1/2} [Re; Im], the stack truncated to projection_dim
// (keeping whole (Re_j, Im_j) pairs in a truncated block measured no better on LETTER/USPS).
// Each t_i is then v_i . (s x) with |v_i| = 1.
//
// Single vectors and batches share one pipeline over a group of L rows interleaved lane by lane
// (element k of row v at buf[k L + v]): L = 1 with kernels->fft for one vector, L = fft_batch_lanes
// with kernels->fft_batch for a batch, so every block of L rows costs one FFT call (rows left over after
// the whole groups go one at a time).
#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/kernel_table.hpp"
#include "runtime/projection.hpp"

namespace kfm::detail {
namespace {

constexpr unsigned max_log2_fft = 16;  // the FFT kernel's limit
constexpr std::size_t max_lanes = 16;  // the widest fft_batch of any ISA (16 floats, AVX-512)
constexpr std::size_t page = 1024;     // floats per 4 KiB page

unsigned log2_exact(std::uint32_t n) {
    unsigned log2 = 0;
    while ((std::uint64_t(1) << log2) < n) ++log2;
    return log2;
}

// Sign table: entry 4 w + j is -1 when bit j of the nibble w is set, else +1. Flipping by a multiply
// with a looked-up +-1 costs one load per element instead of a bit extraction per element.
struct sign_table {
    float v[64];
};
constexpr sign_table make_sign_table() {
    sign_table s{};
    for (unsigned w = 0; w < 16; ++w)
        for (unsigned j = 0; j < 4; ++j) s.v[4 * w + j] = ((w >> j) & 1u) != 0 ? -1.0f : 1.0f;
    return s;
}
constexpr sign_table signs_pm1 = make_sign_table();

// Sign bits pos .. pos+3 as a nibble. Reads only the (one or two) bytes holding those bits, so it
// never reads past the section.
unsigned sign_nibble(const std::uint8_t* bits, std::size_t pos) {
    const unsigned lo = bits[pos >> 3], hi = bits[(pos + 3) >> 3];
    return ((lo | hi << 8) >> (pos & 7)) & 15u;
}

float sign_of(const std::uint8_t* bits, std::size_t pos) { return ((bits[pos >> 3] >> (pos & 7)) & 1u) != 0 ? -1.0f : 1.0f; }

// Where the buffers of one group of L rows live in the scratch (carve).
struct buffers {
    float* x;       // work_dim x L: the rows interleaved and scaled by m^{-1/2}
    float* re;      // n x L FFT input (zero outside the index set)
    float* im;
    float* out_re;  // n x L FFT output (L > 1, or a truncated block)
    float* out_im;
};

// The scratch size for L lanes: the buffers plus up to a page of slack before each (carve).
std::size_t scratch_for_lanes(const format::map_meta& m, std::size_t lanes) {
    return std::size_t(m.work_dim) * lanes + 4 * (std::size_t(m.block_size) * lanes + page);
}

// The first float at or after `from` that lies `phase` floats past t modulo a page.
float* at_phase(float* from, const float* t, std::size_t phase) {
    const auto distance = reinterpret_cast<std::uintptr_t>(from) - reinterpret_cast<std::uintptr_t>(t);
    const std::size_t now = std::size_t(distance / sizeof(float)) % page;
    return from + (phase + page - now) % page;
}

// Places the FFT inputs and outputs a quarter page apart modulo 4 KiB. t (2n floats per block) and the
// scratch are often whole pages apart, so re would otherwise share its low 12 address bits with the output
// block t + b 2n, and the FFT's loads would wait on unrelated stores (4K aliasing): measured 10% of the
// batch path at (784, 8192) on AVX2; nothing measurable for single vectors.
buffers carve(const format::map_meta& m, std::size_t lanes, const float* t, float* scratch) {
    const std::size_t ln = std::size_t(m.block_size) * lanes;
    buffers b;
    b.re = at_phase(scratch, t, page / 4);
    b.im = at_phase(b.re + ln, t, 3 * page / 4);
    b.out_re = at_phase(b.im + ln, t, 0);
    b.out_im = at_phase(b.out_re + ln, t, page / 2);
    b.x = b.out_im + ln;
    return b;
}

// Loops below use __restrict (GCC and Clang): their buffers never overlap, and without it the compiler
// keeps them scalar or adds overlap checks.

// xs[l L + v] = norm * x[v work_dim + l]: L rows interleaved.
template <std::size_t L>
void interleave(const float* __restrict x, std::uint32_t work_dim, float norm, float* __restrict xs) {
    for (std::uint32_t l = 0; l < work_dim; ++l)
        for (std::size_t v = 0; v < L; ++v) xs[l * L + v] = norm * x[v * work_dim + l];
}

// re[Lambda_l L + v] = s_l xs[l L + v], im[Lambda_l L + v] = s_{m+l} xs[(m+l) L + v], signs of block b.
template <std::size_t L>
void scatter_block(const map_view& map, std::uint32_t b, const float* __restrict xs, float* __restrict re,
                   float* __restrict im) {
    const std::uint32_t w = map.meta->work_dim, half = w / 2;
    const std::uint32_t* index = map.indices;
    const std::uint8_t* bits = map.signs;
    const std::size_t bit0 = std::size_t(b) * w;
    const float* xi = xs + std::size_t(half) * L;
    std::uint32_t l = 0;
    for (; l + 4 <= half; l += 4) {
        const float* s_re = signs_pm1.v + 4 * sign_nibble(bits, bit0 + l);
        const float* s_im = signs_pm1.v + 4 * sign_nibble(bits, bit0 + half + l);
        if constexpr (L == 1) {
            // Four products in one vector multiply, then four scattered stores: element by element the
            // loop loaded input, sign and index per element and was bound by the load ports.
            float y_re[4], y_im[4];
            for (std::uint32_t j = 0; j < 4; ++j) {
                y_re[j] = s_re[j] * xs[l + j];
                y_im[j] = s_im[j] * xi[l + j];
            }
            for (std::uint32_t j = 0; j < 4; ++j) {
                re[index[l + j]] = y_re[j];
                im[index[l + j]] = y_im[j];
            }
        } else {  // whole registers of L lanes
            for (std::uint32_t j = 0; j < 4; ++j) {
                float* r = re + std::size_t(index[l + j]) * L;
                float* i = im + std::size_t(index[l + j]) * L;
                for (std::size_t v = 0; v < L; ++v) {
                    r[v] = s_re[j] * xs[(l + j) * L + v];
                    i[v] = s_im[j] * xi[(l + j) * L + v];
                }
            }
        }
    }
    for (; l < half; ++l) {
        const float s_re = sign_of(bits, bit0 + l), s_im = sign_of(bits, bit0 + half + l);
        for (std::size_t v = 0; v < L; ++v) {
            re[std::size_t(index[l]) * L + v] = s_re * xs[l * L + v];
            im[std::size_t(index[l]) * L + v] = s_im * xi[l * L + v];
        }
    }
}

// t[v p + i] = in[i L + v] for i < count: L interleaved lanes back to rows of stride p.
template <std::size_t L>
void deinterleave(const float* __restrict in, std::size_t count, std::size_t p, float* __restrict t) {
    std::size_t i = 0;
    // Through a 4 x L tile the compiler keeps in registers: every row gets whole 16-byte stores. Measured
    // twice as fast as element-wise loops when t (64 rows) no longer fits the L1 and L2 caches.
    for (; i + 4 <= count; i += 4) {
        float tile[L][4];
        for (std::size_t j = 0; j < 4; ++j)
            for (std::size_t v = 0; v < L; ++v) tile[v][j] = in[(i + j) * L + v];
        for (std::size_t v = 0; v < L; ++v) std::memcpy(t + v * p + i, tile[v], sizeof tile[v]);
    }
    for (; i < count; ++i)
        for (std::size_t v = 0; v < L; ++v) t[v * p + i] = in[i * L + v];
}

// L rows of t from L rows of x through L-lane FFTs (L = 1: kernels->fft).
template <std::size_t L>
void project_group(const map_view& map, const float* x, float* t, float* scratch) {
    const auto& m = *map.meta;
    const std::uint32_t n = m.block_size;
    const unsigned log2_n = log2_exact(n);
    const std::size_t p = m.projection_dim, block = std::size_t(2) * n;
    const buffers buf = carve(m, L, t, scratch);
    // The FFT is linear: scaling the m inputs by m^{-1/2} costs less than scaling the 2n outputs.
    interleave<L>(x, m.work_dim, 1.0f / std::sqrt(float(m.work_dim / 2)), buf.x);
    // Every block scatters to the same frequencies and the FFT runs out of place, so the entries outside
    // the index set stay zero from this one clear.
    std::memset(buf.re, 0, sizeof(float) * n * L);
    std::memset(buf.im, 0, sizeof(float) * n * L);
    for (std::uint32_t b = 0; b < m.block_count; ++b) {
        scatter_block<L>(map, b, buf.x, buf.re, buf.im);
        const std::size_t begin = std::size_t(b) * block;
        const std::size_t count = p - begin < block ? p - begin : block;
        if (L == 1 && count == block) {  // one full block: straight into t
            map.kernels->fft(buf.re, buf.im, t + begin, t + begin + n, log2_n, map.twiddles, false);
            continue;
        }
        if constexpr (L == 1) {
            map.kernels->fft(buf.re, buf.im, buf.out_re, buf.out_im, log2_n, map.twiddles, false);
        } else {
            map.kernels->fft_batch(buf.re, buf.im, buf.out_re, buf.out_im, log2_n, map.twiddles, false);
        }
        deinterleave<L>(buf.out_re, count < n ? count : n, p, t + begin);
        if (count > n) deinterleave<L>(buf.out_im, count - n, p, t + begin + n);
    }
}

status ssf_verify(const map_view& map) {
    const auto& m = *map.meta;
    const std::uint32_t n = m.block_size;
    const unsigned log2_n = log2_exact(n);
    if (n < 2 || log2_n > max_log2_fft || (std::uint64_t(1) << log2_n) != n) return status::bad_meta;
    // x is padded by at most one zero to an even length; nothing may be appended.
    if (m.work_dim % 2 != 0 || m.work_dim < 2 || m.work_dim - m.input_dim > 1 || m.input_append != 0.0)
        return status::bad_meta;
    const std::uint32_t half = m.work_dim / 2;
    if (half >= n) return status::bad_meta;
    const std::uint64_t per_block = 2ull * n, p = m.projection_dim;
    if (m.block_count == 0 || p == 0 || p > per_block * m.block_count || p <= per_block * (m.block_count - 1ull))
        return status::bad_meta;

    if (map.indices == nullptr || map.signs == nullptr || map.twiddles == nullptr) return status::missing_section;
    if (map.index_count != half) return status::bad_section_size;
    if (map.sign_count != std::uint64_t(m.block_count) * m.work_dim) return status::bad_section_size;
    if (map.twiddle_count != fft_twiddle_floats(log2_n)) return status::bad_section_size;
    // Frequencies in 1..n-1, strictly increasing (hence distinct: two equal frequencies would make
    // coincident points and overwrite each other in the scatter).
    std::uint32_t previous = 0;
    for (std::uint32_t l = 0; l < half; ++l) {
        const std::uint32_t f = map.indices[l];
        if (f <= previous || f >= n) return status::index_out_of_range;
        previous = f;
    }
    for (std::uint64_t i = 0; i < map.twiddle_count; ++i) {
        const float w = map.twiddles[i];
        if (!(w >= -1.0f && w <= 1.0f)) return status::bad_parameter_value;  // also rejects NaN
    }
    return status::ok;
}

std::size_t ssf_scratch_floats(const format::map_meta& meta) { return scratch_for_lanes(meta, 1); }

void ssf_apply(const map_view& map, const float* x, float* t, float* scratch) {
    project_group<1>(map, x, t, scratch);
}

// The lane count depends on the ISA, which the meta does not name: size for the widest.
std::size_t ssf_batch_scratch_floats(const format::map_meta& meta, std::size_t) {
    return scratch_for_lanes(meta, max_lanes);
}

// Whole groups of L rows through the batch FFT; the remaining rows one at a time, since a partial group
// would pay for all L lanes.
template <std::size_t L>
void apply_groups(const map_view& map, const float* x, std::size_t rows, float* t, float* scratch) {
    const std::size_t w = map.meta->work_dim, p = map.meta->projection_dim;
    std::size_t r = 0;
    for (; r + L <= rows; r += L) project_group<L>(map, x + r * w, t + r * p, scratch);
    for (; r < rows; ++r) project_group<1>(map, x + r * w, t + r * p, scratch);
}

void ssf_apply_batch(const map_view& map, const float* x, std::size_t rows, float* t, float* scratch) {
    const unsigned lanes = map.kernels->fft_batch != nullptr ? map.kernels->fft_batch_lanes : 1;
    switch (lanes) {
        case 2: apply_groups<2>(map, x, rows, t, scratch); break;
        case 4: apply_groups<4>(map, x, rows, t, scratch); break;
        case 8: apply_groups<8>(map, x, rows, t, scratch); break;
        case 16: apply_groups<16>(map, x, rows, t, scratch); break;
        default: apply_groups<1>(map, x, rows, t, scratch); break;  // no batch FFT: one vector at a time
    }
}

}  // namespace

extern const projection_ops ssf_fft_projection = {ssf_verify, ssf_scratch_floats, ssf_apply, ssf_batch_scratch_floats,
                                                  ssf_apply_batch};

}  // namespace kfm::detail
