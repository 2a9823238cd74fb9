// Builds the FFT twiddle table in the layout of kernels/fft_layout.hpp. Runs once per map (offline, or
// into a caller buffer outside the hot path); the kernels never evaluate trigonometric functions.
#include <cmath>

#include "kernels/fft_layout.hpp"
#include "kernels/kernel_table.hpp"

namespace kfm::detail {

std::size_t fft_twiddle_floats(unsigned log2_n) noexcept {
    return fft_layout::lane_tables_floats + 2 * ((std::size_t(1) << log2_n) - 1);
}

void fft_make_twiddles(unsigned log2_n, float* out) noexcept {
    const double pi = 3.14159265358979323846;
    for (std::size_t h = 1; h <= 8; h *= 2) {
        float* re = out + fft_layout::lane_offset(h);
        float* im = re + fft_layout::lane_count;
        for (std::size_t i = 0; i < fft_layout::lane_count; ++i) {
            const double angle = -pi * double(i % h) / double(h);
            const double sigma = (i & h) != 0 ? -1.0 : 1.0;
            re[i] = float(sigma * std::cos(angle));
            im[i] = float(sigma * std::sin(angle));
        }
    }
    const std::size_t n = std::size_t(1) << log2_n;
    for (std::size_t h = 1; h < n; h *= 2) {
        float* re = out + fft_layout::stage_offset(h);
        float* im = re + h;
        for (std::size_t k = 0; k < h; ++k) {
            const double angle = -pi * double(k) / double(h);
            re[k] = float(std::cos(angle));
            im[k] = float(std::sin(angle));
        }
    }
}

}  // namespace kfm::detail
