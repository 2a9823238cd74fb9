// The ssf_fft projection (SSF, docs/methods.md): per block b, flip the signs of x (SIGN bits
// b*work_dim ..), scatter z = x[0:m] + i x[m:2m] into a zero length-n buffer at the frequencies of the
// INDX section, one forward FFT, and t[b 2n ..] = m^{-1/2} [Re; Im], the stack truncated to projection_dim
// (keeping whole (Re_j, Im_j) pairs in a truncated block measured no better on LETTER/USPS).
// Each t_i is then v_i . (s x) with |v_i| = 1.
#include <cmath>
#include <cstring>

#include "kernels/kernel_table.hpp"
#include "runtime/projection.hpp"

namespace kfm::detail {
namespace {

constexpr unsigned max_log2_fft = 16;  // the FFT kernel's limit

unsigned log2_exact(std::uint32_t n) {
    unsigned log2 = 0;
    while ((std::uint64_t(1) << log2) < n) ++log2;
    return log2;
}

// Floats from the start of the scratch to the imaginary buffer: a whole number of 64-byte lines.
std::size_t im_offset(std::uint32_t n) { return (std::size_t(n) + 15) / 16 * 16; }

// v with its sign flipped when bit i is set: an XOR of the IEEE sign, no branch in the scatter loop.
float flip(float v, const std::uint8_t* bits, std::size_t i) {
    std::uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    u ^= std::uint32_t((bits[i >> 3] >> (i & 7)) & 1u) << 31;
    std::memcpy(&v, &u, sizeof v);
    return v;
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

std::size_t ssf_scratch_floats(const format::map_meta& meta) { return 2 * im_offset(meta.block_size); }

void ssf_apply(const map_view& map, const float* x, float* t, float* scratch) {
    const auto& m = *map.meta;
    const std::uint32_t n = m.block_size, half = m.work_dim / 2;
    const unsigned log2_n = log2_exact(n);
    const float norm = 1.0f / std::sqrt(float(half));
    float* re = scratch;
    float* im = scratch + im_offset(n);
    // Every block scatters to the same frequencies, and full blocks transform out of place, so the
    // other entries stay zero from this one clear.
    std::memset(re, 0, sizeof(float) * n);
    std::memset(im, 0, sizeof(float) * n);
    for (std::uint32_t b = 0; b < m.block_count; ++b) {
        const std::uint8_t* bits = map.signs;
        const std::size_t bit0 = std::size_t(b) * m.work_dim;
        // The FFT is linear: scaling the m inputs by m^{-1/2} costs less than scaling the 2n outputs.
        for (std::uint32_t l = 0; l < half; ++l) {
            re[map.indices[l]] = flip(norm * x[l], bits, bit0 + l);
            im[map.indices[l]] = flip(norm * x[half + l], bits, bit0 + half + l);
        }
        const std::size_t begin = std::size_t(b) * 2 * n;
        const std::size_t block = std::size_t(2) * n;
        const std::size_t count = m.projection_dim - begin < block ? m.projection_dim - begin : block;
        if (count == block) {
            map.kernels->fft(re, im, t + begin, t + begin + n, log2_n, map.twiddles, false);
        } else {  // the truncated last block: transform in the scratch, keep the first `count`
            map.kernels->fft(re, im, re, im, log2_n, map.twiddles, false);
            for (std::size_t i = 0; i < count; ++i) t[begin + i] = i < n ? re[i] : im[i - n];
        }
    }
}

}  // namespace

extern const projection_ops ssf_fft_projection = {ssf_verify, ssf_scratch_floats, ssf_apply, nullptr, nullptr};

}  // namespace kfm::detail
