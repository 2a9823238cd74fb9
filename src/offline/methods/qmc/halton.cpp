// Halton sequence with a Cranley-Patterson shift (see the header).
#include "offline/methods/qmc/halton.hpp"

#include <cmath>

namespace kfm::offline {

std::vector<std::uint32_t> first_primes(unsigned n) {
    std::vector<std::uint32_t> primes;
    primes.reserve(n);
    for (std::uint32_t c = 2; primes.size() < n; ++c) {
        bool prime = true;
        for (std::uint32_t p : primes) {
            if (std::uint64_t(p) * p > c) break;
            if (c % p == 0) { prime = false; break; }
        }
        if (prime) primes.push_back(c);
    }
    return primes;
}

double radical_inverse(std::uint64_t index, std::uint32_t base) {
    double result = 0.0, digit_scale = 1.0 / base;
    for (; index > 0; index /= base, digit_scale /= base) result += double(index % base) * digit_scale;
    return result;
}

void shifted_halton_point(std::uint64_t index, const std::vector<std::uint32_t>& primes,
                          const double* shift, double* out) {
    for (std::size_t i = 0; i < primes.size(); ++i) {
        const double v = radical_inverse(index, primes[i]) + shift[i];
        out[i] = v - std::floor(v);
    }
}

}  // namespace kfm::offline
