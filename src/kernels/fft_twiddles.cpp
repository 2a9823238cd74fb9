// Builds the FFT twiddle table in the layout of kernels/fft_layout.hpp, and checks a stored one against
// it (open() never trusts a derivable value). Runs once per map (offline, or at open outside the hot
// path); the kernels never evaluate trigonometric functions.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/fft_layout.hpp"
#include "kernels/kernel_table.hpp"

namespace kfm::detail {
namespace {

// Calls f(position, value) for every entry of the table of length 2^log2_n, in double before rounding.
template <class F>
void for_each_twiddle(unsigned log2_n, F&& f) {
    const double pi = 3.14159265358979323846;
    for (std::size_t h = 1; h <= 8; h *= 2) {
        const std::size_t re = fft_layout::lane_offset(h), im = re + fft_layout::lane_count;
        for (std::size_t i = 0; i < fft_layout::lane_count; ++i) {
            const double angle = -pi * double(i % h) / double(h);
            const double sigma = (i & h) != 0 ? -1.0 : 1.0;
            f(re + i, sigma * std::cos(angle));
            f(im + i, sigma * std::sin(angle));
        }
    }
    const std::size_t n = std::size_t(1) << log2_n;
    for (std::size_t h = 1; h < n; h *= 2) {
        const std::size_t re = fft_layout::stage_offset(h), im = re + h;
        for (std::size_t k = 0; k < h; ++k) {
            const double angle = -pi * double(k) / double(h);
            f(re + k, std::cos(angle));
            f(im + k, std::sin(angle));
        }
    }
}

// Floats in the order of their values as consecutive integers (so a difference of 1 is one ulp; +0 and
// -0 are both 0). NaN never reaches here.
std::int64_t ordered(float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    const std::int64_t magnitude = u & 0x7fffffffu;
    return (u >> 31) != 0 ? -magnitude : magnitude;
}

}  // namespace

std::size_t fft_twiddle_floats(unsigned log2_n) noexcept {
    return fft_layout::lane_tables_floats + 2 * ((std::size_t(1) << log2_n) - 1);
}

void fft_make_twiddles(unsigned log2_n, float* out) noexcept {
    for_each_twiddle(log2_n, [out](std::size_t i, double v) { out[i] = float(v); });
}

bool fft_twiddles_match(unsigned log2_n, const float* table) noexcept {
    bool match = true;
    for_each_twiddle(log2_n, [&](std::size_t i, double v) {
        const float stored = table[i];
        if (!std::isfinite(stored)) {
            match = false;
            return;
        }
        const std::int64_t distance = ordered(stored) - ordered(float(v));
        if (distance > 1 || distance < -1) match = false;
    });
    return match;
}

}  // namespace kfm::detail
