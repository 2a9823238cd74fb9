// SSF index-set optimiser: the O(n) update matches a from-scratch evaluation, the descent never raises
// the energy, beats random index sets, and gives the same set for any thread count.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <vector>

#include "offline/sampling/random.hpp"
#include "offline/methods/ssf/ssf_energy.hpp"

using namespace kfm::offline;

namespace {

void check_valid_set(const std::vector<std::uint32_t>& set, unsigned m, unsigned n) {
    REQUIRE(set.size() == m);
    std::set<std::uint32_t> distinct(set.begin(), set.end());
    CHECK(distinct.size() == m);
    CHECK(*distinct.begin() >= 1);
    CHECK(*distinct.rbegin() <= n - 1);
}

}  // namespace

TEST_CASE("ssf energy: O(n) candidate update equals recomputation, log and Riesz energies") {
    for (double s : {0.0, 1.0}) {
        const unsigned m = 23, n = 64;
        rng r(7);
        ssf_energy_state state(ssf_random_index_set(m, n, r), n, s);
        CHECK(state.energy() == doctest::Approx(ssf_energy_from_scratch(state.index_set(), n, s)).epsilon(1e-11));
        for (int trial = 0; trial < 40; ++trial) {
            const unsigned position = unsigned(r.below(m));
            std::uint32_t f = 0;
            do {
                f = std::uint32_t(1 + r.below(n - 1));
            } while (std::find(state.index_set().begin(), state.index_set().end(), f) != state.index_set().end());
            auto changed = state.index_set();
            changed[position] = f;
            const double exact = ssf_energy_from_scratch(changed, n, s);
            CHECK(state.energy_if_replaced(position, f) == doctest::Approx(exact).epsilon(1e-11));
            if (trial % 3 == 0) {
                state.replace(position, f);
                CHECK(state.energy() == doctest::Approx(exact).epsilon(1e-11));
            }
        }
    }
}

TEST_CASE("ssf energy: a set with coincident points has a large finite energy") {
    // All frequencies even and n/2 = 8: k = 8 maps every frequency to the same angle, c_8 = m.
    const std::vector<std::uint32_t> even = {2, 4, 6, 10};
    const double e = ssf_energy_from_scratch(even, 16);
    CHECK(std::isfinite(e));
    CHECK(e > ssf_energy_from_scratch({1, 2, 3, 5}, 16) + 10.0);
}

TEST_CASE("ssf optimiser: energy never increases and ends below random index sets") {
    const unsigned m = 64, n = 256;
    std::vector<double> reported;
    ssf_optimiser_options options;
    options.max_sweeps = 8;
    options.on_sweep = [&](unsigned, double e) { reported.push_back(e); };
    const auto result = ssf_optimise_index_set(m, n, 11, options);
    check_valid_set(result.index_set, m, n);
    REQUIRE(result.energy.size() == result.sweeps + 1);
    REQUIRE(reported.size() == result.sweeps);
    for (std::size_t t = 1; t < result.energy.size(); ++t) {
        CHECK(result.energy[t] <= result.energy[t - 1]);
        CHECK(reported[t - 1] == result.energy[t]);
    }
    // By Parseval sum_k |c_k|^2 = m(n - m), so E >= (n - m)/m - O(t^4): the descent only trims the excess.
    CHECK(result.energy.back() < result.energy.front());
    CHECK(result.energy.back() > double(n - m) / m);
    CHECK(result.energy.back() == doctest::Approx(ssf_energy_from_scratch(result.index_set, n)).epsilon(1e-10));

    rng r(99);
    double best_random = 1e300;
    for (int k = 0; k < 30; ++k) best_random = std::min(best_random, ssf_energy_from_scratch(ssf_random_index_set(m, n, r), n));
    MESSAGE("optimised " << result.energy.back() << " best of 30 random " << best_random << " after "
                         << result.sweeps << " sweeps");
    CHECK(result.energy.back() < best_random);
}

// Guards: an off-by-one in the sweep loop (`sweep < max_sweeps`). A random start is far from a local
// minimum, so every one of T = 1, 2, 3 allowed sweeps runs, and T sweeps continue the T - 1 sweep run.
TEST_CASE("ssf optimiser: runs exactly max_sweeps sweeps when each one still improves") {
    const unsigned m = 64, n = 256;
    std::vector<double> previous;
    for (unsigned t = 1; t <= 3; ++t) {
        ssf_optimiser_options options;
        options.max_sweeps = t;
        unsigned calls = 0;
        options.on_sweep = [&](unsigned sweep, double) { CHECK(sweep == ++calls); };
        const auto result = ssf_optimise_index_set(m, n, 11, options);
        INFO("max_sweeps " << t);
        CHECK(calls == t);
        CHECK(result.sweeps == t);
        CHECK_FALSE(result.converged);
        REQUIRE(result.energy.size() == t + 1);
        CHECK(result.energy[t] < result.energy[t - 1]);
        for (std::size_t k = 0; k < previous.size(); ++k) CHECK(result.energy[k] == previous[k]);
        previous = result.energy;
    }
}

TEST_CASE("ssf optimiser: Riesz s-energy descent also decreases") {
    ssf_optimiser_options options;
    options.riesz_s = 1.0;
    options.max_sweeps = 4;
    const auto result = ssf_optimise_index_set(40, 128, 3, options);
    check_valid_set(result.index_set, 40, 128);
    for (std::size_t t = 1; t < result.energy.size(); ++t) CHECK(result.energy[t] <= result.energy[t - 1]);
    CHECK(result.energy.back() < result.energy.front());
}

TEST_CASE("ssf optimiser: deterministic in the seed, independent of the thread count, subsampled") {
    // n - 1 - m = 311 free frequencies > max_candidates: the subsampled path, and 128 * 512 candidates'
    // work per position is above the threshold at which threads start.
    const unsigned m = 200, n = 512;
    ssf_optimiser_options options;
    options.max_sweeps = 3;
    options.threads = 1;
    const auto one = ssf_optimise_index_set(m, n, 5, options);
    options.threads = 2;
    const auto two = ssf_optimise_index_set(m, n, 5, options);
    options.threads = 3;
    const auto three = ssf_optimise_index_set(m, n, 5, options);
    CHECK(one.index_set == two.index_set);
    CHECK(one.index_set == three.index_set);
    CHECK(one.energy == two.energy);
    CHECK(one.energy == three.energy);
    const auto other = ssf_optimise_index_set(m, n, 6, options);
    CHECK(other.index_set != one.index_set);
    check_valid_set(one.index_set, m, n);
}

TEST_CASE("ssf optimiser: impossible sizes are rejected") {
    CHECK_THROWS_AS(ssf_optimise_index_set(8, 12, 1), std::invalid_argument);  // n not a power of two
    CHECK_THROWS_AS(ssf_optimise_index_set(16, 16, 1), std::invalid_argument); // m >= n
    CHECK_THROWS_AS(ssf_optimise_index_set(0, 16, 1), std::invalid_argument);
    ssf_optimiser_options options;
    options.riesz_s = -1.0;
    CHECK_THROWS_AS(ssf_optimise_index_set(4, 16, 1, options), std::invalid_argument);
}
