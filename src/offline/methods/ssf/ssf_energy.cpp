// SSF index-set optimiser (docs/methods.md, "SSF"): O(n) energy of a one-frequency change through
// the c_k sums, candidates evaluated in parallel and chosen in a fixed order so the result does not
// depend on the thread count.
#include "offline/methods/ssf/ssf_energy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>
#include <string>
#include <thread>

#include "offline/sampling/random.hpp"

namespace kfm::offline {
namespace {

// Below this, 1 - t^2 (or 2 -+ 2t) is rounding noise around coincident points: clamp it so the energy
// stays finite and ordered, with a penalty far above any real configuration's term.
constexpr double min_gap = 1e-15;

bool is_power_of_two(unsigned n) { return n >= 2 && (n & (n - 1)) == 0; }

void check_sizes(unsigned m, unsigned n) {
    if (!is_power_of_two(n)) {
        throw std::invalid_argument("SSF: FFT size " + std::to_string(n) + " is not a power of two >= 2");
    }
    if (m < 1 || m >= n) {
        throw std::invalid_argument("SSF: need 1 <= m < n for m = " + std::to_string(m) +
                                    " frequencies out of 1.." + std::to_string(n - 1));
    }
}

// Riesz term for s > 0 of one inner product t.
double riesz_term(double t, double s) {
    const double a = std::max(2.0 - 2.0 * t, min_gap);
    const double b = std::max(2.0 + 2.0 * t, min_gap);
    return std::pow(a, -0.5 * s) + std::pow(b, -0.5 * s);
}

double log_factor(double t) { return std::max(1.0 - t * t, min_gap); }

}  // namespace

double ssf_energy_from_scratch(const std::vector<std::uint32_t>& index_set, unsigned n, double riesz_s) {
    const unsigned m = unsigned(index_set.size());
    check_sizes(m, n);
    double energy = 0.0;
    for (unsigned k = 1; k < n; ++k) {
        double re = 0.0, im = 0.0;
        for (std::uint32_t f : index_set) {
            // k*f mod n in integers keeps the angle exact before the trigonometric call.
            const double angle = 2.0 * std::numbers::pi * double((std::uint64_t(k) * f) % n) / double(n);
            re += std::cos(angle);
            im += std::sin(angle);
        }
        const double a = re / m, b = im / m;
        energy += riesz_s == 0.0 ? -std::log(log_factor(a)) - std::log(log_factor(b))
                                 : riesz_term(a, riesz_s) + riesz_term(b, riesz_s);
    }
    return energy;
}

ssf_energy_state::ssf_energy_state(std::vector<std::uint32_t> index_set, unsigned n, double riesz_s)
    : index_set_(std::move(index_set)), n_(n), s_(riesz_s), cos_(n), sin_(n), c_re_(n / 2 + 1),
      c_im_(n / 2 + 1) {
    check_sizes(unsigned(index_set_.size()), n);
    if (!(riesz_s >= 0.0) || !std::isfinite(riesz_s)) {
        throw std::invalid_argument("SSF: the Riesz exponent s must be finite and >= 0");
    }
    for (unsigned j = 0; j < n; ++j) {
        const double angle = 2.0 * std::numbers::pi * double(j) / double(n);
        cos_[j] = std::cos(angle);
        sin_[j] = std::sin(angle);
    }
    recompute();
}

void ssf_energy_state::recompute() {
    std::fill(c_re_.begin(), c_re_.end(), 0.0);
    std::fill(c_im_.begin(), c_im_.end(), 0.0);
    for (std::uint32_t f : index_set_) {
        if (f == 0 || f >= n_) throw std::invalid_argument("SSF: frequency out of 1..n-1");
        std::uint32_t phase = 0;  // k*f mod n, advanced by addition
        for (unsigned k = 1; k <= n_ / 2; ++k) {
            phase += f;
            if (phase >= n_) phase -= n_;
            c_re_[k] += cos_[phase];
            c_im_[k] += sin_[phase];
        }
    }
}

// The energy with frequency `remove` taken out and `add` put in (remove == add: the current energy).
// Sums k = 1..n/2 only: c_{n-k} = conj(c_k) gives the same terms, so k < n/2 counts twice.
double ssf_energy_state::energy_with(std::uint32_t remove, std::uint32_t add) const {
    const unsigned n = n_, half = n / 2;
    const double inv_m = 1.0 / double(index_set_.size());
    std::uint32_t pr = 0, pa = 0;
    auto next = [&](unsigned k, double* a, double* b) {
        pr += remove;
        if (pr >= n) pr -= n;
        pa += add;
        if (pa >= n) pa -= n;
        *a = (c_re_[k] - cos_[pr] + cos_[pa]) * inv_m;
        *b = (c_im_[k] - sin_[pr] + sin_[pa]) * inv_m;
    };
    double twice = 0.0, once = 0.0, a = 0.0, b = 0.0;
    if (s_ == 0.0) {
        // One log per four k: a product of 8 clamped factors stays above 1e-240, far from underflow.
        double product = 1.0;
        unsigned in_product = 0;
        for (unsigned k = 1; k < half; ++k) {
            next(k, &a, &b);
            product *= log_factor(a) * log_factor(b);
            if (++in_product == 4) {
                twice -= std::log(product);
                product = 1.0;
                in_product = 0;
            }
        }
        twice -= std::log(product);
        next(half, &a, &b);
        once = -std::log(log_factor(a) * log_factor(b));
    } else {
        for (unsigned k = 1; k < half; ++k) {
            next(k, &a, &b);
            twice += riesz_term(a, s_) + riesz_term(b, s_);
        }
        next(half, &a, &b);
        once = riesz_term(a, s_) + riesz_term(b, s_);
    }
    return 2.0 * twice + once;
}

double ssf_energy_state::energy() const { return energy_with(0, 0); }

double ssf_energy_state::energy_if_replaced(unsigned position, std::uint32_t frequency) const {
    return energy_with(index_set_.at(position), frequency);
}

void ssf_energy_state::replace(unsigned position, std::uint32_t frequency) {
    const std::uint32_t old = index_set_.at(position);
    std::uint32_t pr = 0, pa = 0;
    for (unsigned k = 1; k <= n_ / 2; ++k) {
        pr += old;
        if (pr >= n_) pr -= n_;
        pa += frequency;
        if (pa >= n_) pa -= n_;
        c_re_[k] += cos_[pa] - cos_[pr];
        c_im_[k] += sin_[pa] - sin_[pr];
    }
    index_set_[position] = frequency;
}

std::vector<std::uint32_t> ssf_random_index_set(unsigned m, unsigned n, rng& r) {
    check_sizes(m, n);
    // Partial Fisher-Yates over 1..n-1.
    std::vector<std::uint32_t> pool(n - 1);
    for (unsigned j = 0; j < n - 1; ++j) pool[j] = j + 1;
    for (unsigned j = 0; j < m; ++j) {
        const auto pick = j + unsigned(r.below(n - 1 - j));
        std::swap(pool[j], pool[pick]);
    }
    pool.resize(m);
    return pool;
}

namespace {

// The frequencies a position may move to: the unused ones except 0, or a random subset of max_candidates
// of them, drawn serially so the choice never depends on threads.
void candidate_frequencies(const std::vector<bool>& used, unsigned max_candidates, rng& pick,
                           std::vector<std::uint32_t>& out) {
    out.clear();
    for (std::uint32_t f = 1; f < used.size(); ++f)
        if (!used[f]) out.push_back(f);
    if (out.size() <= max_candidates) return;
    for (unsigned j = 0; j < max_candidates; ++j) {
        const auto other = j + std::size_t(pick.below(out.size() - j));
        std::swap(out[j], out[other]);
    }
    out.resize(max_candidates);
}

// trial[j] = the energy with `position` moved to candidates[j], on up to `threads` threads.
void energies_if_replaced(const ssf_energy_state& state, unsigned position, const std::vector<std::uint32_t>& candidates,
                          unsigned n, unsigned threads, std::vector<double>& trial) {
    trial.assign(candidates.size(), 0.0);
    auto evaluate = [&](std::size_t begin, std::size_t end) {
        for (std::size_t j = begin; j < end; ++j) trial[j] = state.energy_if_replaced(position, candidates[j]);
    };
    // Threads only pay off when a position's work is well above the cost of starting them.
    const std::size_t work = candidates.size() * std::size_t(n);
    const unsigned use = work < (1u << 16) ? 1u : unsigned(std::min<std::size_t>(threads, candidates.size()));
    if (use <= 1) {
        evaluate(0, candidates.size());
        return;
    }
    std::vector<std::thread> pool;
    const std::size_t chunk = (candidates.size() + use - 1) / use;
    for (unsigned t = 1; t < use; ++t) {
        const std::size_t b = std::min(candidates.size(), t * chunk);
        const std::size_t e = std::min(candidates.size(), b + chunk);
        pool.emplace_back(evaluate, b, e);
    }
    evaluate(0, std::min(candidates.size(), chunk));
    for (auto& th : pool) th.join();
}

}  // namespace

ssf_optimiser_result ssf_optimise_index_set(unsigned m, unsigned n, std::uint64_t seed,
                                            const ssf_optimiser_options& options) {
    check_sizes(m, n);
    if (options.max_candidates == 0) throw std::invalid_argument("SSF: max_candidates must be >= 1");
    rng start(derive(seed, 0));
    rng pick(derive(seed, 1));
    ssf_energy_state state(ssf_random_index_set(m, n, start), n, options.riesz_s);

    const unsigned threads =
        std::max(1u, options.threads != 0 ? options.threads : std::thread::hardware_concurrency());
    std::vector<bool> used(n, false);
    for (std::uint32_t f : state.index_set()) used[f] = true;

    ssf_optimiser_result result;
    double current = state.energy();
    result.energy.push_back(current);
    std::vector<std::uint32_t> candidates;
    std::vector<double> trial;

    // Coordinate descent: each sweep moves every position to its best candidate frequency, if that lowers
    // the energy.
    for (unsigned sweep = 1; sweep <= options.max_sweeps; ++sweep) {
        bool improved = false;
        for (unsigned position = 0; position < m; ++position) {
            candidate_frequencies(used, options.max_candidates, pick, candidates);
            if (candidates.empty()) break;
            energies_if_replaced(state, position, candidates, n, threads, trial);
            // Fixed order, first minimum wins: identical for any thread count.
            const std::size_t best = std::size_t(std::min_element(trial.begin(), trial.end()) - trial.begin());
            // Gains below rounding of the sum are noise; requiring a real decrease also rules out cycles.
            if (trial[best] < current - 1e-12 * std::abs(current)) {
                used[state.index_set()[position]] = false;
                used[candidates[best]] = true;
                state.replace(position, candidates[best]);
                current = trial[best];
                improved = true;
            }
        }
        state.recompute();
        current = state.energy();
        result.energy.push_back(current);
        result.sweeps = sweep;
        if (options.on_sweep) options.on_sweep(sweep, current);
        if (options.show_progress) {
            std::fprintf(stderr, "ssf: sweep %u/%u energy %.9g (start %.9g)\n", sweep, options.max_sweeps, current,
                         result.energy.front());
        }
        if (!improved) {
            result.converged = true;
            break;
        }
    }
    result.index_set = state.index_set();
    return result;
}

}  // namespace kfm::offline
