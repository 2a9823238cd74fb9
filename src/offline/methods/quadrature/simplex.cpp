// Regular simplex vertices for the SR(3,3) rule: closed-form entries, no stored matrix.
#include "offline/methods/quadrature/simplex.hpp"

#include <cmath>

namespace kfm::offline {

double simplex_row_scale(unsigned d, unsigned i) {
    const double dd = d, di = double(d) - double(i);
    return std::sqrt((dd + 1.0) / (di * dd * (di + 1.0)));
}

void simplex_project(const double* y, unsigned d, double* t) {
    double below = 0.0;  // sum_{i<j} r_i y_i: every row above j contributes -r_i to column j
    for (unsigned j = 0; j < d; ++j) {
        const double ry = simplex_row_scale(d, j) * y[j];
        t[j] = double(d - j) * ry - below;
        below += ry;
    }
    t[d] = -below;
}

std::vector<double> simplex_matrix(unsigned d) {
    std::vector<double> v(std::size_t(d) * (d + 1), 0.0);
    for (unsigned i = 0; i < d; ++i) {
        const double r = simplex_row_scale(d, i);
        v[std::size_t(i) * (d + 1) + i] = double(d - i) * r;
        for (unsigned j = i + 1; j <= d; ++j) v[std::size_t(i) * (d + 1) + j] = -r;
    }
    return v;
}

}  // namespace kfm::offline
