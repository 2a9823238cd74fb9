// The count_sketch_fft projection (TensorSketch): t = IFFT( prod_k FFT(C_k x) ) / D, real part, where
// C_k is the k-th of p = block_count count sketches of x (work_dim values, the appended sqrt(q)
// included) into D = block_size buckets: bucket indices[k work_dim + i] gets sign_k(i) x[i], with
// sign bit k work_dim + i of SIGN (1 means -1). The FFTs are the kernel table's, twiddles from TWID.
#include <cmath>
#include <cstring>

#include "format/fft_twiddles.hpp"
#include "kernels/kernel_table.hpp"
#include "format/checked.hpp"
#include "runtime/projection.hpp"
#include "runtime/work_bound.hpp"

namespace kfm::detail {
namespace {

constexpr unsigned max_log2_sketch = 16;  // the FFT kernel's limit


status count_sketch_verify(const map_state& map) {
    const auto& m = *map.meta;
    const unsigned log2 = ceil_log2(m.block_size);
    // A power of two in [2, 2^16] (the FFT kernel's range); one sketch per degree.
    if (!is_power_of_two(m.block_size) || log2 == 0 || log2 > max_log2_sketch || m.block_count == 0 ||
        m.block_count > format::max_polynomial_degree || m.projection_dim != m.block_size) return status::bad_meta;
    std::uint64_t entries = 0;
    if (!checked_mul(std::uint64_t(m.block_count), std::uint64_t(m.work_dim), &entries)) return status::bad_meta;
    const auto indices = map.view<section::indices>();
    const auto signs = map.view<section::signs>();
    const auto twiddles = map.view<section::twiddles>();
    if (!indices.present() || !signs.present() || !twiddles.present()) return status::missing_section;
    if (indices.count != entries || signs.count != entries) return status::bad_section_size;
    if (twiddles.count != fft_twiddle_floats(log2)) return status::bad_section_size;
    for (std::uint64_t i = 0; i < entries; ++i)
        if (indices[i] >= m.block_size) return status::index_out_of_range;
    // The table is a function of n: it must be the one fft_make_twiddles writes (to the ulp).
    if (!fft_twiddles_match(log2, twiddles.data)) return status::bad_parameter_value;
    return status::ok;
}

// Product spectrum (re, im) and one sketch's spectrum (re, im): 4 D floats.
std::size_t count_sketch_scratch_floats(const format::map_meta& meta) { return 4 * std::size_t(meta.block_size); }

void count_sketch_apply(const map_state& map, const float* x, float* t, float* scratch) {
    const auto& m = *map.meta;
    const std::uint32_t n = m.block_size, w = m.work_dim;
    const unsigned log2 = ceil_log2(n);
    float* prod_re = scratch;
    float* prod_im = scratch + n;
    float* re = scratch + 2 * std::size_t(n);
    float* im = scratch + 3 * std::size_t(n);
    const std::uint8_t* signs = map.view<section::signs>().data;
    const std::uint32_t* indices = map.view<section::indices>().data;
    const float* twiddles = map.view<section::twiddles>().data;
    for (std::uint32_t k = 0; k < m.block_count; ++k) {
        std::memset(re, 0, sizeof(float) * n);
        std::memset(im, 0, sizeof(float) * n);
        const std::size_t base = std::size_t(k) * w;
        for (std::uint32_t i = 0; i < w; ++i) {
            const std::size_t bit = base + i;
            const bool negative = bit_at(signs, bit);
            re[indices[base + i]] += negative ? -x[i] : x[i];
        }
        if (k == 0) {
            map.kernels->fft(re, im, prod_re, prod_im, log2, twiddles, false);
            continue;
        }
        map.kernels->fft(re, im, re, im, log2, twiddles, false);
        for (std::uint32_t j = 0; j < n; ++j) {
            const float a = prod_re[j], b = prod_im[j];
            prod_re[j] = a * re[j] - b * im[j];
            prod_im[j] = a * im[j] + b * re[j];
        }
    }
    // The product of real signals' spectra is Hermitian, so the inverse is real up to rounding.
    map.kernels->fft(prod_re, prod_im, t, im, log2, twiddles, true);
    const float inv_n = 1.0f / float(n);
    for (std::uint32_t j = 0; j < n; ++j) t[j] *= inv_n;
}

// Per sketch: the scatter, an FFT and the product; then the inverse FFT of the product.
std::uint64_t count_sketch_work(const map_state& map) {
    const format::map_meta& m = *map.meta;
    const std::uint64_t w = m.work_dim, n = m.block_size, blocks = m.block_count;
    return blocks * (4 * n + w + 2 * transform_cost(n)) + 2 * transform_cost(n) + n;
}

// Each sketch's spectrum is <= |x|_1; their product over block_count sketches, summed over n bins.
template <class M>
typename M::real count_sketch_output_bound(const map_state& map, const input_norms<typename M::real>& x) {
    using real = typename M::real;
    const real one = log2_magnitudes<M>::larger(x.one, real(0));
    return one * real(map.meta->block_count) + M::log2(real(map.meta->block_size));
}

}  // namespace

extern const projection_ops count_sketch_fft_projection = {
    count_sketch_verify, count_sketch_scratch_floats, count_sketch_apply,
    nullptr, nullptr,  // no batched path: transform_batch runs apply row by row
    count_sketch_work, KFM_OUTPUT_BOUNDS(count_sketch_output_bound)};

}  // namespace kfm::detail
