// Butterfly angles, permutations and the double-precision reference network (see the header).
#include "offline/sampling/butterfly_angles.hpp"

#include <algorithm>
#include <cmath>

#include "format/bits.hpp"

namespace kfm::offline {

std::vector<float> butterfly_cos_sin(unsigned d, rng& r) {
    const std::size_t d2 = std::size_t(1) << detail::ceil_log2(d);
    std::vector<double> u(d2);
    r.unit_sphere(u.data(), unsigned(d2));
    std::vector<float> cs(2 * (d2 - 1));
    for (std::size_t k = 0; k + 1 < d2; ++k) {
        const double theta = std::atan2(u[k], u[k + 1]);
        cs[2 * k] = float(std::cos(theta));
        cs[2 * k + 1] = float(std::sin(theta));
    }
    return cs;
}

namespace {

// One pass of all levels (forward) or its inverse (transpose: levels in reverse, rotations negated).
void levels(double* x, unsigned d, unsigned log2_d2, const float* cs, bool transpose) {
    for (unsigned step = 0; step < log2_d2; ++step) {
        const unsigned level = transpose ? log2_d2 - step : step + 1;
        const std::size_t block = std::size_t(1) << level, h = block / 2;
        for (std::size_t s = 0; s < d; s += block) {
            const double c = cs[2 * (s + h - 1)];
            const double sn = transpose ? -double(cs[2 * (s + h - 1) + 1]) : double(cs[2 * (s + h - 1) + 1]);
            for (std::size_t i = s; i < s + h && i + h < d; ++i) {
                const double a = x[i], b = x[i + h];
                x[i] = c * a + sn * b;
                x[i + h] = -sn * a + c * b;
            }
        }
    }
}

}  // namespace

void butterfly_apply_reference(double* x, unsigned d, const float* cs, const std::uint32_t* perm,
                               unsigned repeats, bool transpose) {
    const unsigned log2_d2 = detail::ceil_log2(d);
    std::vector<double> tmp(d);
    for (unsigned rep = 0; rep < repeats; ++rep) {
        if (!transpose) {
            levels(x, d, log2_d2, cs, false);
            for (unsigned i = 0; i < d; ++i) tmp[i] = x[perm[i]];
            for (unsigned i = 0; i < d; ++i) x[i] = tmp[i];
        } else {
            for (unsigned i = 0; i < d; ++i) tmp[perm[i]] = x[i];
            for (unsigned i = 0; i < d; ++i) x[i] = tmp[i];
            levels(x, d, log2_d2, cs, true);
        }
    }
}

std::vector<double> butterfly_dense_q(unsigned d, const float* cs, const std::uint32_t* perm,
                                      unsigned repeats) {
    // Q[i][j] = M[j][i] = (M e_i)_j: row i of Q is the network applied to the unit vector e_i.
    std::vector<double> q(std::size_t(d) * d);
    std::vector<double> e(d);
    for (unsigned i = 0; i < d; ++i) {
        std::fill(e.begin(), e.end(), 0.0);
        e[i] = 1.0;
        butterfly_apply_reference(e.data(), d, cs, perm, repeats, false);
        for (unsigned j = 0; j < d; ++j) q[std::size_t(i) * d + j] = e[j];
    }
    return q;
}

}  // namespace kfm::offline
