// The kernels' double-precision references, written from each kernel's definition (src/kernels/kernel_table.hpp,
// docs/methods.md), and the deterministic generator of their inputs: shared by the native kernel tests
// (tests/kernels/*_test.cpp) and the on-device check (examples/cortex-m/kernel_check.cpp), so both hold the
// kernels to the same definitions. No doctest, no heap, nothing of the C++ library beyond <cmath>: it builds
// for bare-metal Cortex-M. (The plain FWHT reference is the benchmark peer bench/peers/fwht_naive.hpp.)
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/kernel_table.hpp"

namespace kfm_test {

// splitmix64: deterministic test inputs, identical on every platform.
struct test_rng {
    std::uint64_t state;
    explicit test_rng(std::uint64_t seed) : state(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
    float uniform(float lo, float hi) { return float(lo + (hi - lo) * uniform()); }
    std::uint32_t below(std::uint32_t n) { return std::uint32_t(uniform() * n); }
};

// ---- butterfly network (butterfly, butterfly_simplex_batch)

// log2 of the butterfly's padded size: the least d2 = 2^k >= d.
inline unsigned butterfly_log2_d2(unsigned d) {
    unsigned log2_d2 = 0;
    while ((1u << log2_d2) < d) ++log2_d2;
    return log2_d2;
}

// The d2 - 1 rotations of a network, as (cos, sin) pairs of uniform angles: cs holds 2 (d2 - 1) floats.
inline void random_rotations(test_rng& rng, unsigned log2_d2, float* cs) {
    for (unsigned k = 0; k + 1 < (1u << log2_d2); ++k) {
        const double theta = 2.0 * 3.14159265358979323846 * rng.uniform();
        cs[2 * k] = float(std::cos(theta));
        cs[2 * k + 1] = float(std::sin(theta));
    }
}

// A uniform permutation of 0 .. d-1 (Fisher-Yates from the top).
inline void random_permutation(test_rng& rng, unsigned d, std::uint32_t* perm) {
    for (unsigned i = 0; i < d; ++i) perm[i] = i;
    for (unsigned i = d; i > 1; --i) {
        const unsigned j = rng.below(i);
        const std::uint32_t s = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = s;
    }
}

// A random blocked permutation (d a multiple of 8): outputs 8b .. 8b+7 are the inputs of one group 8c .. 8c+7,
// in a random order (the quadrature builder's, format::method_flag_quadrature_blocked_permutation).
inline void random_blocked_permutation(test_rng& rng, unsigned d, std::uint32_t* perm) {
    std::vector<std::uint32_t> groups(d / 8);
    random_permutation(rng, d / 8, groups.data());
    for (unsigned b = 0; b < d / 8; ++b) {
        std::uint32_t order[8];
        random_permutation(rng, 8, order);
        for (unsigned l = 0; l < 8; ++l) perm[8 * b + l] = 8 * groups[b] + order[l];
    }
}

// The network's definition, in double, on x (d values) in place, `repeats` times: levels h = 1 .. d2/2, the
// block at s uses angle s+h-1, pairs whose partner is >= d pass through; then x[i] <- x[perm[i]] (through
// scratch, d values).
inline void reference_butterfly(const float* cs, const std::uint32_t* perm, unsigned d, unsigned log2_d2,
                                unsigned repeats, double* x, double* scratch) {
    const unsigned d2 = 1u << log2_d2;
    for (unsigned r = 0; r < repeats; ++r) {
        for (unsigned h = 1; h < d2; h *= 2)
            for (unsigned s = 0; s < d2; s += 2 * h) {
                const double c = cs[2 * (s + h - 1)], sn = cs[2 * (s + h - 1) + 1];
                for (unsigned i = s; i < s + h; ++i) {
                    if (i + h >= d) continue;
                    const double a = x[i], b = x[i + h];
                    x[i] = c * a + sn * b;
                    x[i + h] = -sn * a + c * b;
                }
            }
        for (unsigned i = 0; i < d; ++i) scratch[i] = x[perm[i]];
        for (unsigned i = 0; i < d; ++i) x[i] = scratch[i];
    }
}

// The simplex step's coefficients (docs/methods.md): r_j = sqrt((d+1)/d) / sqrt(L (L+1)), diag_j = L r_j,
// L = d - j, for j < d.
inline void simplex_coefficients(unsigned d, float* r, float* diag) {
    for (unsigned j = 0; j < d; ++j) {
        const double left = double(d - j), rj = std::sqrt((d + 1.0) / d) / std::sqrt(left * (left + 1.0));
        r[j] = float(rj);
        diag[j] = float(left * rj);
    }
}

// ---- features

// A real nonlinearity (relu, step, relu2, identity) at a, in double.
inline double real_feature(kfm::format::nonlinearity k, double a) {
    using kfm::format::nonlinearity;
    switch (k) {
        case nonlinearity::relu: return a > 0 ? a : 0;
        case nonlinearity::step: return a > 0 ? 1 : 0;
        case nonlinearity::relu2: return a > 0 ? a * a : 0;
        default: return a;  // identity
    }
}

// ---- kernel_of_dots

// The landmark kernel of the squared distance d2, in double, from the float parameters the kernel receives.
inline double landmark_kernel_value(const kfm::detail::landmark_kernel& k, double d2) {
    using kfm::detail::landmark_kernel_kind;
    const double u = std::fmin(double(k.a) * std::sqrt(d2), 128.0);
    switch (k.kind) {
        case landmark_kernel_kind::gaussian: return std::exp(double(k.a) * d2);
        case landmark_kernel_kind::matern_half: return std::exp(-u);
        case landmark_kernel_kind::matern_three_halves: return (1.0 + u) * std::exp(-u);
        case landmark_kernel_kind::matern_five_halves: return (1.0 + u + u * u / 3.0) * std::exp(-u);
        case landmark_kernel_kind::rational_quadratic: return std::pow(1.0 + double(k.a) * d2, double(k.b));
    }
    return NAN;
}

// One kernel of each kind, with parameters away from the trivial ones.
inline constexpr kfm::detail::landmark_kernel reference_landmark_kernels[] = {
    {kfm::detail::landmark_kernel_kind::gaussian, -0.7f, 0.0f},
    {kfm::detail::landmark_kernel_kind::matern_half, 1.3f, 0.0f},
    {kfm::detail::landmark_kernel_kind::matern_three_halves, 1.7f, 0.0f},
    {kfm::detail::landmark_kernel_kind::matern_five_halves, 2.2f, 0.0f},
    {kfm::detail::landmark_kernel_kind::rational_quadratic, 0.4f, -0.75f},
};

// How far kernel_of_dots' float value may be from landmark_kernel_value(k, d2) for d2 = max(x_sq + l_sq - 2
// dot, 0): the float rounding of the distance (a few ulp of its largest term) moves a decreasing kernel at
// most to its values at d2 -+ that; plus the float functions' own few ulp.
inline double landmark_kernel_tolerance(const kfm::detail::landmark_kernel& k, float x_sq, float l_sq, float dot,
                                        double d2) {
    const double e = 8 * 0x1p-24 * (x_sq + l_sq + 2 * std::fabs(dot));
    const double want = landmark_kernel_value(k, d2);
    return 2e-6 + std::fmax(landmark_kernel_value(k, std::fmax(d2 - e, 0.0)) - want,
                            want - landmark_kernel_value(k, d2 + e));
}

}  // namespace kfm_test
