// The arithmetic of the finite-output bound (runtime/output_bound.hpp), shared by output_bound.cpp and each
// projection's own bound (projection_<kind>.cpp): log2 magnitudes, in double with libm's log2 and exp2 (the
// host) or in float with the portable log2 and exp2 below (the firmware profile, which has no
// double-precision libm). Every bound is a log2, so no product of stored values can overflow while it is
// computed; log2(0) = -inf stays ordered.
#pragma once
#include <cmath>
#include <cstdint>

namespace kfm::detail {

// log2 |v| of a float, and 2^t for t <= 0, in float arithmetic alone (output_bound.cpp).
float portable_log2(float v);
float portable_exp2(float t);

// The arithmetic of one instantiation. (output_bound.cpp extends both with log2 |v| of a double, which only
// its input stage takes.)
struct double_math {
    using real = double;
    static double log2(double v) { return std::log2(v); }
    static double exp2(double v) { return std::exp2(v); }
    static double log2_abs(float v) { return std::log2(std::fabs(double(v))); }
};
struct float_math {
    using real = float;
    static float log2(float v) { return portable_log2(v); }
    static float exp2(float v) { return portable_exp2(v); }
    static float log2_abs(float v) { return portable_log2(v); }
};

// The pre-processed input's norms as log2: its 1-norm and 2-norm.
template <class Real>
struct input_norms {
    Real one, two;
};

template <class M>
struct log2_magnitudes {
    using real = typename M::real;

    static real larger(real a, real b) { return a > b ? a : b; }

    // log2 of |a| + |b| from log2 |a| and log2 |b| (a bound on any sum of the two).
    static real log2_sum(real la, real lb) {
        const real hi = larger(la, lb), lo = la > lb ? lb : la;
        if (hi == -INFINITY) return hi;
        return hi + M::log2(real(1) + M::exp2(lo - hi));
    }

    // log2 of max |v_i| over n floats (-inf for none).
    static real log2_max_abs(const float* v, std::uint64_t n) {
        float m = 0.0f;
        for (std::uint64_t i = 0; i < n; ++i) {
            const float a = std::fabs(v[i]);
            if (a > m) m = a;
        }
        return M::log2_abs(m);
    }
};

}  // namespace kfm::detail
