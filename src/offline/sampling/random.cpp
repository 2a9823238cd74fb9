// Seeded generator (xoshiro256**, splitmix64 seeding) and the samplers every builder uses.
#include "offline/sampling/random.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace kfm::offline {

namespace {
std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

std::uint64_t splitmix64(std::uint64_t& state) {
    state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::uint64_t derive(std::uint64_t seed, std::uint64_t stream) {
    // Mix the seed, then fold in the stream and mix again: nearby (seed, stream) pairs give
    // unrelated results, and derive(s, a) != derive(s, b) for a != b with overwhelming probability.
    std::uint64_t state = seed;
    std::uint64_t a = splitmix64(state);
    state = a ^ (stream * 0xD1342543DE82EF95ull + 0x2545F4914F6CDD1Dull);
    return splitmix64(state);
}

rng::rng(std::uint64_t seed) {
    std::uint64_t state = seed;
    for (auto& s : s_) s = splitmix64(state);
    // splitmix64 outputs are a bijection of distinct states, so the four words cannot all be zero.
}

std::uint64_t rng::next_u64() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

double rng::uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

double rng::uniform_open() {
    // Midpoints of the 2^53 grid: strictly inside (0, 1).
    return (static_cast<double>(next_u64() >> 11) + 0.5) * 0x1.0p-53;
}

double rng::normal() {
    if (has_spare_) {
        has_spare_ = false;
        return spare_;
    }
    double u = 0.0, v = 0.0, s = 0.0;
    do {
        u = 2.0 * uniform() - 1.0;
        v = 2.0 * uniform() - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double f = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * f;
    has_spare_ = true;
    return u * f;
}

double rng::gamma(double shape) {
    if (!(shape > 0.0) || !std::isfinite(shape))
        throw std::invalid_argument("gamma sampler: shape must be positive and finite");
    if (shape < 1.0) {
        // Boost: if G ~ Gamma(shape + 1) and U ~ U(0,1), then G * U^{1/shape} ~ Gamma(shape).
        const double g = gamma(shape + 1.0);
        return g * std::pow(uniform_open(), 1.0 / shape);
    }
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        double x = 0.0, v = 0.0;
        do {
            x = normal();
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        const double u = uniform_open();
        if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return d * v;
        if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
    }
}

double rng::chi(double k) {
    if (!(k > 0.0) || !std::isfinite(k))
        throw std::invalid_argument("chi sampler: degrees of freedom must be positive and finite");
    return std::sqrt(2.0 * gamma(0.5 * k));
}

void rng::unit_sphere(double* out, unsigned d) {
    if (d == 0) throw std::invalid_argument("unit_sphere: dimension must be at least 1");
    for (;;) {
        double norm2 = 0.0;
        for (unsigned i = 0; i < d; ++i) {
            out[i] = normal();
            norm2 += out[i] * out[i];
        }
        if (norm2 > 0.0) {
            const double inv = 1.0 / std::sqrt(norm2);
            for (unsigned i = 0; i < d; ++i) out[i] *= inv;
            return;
        }
    }
}

int rng::rademacher() { return (next_u64() >> 63) ? 1 : -1; }

std::uint64_t rng::below(std::uint64_t n) {
    if (n == 0) throw std::invalid_argument("below: n must be at least 1");
    // Rejection on the top of the range: accept x < n * floor(2^64 / n), then x mod n is uniform.
    const std::uint64_t limit = (0 - n) % n;  // 2^64 mod n: the values to reject at the bottom
    for (;;) {
        const std::uint64_t x = next_u64();
        if (x >= limit) return x % n;
    }
}

Eigen::MatrixXd haar_orthogonal(unsigned d, rng& r) {
    if (d == 0) throw std::invalid_argument("haar_orthogonal: dimension must be at least 1");
    Eigen::MatrixXd g(d, d);
    for (unsigned i = 0; i < d; ++i)
        for (unsigned j = 0; j < d; ++j) g(i, j) = r.normal();
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
    Eigen::MatrixXd q = qr.householderQ();
    const Eigen::MatrixXd& packed = qr.matrixQR();
    for (unsigned j = 0; j < d; ++j)
        if (packed(j, j) < 0.0) q.col(j) = -q.col(j);
    return q;
}

std::vector<double> haar_orthogonal_rows(unsigned d, rng& r) {
    const Eigen::MatrixXd q = haar_orthogonal(d, r);
    std::vector<double> rows(static_cast<std::size_t>(d) * d);
    for (unsigned i = 0; i < d; ++i)
        for (unsigned j = 0; j < d; ++j) rows[static_cast<std::size_t>(i) * d + j] = q(i, j);
    return rows;
}

std::vector<std::uint32_t> random_permutation(unsigned d, rng& r) {
    std::vector<std::uint32_t> p(d);
    for (unsigned i = 0; i < d; ++i) p[i] = i;
    for (unsigned i = d; i > 1; --i) std::swap(p[i - 1], p[std::size_t(r.below(i))]);
    return p;
}

std::vector<std::uint32_t> random_blocked_permutation(unsigned d, rng& r) {
    if (d % 8 != 0) throw std::invalid_argument("random_blocked_permutation: d must be a multiple of 8");
    const std::vector<std::uint32_t> groups = random_permutation(d / 8, r);
    std::vector<std::uint32_t> p(d);
    for (unsigned b = 0; b < d / 8; ++b) {
        const std::vector<std::uint32_t> order = random_permutation(8, r);
        for (unsigned l = 0; l < 8; ++l) p[8 * b + l] = 8 * groups[b] + order[l];
    }
    return p;
}

std::vector<double> stratified_uniforms(std::size_t n, rng& r) {
    if (n == 0) throw std::invalid_argument("stratified_uniforms: n must be at least 1");
    if (n > std::numeric_limits<std::uint32_t>::max())  // the permutation's indices are 32-bit
        throw std::invalid_argument("stratified_uniforms: n must be below 2^32");
    const std::vector<std::uint32_t> stratum = random_permutation(unsigned(n), r);
    std::vector<double> u(n);
    for (std::size_t k = 0; k < n; ++k) u[k] = (double(stratum[k]) + r.uniform_open()) / double(n);
    return u;
}

}  // namespace kfm::offline
