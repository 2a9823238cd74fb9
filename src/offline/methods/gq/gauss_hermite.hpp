// Gauss-Hermite rules for the standard normal weight: n nodes xi_k and weights lambda_k (summing to 1) with
// sum_k lambda_k p(xi_k) = E[p(g)], g ~ N(0, 1), for every polynomial p of degree <= 2n - 1. These are the
// physicists' rule (numpy.polynomial.hermite.hermgauss) with nodes times sqrt(2) and weights / sqrt(pi).
#pragma once
#include <vector>

namespace kfm::offline {

inline constexpr unsigned gauss_hermite_max_nodes = 64;

struct gauss_hermite_rule {
    std::vector<double> nodes;    // ascending
    std::vector<double> weights;  // positive, sum 1
};

// n in [1, gauss_hermite_max_nodes] (std::invalid_argument otherwise). Only + - * / and sqrt, so the
// result is the same on every IEEE platform.
gauss_hermite_rule gauss_hermite_normal(unsigned n);

}  // namespace kfm::offline
