// SSF index-set optimiser: chooses the m DFT frequencies Lambda in {1..n-1} whose real embedding gives
// well-spread points on the sphere, by coordinate descent on the discrete Riesz s-energy of +-V
// (s = 0: the log-energy of docs/methods.md, "SSF"). Offline only; deterministic in the seed and
// independent of the number of threads.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace kfm::offline {

class rng;

// The energy of +-V as a function of c_k = sum_j exp(2 pi i k Lambda_j / n), k = 1..n-1:
//   E = sum_k g(Re c_k / m) + g(Im c_k / m), with
//   s = 0: g(t) = -log(1 - t^2)                       (log-energy, up to constants)
//   s > 0: g(t) = (2 - 2t)^(-s/2) + (2 + 2t)^(-s/2)     (|v - w|^-s + |v + w|^-s for v.w = t)
// Coincident points (|t| = 1) get a large finite penalty instead of infinity so the descent can leave them.
double ssf_energy_from_scratch(const std::vector<std::uint32_t>& index_set, unsigned n, double riesz_s = 0.0);

// The c_k of one index set, kept up to date in O(n) per replaced frequency.
class ssf_energy_state {
public:
    ssf_energy_state(std::vector<std::uint32_t> index_set, unsigned n, double riesz_s);

    double energy() const;
    // The energy after index_set[position] = frequency, without changing the state: O(n).
    double energy_if_replaced(unsigned position, std::uint32_t frequency) const;
    // Applies the replacement: O(n).
    void replace(unsigned position, std::uint32_t frequency);
    // Recomputes every c_k from the index set (O(m n)), discarding accumulated rounding.
    void recompute();

    const std::vector<std::uint32_t>& index_set() const { return index_set_; }
    unsigned fft_size() const { return n_; }

private:
    double energy_with(std::uint32_t remove, std::uint32_t add) const;

    std::vector<std::uint32_t> index_set_;
    unsigned n_;
    double s_;
    std::vector<double> cos_, sin_;    // cos/sin(2 pi j / n), j < n
    std::vector<double> c_re_, c_im_;  // c_k for k = 0..n/2 (c_{n-k} is the conjugate of c_k)
};

struct ssf_optimiser_options {
    unsigned max_sweeps = 10;        // T
    unsigned max_candidates = 128;   // candidates tried per position; a random subset when more are free
    double riesz_s = 0.0;            // 0: log-energy
    unsigned threads = 0;            // 0: std::thread::hardware_concurrency()
    bool show_progress = false;      // one line per sweep on stderr
    std::function<void(unsigned sweep, double energy)> on_sweep;  // called after each sweep
};

struct ssf_optimiser_result {
    std::vector<std::uint32_t> index_set;  // m distinct frequencies in 1..n-1
    std::vector<double> energy;            // energy[0] initial, energy[t] after sweep t
    unsigned sweeps = 0;                   // sweeps run
    bool converged = false;                // the last sweep improved nothing
};

// m distinct frequencies drawn uniformly from {1..n-1}, in draw order.
std::vector<std::uint32_t> ssf_random_index_set(unsigned m, unsigned n, rng& r);

// Coordinate descent from a random start: for each position try the candidates (all free frequencies,
// or max_candidates of them drawn at random), take the lowest energy if it is strictly lower. Stops after
// a sweep with no improvement or after max_sweeps. Throws std::invalid_argument unless 1 <= m < n,
// n a power of two >= 2.
ssf_optimiser_result ssf_optimise_index_set(unsigned m, unsigned n, std::uint64_t seed,
                                            const ssf_optimiser_options& options = {});

}  // namespace kfm::offline
