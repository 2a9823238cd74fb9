// maclaurin-opt's choice of the sketched degrees and their feature counts, from the data (the estimate of
// Wacker, Kanagawa and Filippone, "Improved random features for dot-product kernels": bias of the dropped
// degrees plus variance of the kept ones, both averaged over pairs of data rows).
#pragma once
#include <cstdint>
#include <vector>

namespace kfm::offline {

struct degree_allocation {
    // features[k - 2] = D_k, the features of degree k = 2, 3, ..., the largest kept degree; empty when no
    // feature budget is left for degree 2 and above.
    std::vector<std::uint32_t> features;
    double estimated_error = 0.0;  // the estimate of E |K_hat - K|_F^2 / |K|_F^2 it minimised, over the sample

    unsigned largest_degree() const { return unsigned(features.size()) + 1; }
};

// Estimated squared Gram error of exp(x.y) = sum_k z^k / k! on the centred, 1/sigma-scaled rows (rows x d,
// row-major) weighted by the gaussian prefactors, for D_k = features[k - 2]: per pair the squared sum of the
// dropped terms plus, per kept degree, (1/k!)^2 (m2^k - z^(2k)) / D_k with m2 = |x|^2 |y|^2 + 2 z^2 -
// 2 sum_i x_i^2 y_i^2 (a feature's second moment for random sign rows), relative to |K|_F^2.
double estimated_gram_error(const std::vector<double>& rows, std::size_t d, const std::vector<std::uint32_t>& features);

// The allocation with the least estimated error over budget = D - d2 - 1 features: for each largest degree
// K = 2..max_degree (each kept degree at least one feature), D_k proportional to the square root of the
// degree's variance term (the minimiser of sum_k v_k / D_k at fixed sum D_k), rounded by largest remainders.
degree_allocation allocate_degrees(const std::vector<double>& rows, std::size_t d, std::uint32_t budget,
                                   unsigned max_degree);

}  // namespace kfm::offline
