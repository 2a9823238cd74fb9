// SSF builder: O(d) storage (the 16 KiB bound at d = 784, D = 8192 against the dense RFF file),
// sizes and rounding, the stored index set (sorted, distinct, optimised), determinism in the seed, and
// clear errors for impossible options.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "kfm/offline.hpp"
#include "offline/methods/ssf/ssf_energy.hpp"

namespace fmt = kfm::format;
using namespace kfm::offline;

namespace {

build_options ssf(unsigned d, unsigned features) {
    build_options o;
    o.method = fmt::method::ssf;
    o.kernel.kind = fmt::kernel::gaussian;
    o.kernel.sigma = 3.0;
    o.input_dim = d;
    o.features = features;
    o.seed = 21;
    return o;
}

const section* find(const map_contents& map, std::uint32_t tag) {
    for (const auto& s : map.sections)
        if (s.tag == tag) return &s;
    return nullptr;
}

// The index set: the set bits of the FREQ section (n bits), in increasing order.
std::vector<std::uint32_t> index_set(const map_contents& map) {
    const section* s = find(map, fmt::tag::frequencies);
    REQUIRE(s != nullptr);
    REQUIRE(s->count == map.meta.block_size);
    std::vector<std::uint32_t> v;
    for (std::uint32_t k = 0; k < s->count; ++k)
        if ((s->bytes[k >> 3] >> (k & 7)) & 1) v.push_back(k);
    return v;
}

}  // namespace

TEST_CASE("ssf storage is O(d): d = 784, D = 8192 midpoint under 16 KiB, far below the dense RFF file") {
    const auto map = build_map(ssf(784, 8192));
    CHECK(map.meta.output_dim == 8192);
    CHECK(map.meta.block_size == 1024);  // the default layout's cap at d = 784 (m n <= 2^19)
    CHECK(map.meta.block_count == 2);
    const std::size_t ssf_bytes = serialize(map).size();
    auto o = ssf(784, 8192);
    o.method = fmt::method::rff;
    const std::size_t rff_bytes = serialize(build_map(o)).size();
    MESSAGE("ssf file " << ssf_bytes << " bytes, rff file " << rff_bytes << " bytes, ratio " << double(rff_bytes) / double(ssf_bytes));
    CHECK(ssf_bytes < 16 * 1024);
    CHECK(rff_bytes > 12 * 1024 * 1024);

    // The shifted rule stores one radius per point and radial point on top.
    auto shifted = ssf(784, 8192);
    shifted.radial_rule = kfm::offline::radial_rule_kind::shifted;
    const auto with_radii = build_map(shifted);
    const section* scales = find(with_radii, fmt::tag::scales);
    REQUIRE(scales != nullptr);
    CHECK(scales->count == 4096);
    CHECK(with_radii.meta.method_flags == fmt::method_flag_ssf_shifted_radii);
}

TEST_CASE("ssf sizes: odd d pads to even, outputs round up to whole points") {
    auto o = ssf(9, 10);
    o.radial_points = 2;
    const auto map = build_map(o);
    CHECK(map.meta.work_dim == 10);
    CHECK(map.meta.projection_dim == 3);  // ceil(10 / (2 * 2))
    CHECK(map.meta.output_dim == 12);
    CHECK(map.meta.radial_points == 2);
    CHECK(map.meta.block_size == 8);      // smallest power of two > m = 5
    o.kernel.kind = fmt::kernel::arccos;
    o.kernel.order = 2;
    o.features = 7;
    const auto arc = build_map(o);
    CHECK(arc.meta.output_dim == 8);
    CHECK(arc.meta.kernel_order == 2);
    CHECK(arc.meta.radial_points == 0);
}

// The default layout (build_ssf.cpp, one_block_fft_size): one FFT block holding every direction, so one
// jointly optimised index set spreads them all (the SSF paper's code; stacked blocks sharing an index set
// were 6-14% worse at D = 16d), capped at 8x the smallest length and at m n <= 2^19; fft_size
// ssf_fft_size_smallest keeps the old stacked layout of the smallest length.
TEST_CASE("ssf default layout: one FFT block up to the cap; fft_size smallest stacks blocks") {
    struct layout_case {
        unsigned d, features;
        fmt::kernel kernel;
        unsigned n, blocks;  // expected default block_size and block_count
    };
    const layout_case cases[] = {
        {16, 32, fmt::kernel::arccos, 16, 1},      // D = 2d: a truncated block of the smallest length
        {16, 64, fmt::kernel::arccos, 16, 1},      // D = 4d: one full block of the smallest length
        {16, 256, fmt::kernel::arccos, 64, 1},     // D = 16d: 128 directions, one block (was 4 of 16)
        {16, 256, fmt::kernel::gaussian, 32, 1},   // antithetic radii: 64 directions (was 2 blocks of 16)
        {16, 4096, fmt::kernel::arccos, 128, 8},   // 8x the smallest: 2048 directions in 8 blocks
        {256, 4096, fmt::kernel::gaussian, 1024, 1},
        {256, 4096, fmt::kernel::arccos, 1024, 1},
        {784, 8192, fmt::kernel::arccos, 1024, 2},  // m n <= 2^19: n = 1024 for m = 392
        {9, 12000, fmt::kernel::arccos, 64, 47},   // odd d: m = 5, smallest 8, cap 64
    };
    for (const auto& c : cases) {
        auto o = ssf(c.d, c.features);
        o.kernel.kind = c.kernel;
        o.sweeps = 1;
        const auto map = build_map(o);
        INFO("d " << c.d << " D " << c.features << " kernel " << int(c.kernel));
        CHECK(map.meta.block_size == c.n);
        CHECK(map.meta.block_count == c.blocks);
        CHECK(map.meta.output_dim == c.features);
    }
    // The default at d = 16, D = 16d is the reference layout (one block of D/4) byte for byte; `smallest`
    // is the stacked layout, the same bytes as asking for n = 16 by number.
    auto o = ssf(16, 256);
    o.kernel.kind = fmt::kernel::arccos;
    const auto by_default = serialize(build_map(o));
    o.fft_size = 64;
    CHECK(serialize(build_map(o)) == by_default);
    o.fft_size = ssf_fft_size_smallest;
    const auto stacked = build_map(o);
    CHECK(stacked.meta.block_size == 16);
    CHECK(stacked.meta.block_count == 4);
    o.fft_size = 16;
    CHECK(serialize(build_map(o)) == serialize(stacked));
}

TEST_CASE("ssf index set: sorted, distinct, in range, and lower energy than the random start") {
    auto o = ssf(300, 4096);
    const auto map = build_map(o);
    const unsigned n = map.meta.block_size;
    const auto set = index_set(map);
    REQUIRE(set.size() == 150);
    CHECK(std::is_sorted(set.begin(), set.end()));
    CHECK(std::adjacent_find(set.begin(), set.end()) == set.end());
    CHECK(set.front() >= 1);
    CHECK(set.back() <= n - 1);
    o.sweeps = 0;  // the optimiser's random start for the same seed
    const auto start = index_set(build_map(o));
    CHECK(ssf_energy_from_scratch(set, n) < ssf_energy_from_scratch(start, n));
}

TEST_CASE("ssf build is deterministic in the seed") {
    const auto a = serialize(build_map(ssf(40, 256)));
    const auto b = serialize(build_map(ssf(40, 256)));
    CHECK(a == b);
    auto other = ssf(40, 256);
    other.seed = 22;
    CHECK(serialize(build_map(other)) != a);
}

TEST_CASE("ssf rejects impossible options with std::invalid_argument") {
    auto bad = [](auto edit) {
        auto o = ssf(16, 64);
        edit(o);
        CHECK_THROWS_AS(build_map(o), std::invalid_argument);
    };
    bad([](build_options& o) { o.input_dim = 0; });
    bad([](build_options& o) { o.features = 0; });
    bad([](build_options& o) { o.kernel.sigma = 0.0; });
    bad([](build_options& o) { o.radial_rule = kfm::offline::radial_rule_kind::antithetic, o.radial_points = 1; });
    bad([](build_options& o) { o.radial_rule = static_cast<kfm::offline::radial_rule_kind>(9); });
    bad([](build_options& o) { o.fft_size = 24; });  // not a power of two
    bad([](build_options& o) { o.fft_size = 8; });   // not above m = 8
    bad([](build_options& o) { o.kernel.kind = fmt::kernel::polynomial_sphere; });
    bad([](build_options& o) {
        o.kernel.kind = fmt::kernel::arccos;
        o.kernel.order = 3;
    });
    bad([](build_options& o) { o.input_dim = 200000; });  // n would exceed 2^16
}
