// Randomised Halton points for the QMC baseline (Avron et al. 2016): dimension i uses the i-th prime
// as radical-inverse base; the Cranley-Patterson shift (one uniform per dimension, added mod 1) makes
// every point uniformly distributed while keeping the low discrepancy of the set.
#pragma once
#include <cstdint>
#include <vector>

namespace kfm::offline {

// The first n primes (2, 3, 5, ...).
std::vector<std::uint32_t> first_primes(unsigned n);

// Van der Corput radical inverse of `index` in `base`, in [0, 1).
double radical_inverse(std::uint64_t index, std::uint32_t base);

// Point `index` (>= 1; index 0 is the origin) of the d-dimensional Halton sequence shifted by `shift`
// modulo 1: out[i] = frac(radical_inverse(index, primes[i]) + shift[i]).
void shifted_halton_point(std::uint64_t index, const std::vector<std::uint32_t>& primes,
                          const double* shift, double* out);

}  // namespace kfm::offline
