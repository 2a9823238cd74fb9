// The builders' random draws, checked without data sets: each quantity has its own generator stream
// (GORF's positive and negative radii, SRF's radii and phases), SSF's random signs cover every FFT block
// (a one-block map included), and quadrature's radius resampling redraws only rules whose a0 < 0.
// Each test names the plausible one-line slip it guards against (docs/testing.md lists them).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "kfm/offline.hpp"

namespace fmt = kfm::format;
using namespace kfm::offline;

namespace {

const section& find(const map_contents& map, std::uint32_t tag) {
    for (const auto& s : map.sections)
        if (s.tag == tag) return s;
    FAIL("section missing");
    return map.sections.front();
}

std::vector<float> floats(const section& s) {
    std::vector<float> v(s.bytes.size() / sizeof(float));
    std::memcpy(v.data(), s.bytes.data(), v.size() * sizeof(float));
    return v;
}

bool bit(const section& s, std::size_t k) { return ((s.bytes[k >> 3] >> (k & 7)) & 1) != 0; }

// Euclidean norms of the rows of the DENS section (radius times a unit direction).
std::vector<double> row_norms(const map_contents& map) {
    const auto w = floats(find(map, fmt::tag::dense));
    const std::size_t d = map.meta.work_dim;
    std::vector<double> norms(w.size() / d);
    for (std::size_t i = 0; i < norms.size(); ++i) {
        double sum = 0.0;
        for (std::size_t j = 0; j < d; ++j) sum += double(w[i * d + j]) * w[i * d + j];
        norms[i] = std::sqrt(sum);
    }
    return norms;
}

// Ranks 0..n-1 of v (no ties in continuous draws).
std::vector<double> ranks(const std::vector<double>& v) {
    std::vector<std::size_t> order(v.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (std::size_t i = 0; i < order.size(); ++i) r[order[i]] = double(i);
    return r;
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
    const auto ra = ranks(a), rb = ranks(b);
    const double n = double(a.size()), mean = (n - 1.0) / 2.0;
    double sab = 0.0, saa = 0.0, sbb = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        sab += (ra[i] - mean) * (rb[i] - mean);
        saa += (ra[i] - mean) * (ra[i] - mean);
        sbb += (rb[i] - mean) * (rb[i] - mean);
    }
    return sab / std::sqrt(saa * sbb);
}

build_options poly(fmt::method m, unsigned d, unsigned features) {
    build_options o;
    o.method = m;
    o.kernel.kind = fmt::kernel::polynomial_sphere;
    o.kernel.degree = 3;
    o.kernel.scale = 3.0;
    o.input_dim = d;
    o.features = features;
    o.seed = 5;
    return o;
}

}  // namespace

// Guards: the negative radii drawn from the positive stream. Radius i of each sign is the i-th draw of its
// own stream, so it does not depend on how many radii of the other sign came first.
TEST_CASE("gorf: positive and negative radii come from their own streams") {
    const unsigned d = 8, s_small = 6, s_large = 10;  // features = 4 s
    const auto small = row_norms(build_map(poly(fmt::method::gorf, d, 4 * s_small)));
    const auto large = row_norms(build_map(poly(fmt::method::gorf, d, 4 * s_large)));
    REQUIRE(small.size() == 2 * s_small);
    REQUIRE(large.size() == 2 * s_large);
    for (unsigned i = 0; i < s_small; ++i) {
        INFO("radius " << i);
        CHECK(small[i] == doctest::Approx(large[i]).epsilon(1e-5));                      // positive
        CHECK(small[s_small + i] == doctest::Approx(large[s_large + i]).epsilon(1e-5));  // negative
    }
}

// Guards: the phases drawn from the radii stream (then phase i is a monotone function of radius i).
// Under independence Spearman's rho over D pairs is about N(0, 1/(D-1)); |rho| < 5/sqrt(D-1) fails
// falsely with probability 6e-7. The phases and radii are separate sections, so the test reads both.
TEST_CASE("srf: phases are independent of the radii") {
    const unsigned D = 2000;
    const auto map = build_map(poly(fmt::method::srf, 8, D));  // d, p, a as poly_builders_test: one fit
    const auto radii = row_norms(map);
    const auto phase_f = floats(find(map, fmt::tag::phases));
    const std::vector<double> phases(phase_f.begin(), phase_f.end());
    REQUIRE(radii.size() == D);
    REQUIRE(phases.size() == D);
    const double rho = spearman(radii, phases);
    MESSAGE("srf radii/phases Spearman rho " << rho);
    CHECK(std::fabs(rho) < 5.0 / std::sqrt(double(D - 1)));
}

// Guards: the sign loop skipping a block (e.g. `b + 1 < blocks`, which leaves a one-block map with no
// random signs). At the 2m used positions of every block, about half the bits are set: with 2m = 16 bits
// per block and 12 seeds (192 fair bits per block), [0.3, 0.7] fails falsely with probability 2e-8 per block.
TEST_CASE("ssf: every block, a single one included, carries random signs") {
    for (unsigned features : {32u, 192u}) {  // d = 16: m = 8, n = 16, a block holds 2n = 32 points = 64 outputs
        std::vector<std::size_t> set_per_block;
        std::size_t used_per_block = 0;
        std::vector<std::uint8_t> first_signs;
        bool differs = false;
        for (std::uint64_t seed = 1; seed <= 12; ++seed) {
            build_options o;
            o.method = fmt::method::ssf;
            o.kernel.kind = fmt::kernel::gaussian;
            o.input_dim = 16;
            o.features = features;
            o.sweeps = 1;
            o.seed = seed;
            o.radial_rule = kfm::offline::radial_rule_kind::midpoint;  // one radius per direction and stacked blocks of the smallest FFT:
            o.fft_size = kfm::offline::ssf_fft_size_smallest;  // the block count this test is written for
            const auto map = build_map(o);
            const unsigned n = map.meta.block_size, blocks = map.meta.block_count;
            REQUIRE(blocks == (features == 32 ? 1u : 3u));
            set_per_block.resize(blocks);
            const section& freq = find(map, fmt::tag::frequencies);
            const section& signs = find(map, fmt::tag::signs);
            std::vector<std::size_t> used;
            for (std::size_t k = 0; k < n; ++k)
                if (bit(freq, k)) used.push_back(k), used.push_back(n + k);  // real and imaginary parts
            used_per_block += used.size();
            for (unsigned b = 0; b < blocks; ++b)
                for (std::size_t k : used) set_per_block[b] += bit(signs, std::size_t(b) * 2 * n + k);
            if (seed == 1) first_signs = signs.bytes;
            else differs = differs || signs.bytes != first_signs;
        }
        for (std::size_t b = 0; b < set_per_block.size(); ++b) {
            const double fraction = double(set_per_block[b]) / double(used_per_block);
            INFO(features << " features, block " << b << ": fraction of negative signs " << fraction);
            CHECK(fraction > 0.3);
            CHECK(fraction < 0.7);
        }
        CHECK(differs);
    }
}

// Guards: a wrong acceptance rule in the resampling (e.g. (d+1)/rho^2 for d/rho^2, which also redraws
// rules with a small positive a0). A rule whose first draw already has a0 >= 0 must be kept as drawn, so
// the resampled map equals the plain one whenever the plain one has no negative constant.
TEST_CASE("quadrature: radius resampling redraws only the rules with a0 < 0") {
    const unsigned d = 5;
    unsigned kept = 0, small_positive = 0, redrawn = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        build_options o;
        o.method = fmt::method::quadrature;
        o.kernel.kind = fmt::kernel::gaussian;
        o.input_dim = d;
        o.features = 2 * (d + 1);  // one rule: the map's a0 is the rule's
        o.seed = seed;
        const auto plain = build_map(o);
        o.resample_radii = true;
        auto resampled = build_map(o);
        CHECK(resampled.meta.negative_dim == 0);
        if (plain.meta.negative_dim != 0) {
            ++redrawn;
            continue;
        }
        // a0 >= 0 at the first draw: identical apart from the flag recording the option.
        ++kept;
        const auto constants = floats(find(plain, fmt::tag::constants));
        const double a0 = double(constants[0]) * constants[0];
        if (a0 < 1.0 / (d + 1)) ++small_positive;
        resampled.meta.method_flags = plain.meta.method_flags;
        INFO("seed " << seed << " a0 " << a0);
        CHECK(serialize(resampled) == serialize(plain));
    }
    MESSAGE("quadrature rules kept " << kept << " (a0 < 1/(d+1): " << small_positive << "), redrawn " << redrawn);
    // Not vacuous: both branches and the small positive a0 the slip would redraw occur.
    CHECK(redrawn > 0);
    CHECK(small_positive > 0);
}
