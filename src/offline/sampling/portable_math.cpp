// exp and log by range reduction to a small interval and a Taylor series, with the leading terms carried
// in double-double so that the final rounding dominates the error; powers by squaring in double-double.
// Double-double products use Dekker's split (no fused multiply-add).
#include "offline/sampling/portable_math.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace kfm::offline::portable {
namespace {

// A value hi + lo with |lo| <= ulp(hi) / 2.
struct double_double {
    double hi, lo;
};

// a + b = hi + lo exactly (Knuth).
double_double two_sum(double a, double b) {
    const double s = a + b;
    const double b_part = s - a;
    return {s, (a - (s - b_part)) + (b - b_part)};
}

// a + b = hi + lo exactly when |a| >= |b| (Dekker).
double_double fast_two_sum(double a, double b) {
    const double s = a + b;
    return {s, b - (s - a)};
}

// a = hi + lo with hi, lo of at most 26 significant bits (Veltkamp): needs |a| < 2^995.
void split(double a, double& hi, double& lo) {
    const double t = 134217729.0 * a;  // 2^27 + 1
    hi = t - (t - a);
    lo = a - hi;
}

// a * b = hi + lo exactly (Dekker), unless a product of the halves over- or underflows.
double_double two_product(double a, double b) {
    const double p = a * b;
    constexpr double split_limit = 0x1p995;
    if (!(std::fabs(a) < split_limit && std::fabs(b) < split_limit)) return {p, 0.0};
    double ah, al, bh, bl;
    split(a, ah, al);
    split(b, bh, bl);
    return {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}

double_double multiply(const double_double& a, const double_double& b) {
    const double_double p = two_product(a.hi, b.hi);
    return fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

// 1/n! for n = 0..15 (n! is exact in double up to 22!), each correctly rounded by the compiler.
constexpr std::array<double, 16> inverse_factorials = [] {
    std::array<double, 16> c{};
    double factorial = 1.0;
    for (int n = 0; n < 16; ++n) {
        if (n > 1) factorial *= n;
        c[n] = 1.0 / factorial;
    }
    return c;
}();

// 2 / (2n + 1) for n = 0..11, the series of 2 atanh(s) / s in s^2.
constexpr std::array<double, 12> atanh_coefficients = [] {
    std::array<double, 12> c{};
    for (int n = 0; n < 12; ++n) c[n] = 2.0 / (2 * n + 1);
    return c;
}();

// ln 2 = ln2_hi + ln2_lo: ln2_hi holds its first 32 bits, so k * ln2_hi is exact for |k| < 2^21; ln2_lo is
// the rest rounded to double (ln 2 = 0.693147180559945309417232121458176568...).
constexpr double ln2_hi = 0x1.62e42feep-1;
constexpr double ln2_lo = 0x1.a39ef35793c76p-33;
constexpr double inv_ln2 = 0x1.71547652b82fep+0;
constexpr double sqrt2 = 0x1.6a09e667f3bcdp+0;
// (v + 1.5 * 2^52) - 1.5 * 2^52 is v rounded to the nearest integer, for |v| < 2^51.
constexpr double round_shift = 0x1.8p52;

// m 2^k, one rounding (none unless the result is subnormal).
double scale_by_power_of_two(double m, int k) {
    if (k < -1022 || k > 1023) return std::ldexp(m, k);
    return m * std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
}

}  // namespace

double exp(double x) {
    if (std::isnan(x)) return x;
    if (x > 709.79) return std::numeric_limits<double>::infinity();  // ln(DBL_MAX) = 709.7827...
    if (x < -745.2) return 0.0;                                       // below half the least subnormal
    // x = k ln 2 + r, |r| <= ln(2)/2 (plus rounding); r_hi + r_lo carries r to about 1e-24.
    const double k = (x * inv_ln2 + round_shift) - round_shift;
    const double r_hi_exact = x - k * ln2_hi;  // exact: k * ln2_hi is exact and close to x
    const double_double r = two_sum(r_hi_exact, -(k * ln2_lo));
    // e^r - 1 - r = r^2 (1/2! + r/3! + ... + r^13/15!), the next term below 1e-20 for |r| <= 0.35;
    // Estrin's scheme (independent pairs) rather than Horner's chain, in a fixed order.
    const double* c = inverse_factorials.data();
    const double t = r.hi, t2 = t * t, t4 = t2 * t2, t8 = t4 * t4;
    const double poly = ((c[2] + c[3] * t) + (c[4] + c[5] * t) * t2) + ((c[6] + c[7] * t) + (c[8] + c[9] * t) * t2) * t4 +
                        (((c[10] + c[11] * t) + (c[12] + c[13] * t) * t2) + (c[14] + c[15] * t) * t4) * t8;
    const double tail = t2 * poly;
    // e^(r_hi + r_lo) = e^r_hi (1 + r_lo) to 1e-33; 1 + r_hi is summed exactly, the rest rounds once.
    const double_double one_plus_r = two_sum(1.0, r.hi);
    const double m = one_plus_r.hi + (one_plus_r.lo + (tail + (r.lo + r.lo * r.hi)));
    return scale_by_power_of_two(m, static_cast<int>(k));
}

double log(double x) {
    if (std::isnan(x) || x < 0.0) return std::numeric_limits<double>::quiet_NaN();
    if (x == 0.0) return -std::numeric_limits<double>::infinity();
    if (std::isinf(x)) return x;
    // x = m 2^k with m in [1/sqrt 2, sqrt 2): log x = k ln 2 + log(1 + f), f = m - 1 exact.
    int k = 0;
    if (x < 0x1p-1022) {  // subnormal: make it normal first
        x *= 0x1p54;
        k = -54;
    }
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
    k += static_cast<int>(bits >> 52) - 1023;
    double m = std::bit_cast<double>((bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1023} << 52));  // [1, 2)
    if (m > sqrt2) {
        m *= 0.5;
        ++k;
    }
    const double f = m - 1.0;
    // log(1 + f) = 2 atanh(s), s = f / (2 + f), |s| <= 0.1716; s = s_hi + s_lo to about 1e-32.
    const double_double denominator = two_sum(2.0, f);
    const double s_hi = f / denominator.hi;
    const double_double back = two_product(s_hi, denominator.hi);
    // The residual over 2 + f, as a product: 1 / (2 + f) = (1 - s) / 2, and the residual is ~1e-16 s.
    const double s_lo = (((f - back.hi) - back.lo) - s_hi * denominator.lo) * (0.5 * (1.0 - s_hi));
    // 2 atanh(s) - 2s = 2 s^3 (1/3 + s^2/5 + ... + s^20/23), the next term below 1e-19 relative;
    // Estrin's scheme in z = s^2.
    const double* c = atanh_coefficients.data();
    const double z = s_hi * s_hi, z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;
    const double poly = ((c[1] + c[2] * z) + (c[3] + c[4] * z) * z2) + ((c[5] + c[6] * z) + (c[7] + c[8] * z) * z2) * z4 +
                        ((c[9] + c[10] * z) + c[11] * z2) * z8;
    const double tail = s_hi * z * poly;
    const double kd = static_cast<double>(k);
    const double_double head = two_sum(kd * ln2_hi, 2.0 * s_hi);  // kd * ln2_hi is exact
    return head.hi + (head.lo + ((2.0 * s_lo + tail) + kd * ln2_lo));
}

double pow(double base, unsigned n) {
    double_double result{1.0, 0.0};
    double_double square{base, 0.0};
    while (n != 0) {
        if (n & 1u) result = multiply(result, square);
        n >>= 1;
        if (n != 0) square = multiply(square, square);
    }
    return result.hi + result.lo;
}

}  // namespace kfm::offline::portable
