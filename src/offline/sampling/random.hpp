// The project's own seeded random generator and samplers (offline only). Every random choice made
// by a builder goes through this file so that the same seed gives the same map on every platform:
// xoshiro256** seeded through splitmix64, and samplers written here (never std::*_distribution,
// whose output is implementation-defined).
#pragma once
#include <cstdint>
#include <vector>

// Eigen is a private dependency of kfm_offline: test and CLI targets that include this header may not
// have it on their include path, so the Eigen-returning overload is declared only where Eigen is visible.
#if __has_include(<Eigen/Dense>)
#include <Eigen/Dense>
#define KFM_OFFLINE_HAVE_EIGEN 1
#endif

namespace kfm::offline {

// splitmix64 step: advances `state` and returns the next mixed value. Used for seeding and derive().
std::uint64_t splitmix64(std::uint64_t& state);

// A seed for an independent substream `stream` of `seed` (e.g. one per block or per role), so that
// adding a new random role to a builder does not shift the numbers drawn by the others.
std::uint64_t derive(std::uint64_t seed, std::uint64_t stream);

class rng {
public:
    explicit rng(std::uint64_t seed);

    std::uint64_t next_u64();                 // xoshiro256** output
    double uniform();                         // [0, 1), 53 random bits
    double uniform_open();                    // (0, 1), never 0 (safe for log)
    double normal();                          // N(0, 1), Marsaglia polar method
    double gamma(double shape);               // Gamma(shape, 1), Marsaglia–Tsang; shape > 0
    double chi(double k);                     // chi with k degrees of freedom = sqrt(2 Gamma(k/2))
    void unit_sphere(double* out, unsigned d);  // uniform on S^{d-1} (normalised Gaussian); d >= 1
    int rademacher();                         // +1 or -1 with probability 1/2
    std::uint64_t below(std::uint64_t n);     // uniform in [0, n) without modulo bias; n >= 1

private:
    std::uint64_t s_[4];
    bool has_spare_ = false;  // the polar method yields normals in pairs
    double spare_ = 0.0;
};

// Haar-distributed d x d orthogonal matrix: Householder QR of a Gaussian matrix drawn row by row
// from `r`, with the signs of diag(R) folded into Q (Mezzadri 2007). Deterministic in r's state.
#ifdef KFM_OFFLINE_HAVE_EIGEN
Eigen::MatrixXd haar_orthogonal(unsigned d, rng& r);
#endif
// The same matrix (same draws from `r`) as d*d values, row-major, for code without Eigen.
std::vector<double> haar_orthogonal_rows(unsigned d, rng& r);

// A uniformly random permutation of 0..d-1 (Fisher-Yates with rng::below).
std::vector<std::uint32_t> random_permutation(unsigned d, rng& r);

// A uniformly random blocked permutation of 0..d-1 (d a multiple of 8): the outputs 8b .. 8b+7 are the inputs
// 8c .. 8c+7 of c = sigma(b), in the order tau_b, with sigma and every tau_b uniform (random_permutation).
// A gather through it moves whole groups of eight (format::method_flag_quadrature_blocked_permutation).
std::vector<std::uint32_t> random_blocked_permutation(unsigned d, rng& r);

// A Latin (stratified) sample of n uniforms: u_k = (pi(k) + U_k) / n with pi a uniform random permutation
// of [0, n) (random_permutation) and U_k uniform in (0, 1). Each u_k alone is uniform on (0, 1); together they
// hold exactly one value in each interval [i/n, (i+1)/n). 1 <= n < 2^32.
std::vector<double> stratified_uniforms(std::size_t n, rng& r);

}  // namespace kfm::offline
