// The regular simplex of the SR(3,3) quadrature rule (docs/methods.md, "The simplex"): d+1 unit
// vertices in R^d, applied as V^T y in O(d) with a running sum, plus the dense V for tests.
#pragma once
#include <vector>

namespace kfm::offline {

// r_i = sqrt((d+1) / ((d-i) d (d-i+1))), the entry scale of row i (0-based, i < d).
double simplex_row_scale(unsigned d, unsigned i);

// t[0..d] = V^T y for y[0..d): t_j = (d-j) r_j y_j - sum_{i<j} r_i y_i (t_d = -sum_i r_i y_i).
void simplex_project(const double* y, unsigned d, double* t);

// V as d x (d+1) values, row-major: V[i,i] = (d-i) r_i, V[i, i+1..d] = -r_i, zero elsewhere.
std::vector<double> simplex_matrix(unsigned d);

}  // namespace kfm::offline
