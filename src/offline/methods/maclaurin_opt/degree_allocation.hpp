// maclaurin-opt's choice of the sketched degrees and their feature counts, from the data (the estimate of
// Wacker, Kanagawa and Filippone, "Improved random features for dot-product kernels": bias of the dropped
// degrees plus variance of the kept ones, both averaged over pairs of data rows).
#pragma once
#include <cstdint>
#include <vector>

namespace kfm::offline {

// The kernel on the prepared rows as a dot-product series, k(x, y) = w(x) w(y) sum_k c_k (x.y)^k.
struct dot_product_series {
    // c_0, c_1, ..., c_K: every degree the map may keep (c_k = 0 above K for a polynomial).
    std::vector<double> coefficients;
    // The gaussian: c_k = 1/k!, the series is exp(x.y) (its terms above K are the truncation), and
    // w(x) = exp(-|x|^2 / 2) weights every pair. Otherwise the series ends at K and w = 1.
    bool gaussian = false;

    unsigned largest_degree() const { return coefficients.empty() ? 0 : unsigned(coefficients.size()) - 1; }
};

// exp(x.y): c_k = 1/k! for k = 0..largest, with the gaussian prefactors.
dot_product_series gaussian_series(unsigned largest);
// The polynomial-sphere kernel (1 - |x - y|^2 / a^2)^p on unit x, y: with |x - y|^2 = 2 - 2 x.y it is
// ((1 - 2/a^2) + (2/a^2) x.y)^p, so c_k = binom(p, k) (1 - 2/a^2)^(p-k) (2/a^2)^k, k = 0..p (all >= 0 for
// a^2 >= 2).
dot_product_series polynomial_sphere_series(unsigned p, double a);

struct degree_allocation {
    // features[k - 2] = D_k, the features of degree k = 2, 3, ..., the largest kept degree; empty when no
    // feature budget is left for degree 2 and above.
    std::vector<std::uint32_t> features;
    double estimated_error = 0.0;  // the estimate of E |K_hat - K|_F^2 / |K|_F^2 it minimised, over the sample

    unsigned largest_degree() const { return unsigned(features.size()) + 1; }
};

// Estimated squared Gram error of `series` on the prepared rows (rows x d, row-major) for D_k =
// features[k - 2]: per pair, weighted by w(x)^2 w(y)^2, the squared sum of the dropped terms plus, per kept
// degree, c_k^2 (m2^k - z^(2k)) / D_k with z = x.y and m2 = |x|^2 |y|^2 + 2 z^2 - 2 sum_i x_i^2 y_i^2 (a
// feature's second moment for random sign rows), relative to |K|_F^2.
double estimated_gram_error(const std::vector<double>& rows, std::size_t d, const dot_product_series& series,
                            const std::vector<std::uint32_t>& features);

// The allocation with the least estimated error over budget = D - d2 - 1 features: for each largest degree
// K = 2..min(max_degree, the series' largest) (each kept degree at least one feature), D_k proportional to
// the square root of the degree's variance term (the minimiser of sum_k v_k / D_k at fixed sum D_k),
// rounded by largest remainders.
degree_allocation allocate_degrees(const std::vector<double>& rows, std::size_t d, const dot_product_series& series,
                                   std::uint32_t budget, unsigned max_degree);

}  // namespace kfm::offline
