// The FFT twiddle table (format/fft_twiddles.cpp) is computed with integers only. Every entry of every
// table size must equal what libm's double cos and sin, rounded to float, give for the same angle: then the
// builders write the same bytes, and open accepts and refuses the same tables, with or without a
// double-precision libm (the firmware profile, docs/embedding.md "Microcontrollers").
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "format/fft_layout.hpp"
#include "format/fft_twiddles.hpp"
#include "kernels/kernel_table.hpp"

namespace {

namespace layout = kfm::detail::fft_layout;

// The table as libm computes it: float(sigma cos(a)), float(sigma sin(a)) for a = -pi k / h in double.
std::vector<float> libm_twiddles(unsigned log2_n) {
    const double pi = 3.14159265358979323846;
    std::vector<float> t(kfm::detail::fft_twiddle_floats(log2_n));
    for (std::size_t h = 1; h <= 8; h *= 2) {
        const std::size_t re = layout::lane_offset(h), im = re + layout::lane_count;
        for (std::size_t i = 0; i < layout::lane_count; ++i) {
            const double angle = -pi * double(i % h) / double(h);
            const double sigma = (i & h) != 0 ? -1.0 : 1.0;
            t[re + i] = float(sigma * std::cos(angle));
            t[im + i] = float(sigma * std::sin(angle));
        }
    }
    for (std::size_t h = 1; h < (std::size_t(1) << log2_n); h *= 2) {
        const std::size_t re = layout::stage_offset(h), im = re + h;
        for (std::size_t k = 0; k < h; ++k) {
            const double angle = -pi * double(k) / double(h);
            t[re + k] = float(std::cos(angle));
            t[im + k] = float(std::sin(angle));
        }
    }
    return t;
}

}  // namespace

TEST_CASE("fft twiddles: the integer table equals libm's double cos and sin to the bit, n = 2 ... 2^16") {
    for (unsigned log2_n = 1; log2_n <= 16; ++log2_n) {
        const std::vector<float> expected = libm_twiddles(log2_n);
        std::vector<float> made(expected.size());
        kfm::detail::fft_make_twiddles(log2_n, made.data());
        std::size_t different = 0, first = 0;
        for (std::size_t i = 0; i < made.size(); ++i) {
            if (std::memcmp(&made[i], &expected[i], sizeof(float)) != 0 && different++ == 0) first = i;
        }
        INFO("n = 2^" << log2_n << ": " << different << " entries differ, the first at " << first << ": "
                      << made[first] << " against libm's " << expected[first]);
        CHECK(different == 0);
        CHECK(kfm::detail::fft_twiddles_match(log2_n, expected.data()));
    }
}

TEST_CASE("fft twiddles: a stored table within one ulp of every entry is accepted, two ulps refused") {
    const unsigned log2_n = 10;
    const std::vector<float> base = libm_twiddles(log2_n);
    for (std::size_t i = 0; i < base.size(); i += 7) {
        for (const int ulps : {-2, -1, 1, 2}) {
            std::vector<float> t = base;
            for (int u = 0; u < (ulps < 0 ? -ulps : ulps); ++u)
                t[i] = std::nextafter(t[i], ulps < 0 ? -INFINITY : INFINITY);
            INFO("entry " << i << " moved by " << ulps << " ulps");
            CHECK(kfm::detail::fft_twiddles_match(log2_n, t.data()) == (ulps == 1 || ulps == -1));
        }
    }
}
