// Builds the FFT twiddle table in the layout of format/fft_layout.hpp, and checks a stored one against
// it (open() never trusts a derivable value). Runs once per map (offline, or at open outside the hot
// path); the kernels never evaluate trigonometric functions.
//
// The entries are float(cos(a)) and float(sin(a)) for a = -(pi_d k) / h in double (pi_d: pi rounded to a
// double), the values the table had when it was computed with libm's double cos and sin. They are computed
// here with 64-bit integers only (no libm, no double arithmetic: a microcontroller with a single-precision
// FPU runs it in integer instructions), so builder and runtime agree on every platform and C library:
//   - cos and sin of pi K / 2^15 (K < 2^14) in Q62 fixed point (1.0 = 2^62), as the product of the rotations
//     by pi 2^i / 2^15 for the set bits i of K (a table of 14 pairs rounded to the unit), with the quadrant
//     from K's top bit. Each of the at most 14 products adds at most 3 units of error (two truncations, the
//     table's rounding): at most 42 units (2^-56.6);
//   - rounded to float to nearest, ties to even.
// Every value but one is at least sin(pi / 2^15) = 9.6e-5 in magnitude, so this is within 2^-43 relative
// of cos(pi k / h), and the double angle's rounding (|a - pi k / h| < 2^-51 |a|) moves libm's value by less
// than 2^-36 relative; the exception is cos(pi_d / 2) = (pi - pi_d) / 2, which the rounding alone makes
// nonzero: a constant. So an entry could differ from libm's only if the exact value lay within 2^-36
// relative of a float rounding boundary: tests/kernels/fft_twiddles_test.cpp compares every entry of every
// table size (n = 2 ... 2^16) with libm's double cos and sin rounded to float, and all are identical, so
// the tables the builders write and the tables open accepts are unchanged.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "format/fft_layout.hpp"
#include "format/fft_twiddles.hpp"

namespace kfm::detail {
namespace {

using u64 = std::uint64_t;
using i64 = std::int64_t;

constexpr unsigned angle_bits = 15;  // angles pi K / 2^15: every k / h of a table with n <= 2^16
constexpr i64 one_q62 = i64(1) << 62;

// (cos, sin) of pi 2^i / 2^15 for i < 14, in Q62 rounded to the nearest unit (computed at 200 bits).
constexpr u64 rotations[14][2] = {
    {0x3ffffffb10b0cda1ull, 0x0001921fb539ecf3ull}, {0x3fffffec42c33745ull, 0x0003243f6a35d6afull},
    {0x3fffffb10b0ce943ull, 0x0006487ed27b93aaull}, {0x3ffffec42c3467deull, 0x000c90fd957659b0ull},
    {0x3ffffb10b0ddcc8dull, 0x001921faaee6472eull}, {0x3fffec42c43a03a5ull, 0x003243f17d994975ull},
    {0x3fffb10b1d15249bull, 0x006487c3f99c01c4ull}, {0x3ffec42d3725b6afull, 0x00c90e8fe6f63c23ull},
    {0x3ffb10c1099a1976ull, 0x0192155f7a3667e0ull}, {0x3fec43c6f2dafbc7ull, 0x0323ecbe21bb027dull},
    {0x3fb11b47a24a4b3cull, 0x0645e9af0a6d0af8ull}, {0x3ec52f9feeb96056ull, 0x0c7c5c1e34d3055bull},
    {0x3b20d79e651a8c51ull, 0x187de2a6aea962d2ull}, {0x2d413cccfe779921ull, 0x2d413cccfe779921ull},
};
constexpr float cos_of_pi_d_halved = 0x1.1a6264p-54f;  // float((pi - pi_d) / 2) = float(cos(pi_d / 2))

// (a b) >> 62 for 0 <= a, b <= 2^62, truncated: the product in Q62.
u64 mul_q62(u64 a, u64 b) {
    const u64 a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    const u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const u64 mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    const u64 high = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);  // bits 64 ... 127
    const u64 low = (mid << 32) | (p00 & 0xffffffffu);
    return (high << 2) | (low >> 62);
}

// v 2^-62 rounded to the nearest float, ties to even (|v| < 2^63).
float q62_to_float(i64 v) {
    if (v == 0) return 0.0f;
    u64 u = v < 0 ? u64(-v) : u64(v);
    int bits = 64 - __builtin_clzll(u);
    u64 mantissa = u;
    if (bits > 24) {
        const unsigned drop = unsigned(bits - 24);
        mantissa = u >> drop;
        const u64 rest = u & ((u64(1) << drop) - 1), half = u64(1) << (drop - 1);
        if (rest > half || (rest == half && (mantissa & 1u) != 0)) ++mantissa;
        if (mantissa == (u64(1) << 24)) {
            mantissa >>= 1;
            ++bits;
        }
    } else {
        mantissa <<= unsigned(24 - bits);
    }
    const std::uint32_t exponent = std::uint32_t(bits - 1 - 62 + 127);
    const std::uint32_t word = (v < 0 ? 0x80000000u : 0u) | (exponent << 23) | std::uint32_t(mantissa & 0x7fffffu);
    float f;
    std::memcpy(&f, &word, sizeof f);
    return f;
}

struct twiddle {
    float re, im;  // float(cos(a)), float(sin(a)) for a = -(pi_d k) / h
};

// The entries for k < h <= 2^15 (h a power of two).
twiddle exact_twiddle(u64 k, u64 h) {
    const u64 turn = k << angle_bits >> (63 - __builtin_clzll(h));  // pi turn / 2^15 = pi k / h
    const u64 quarter = u64(1) << (angle_bits - 1);
    u64 index = turn >= quarter ? turn - quarter : turn;
    u64 c = u64(one_q62), s = 0;  // cos and sin of pi index / 2^15, index < 2^14
    for (unsigned i = 0; index != 0; ++i, index >>= 1) {
        if ((index & 1u) == 0) continue;
        const u64 ci = rotations[i][0], si = rotations[i][1];
        const u64 next_c = mul_q62(c, ci) - mul_q62(s, si);
        s = mul_q62(s, ci) + mul_q62(c, si);
        c = next_c;
    }
    // cos and sin of pi k / h: past a quarter turn, cos(pi/2 + x) = -sin x and sin(pi/2 + x) = cos x.
    const i64 cos_t = turn >= quarter ? -i64(s) : i64(c), sin_t = turn >= quarter ? i64(c) : i64(s);
    twiddle t;
    t.re = turn == quarter ? cos_of_pi_d_halved : q62_to_float(cos_t);
    t.im = -q62_to_float(sin_t);  // sin(-x) = -sin x, and -0 for k = 0 as sin(-0.0)
    return t;
}

// Calls f(position, value) for every entry of the table of length 2^log2_n.
template <class F>
void for_each_twiddle(unsigned log2_n, F&& f) {
    for (std::size_t h = 1; h <= 8; h *= 2) {
        const std::size_t re = fft_layout::lane_offset(h), im = re + fft_layout::lane_count;
        for (std::size_t k = 0; k < h; ++k) {
            const twiddle t = exact_twiddle(k, h);
            for (std::size_t i = k; i < fft_layout::lane_count; i += h) {  // the lanes i with i % h = k
                const bool flip = (i & h) != 0;
                f(re + i, flip ? -t.re : t.re);
                f(im + i, flip ? -t.im : t.im);
            }
        }
    }
    const std::size_t n = std::size_t(1) << log2_n;
    for (std::size_t h = 1; h < n; h *= 2) {
        const std::size_t re = fft_layout::stage_offset(h), im = re + h;
        for (std::size_t k = 0; k < h; ++k) {
            const twiddle t = exact_twiddle(k, h);
            f(re + k, t.re);
            f(im + k, t.im);
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
    for_each_twiddle(log2_n, [out](std::size_t i, float v) { out[i] = v; });
}

bool fft_twiddles_match(unsigned log2_n, const float* table) noexcept {
    bool match = true;
    for_each_twiddle(log2_n, [&](std::size_t i, float v) {
        const float stored = table[i];
        if (!std::isfinite(stored)) {
            match = false;
            return;
        }
        const std::int64_t distance = ordered(stored) - ordered(v);
        if (distance > 1 || distance < -1) match = false;
    });
    return match;
}

}  // namespace kfm::detail
