// SSF projection: the FFT path, single and batched (whole lane groups of the ISA's batch FFT, then the
// leftover rows), equals the dense matrix V built explicitly from the index set and the signs
// (p_i = v_i . (s x), |v_i| = 1) on every ISA, for odd d, small and large n and a truncated last block;
// the fused feature stage on top; and open() rejecting a corrupted index set.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <numbers>
#include <vector>

#include "common/isa_coverage.hpp"
#include "common/test_maps.hpp"
#include "kernels/kernel_table.hpp"
#include "offline/methods/builders.hpp"
#include "runtime/projection.hpp"
#include "runtime/map_state.hpp"

namespace fmt = kfm::format;
using kfm::isa;
using kfm::status;
using namespace kfm::test;

namespace {

const kfm::offline::section& find_section(const kfm::offline::map_contents& map, std::uint32_t tag) {
    for (const auto& s : map.sections)
        if (s.tag == tag) return s;
    FAIL("section missing");
    return map.sections.front();
}

std::uint32_t section_index(const std::vector<std::uint8_t>& bytes, std::uint32_t tag) {
    fmt::file_header h;
    std::memcpy(&h, bytes.data(), sizeof h);
    for (std::uint32_t i = 0; i < h.section_count; ++i)
        if (section_at(bytes, i).tag == tag) return i;
    FAIL("section missing");
    return 0;
}

// The index set: the set bits of the FREQ section, in increasing order.
std::vector<std::uint32_t> frequencies(const kfm::offline::map_contents& map) {
    const auto& bits = find_section(map, fmt::tag::frequencies).bytes;
    std::vector<std::uint32_t> lambda;
    for (std::uint32_t k = 0; k < map.meta.block_size; ++k)
        if ((bits[k >> 3] >> (k & 7)) & 1) lambda.push_back(k);
    return lambda;
}

// The dense V (projection_dim x work_dim), row-major, in double: the Re row j of block b is
// m^{-1/2} [s_l cos th_jl ; s_{m+l} sin th_jl], the Im row m^{-1/2} [-s_l sin th_jl ; s_{m+l} cos th_jl],
// th_jl = 2 pi j Lambda_l / n (the FFT's exp(-i th) convention).
std::vector<double> dense_v(const kfm::offline::map_contents& map) {
    const auto& meta = map.meta;
    const std::uint32_t n = meta.block_size, w = meta.work_dim, m = w / 2;
    const std::vector<std::uint32_t> lambda = frequencies(map);
    REQUIRE(lambda.size() == m);
    const auto& bits = find_section(map, fmt::tag::signs).bytes;
    auto sign = [&](std::size_t i) { return ((bits[i >> 3] >> (i & 7)) & 1) ? -1.0 : 1.0; };
    std::vector<double> v(std::size_t(meta.projection_dim) * w, 0.0);
    const double norm = 1.0 / std::sqrt(double(m));
    for (std::uint32_t row = 0; row < meta.projection_dim; ++row) {
        const std::uint32_t b = row / (2 * n), r = row % (2 * n), j = r % n;
        const bool imaginary = r >= n;
        for (std::uint32_t l = 0; l < m; ++l) {
            const double th = 2.0 * std::numbers::pi * double((std::uint64_t(j) * lambda[l]) % n) / n;
            // signs in frequency order: bit b 2n + Lambda_l (real part), b 2n + n + Lambda_l (imaginary)
            const double s_re = sign(std::size_t(b) * 2 * n + lambda[l]), s_im = sign(std::size_t(b) * 2 * n + n + lambda[l]);
            v[std::size_t(row) * w + l] = norm * s_re * (imaginary ? -std::sin(th) : std::cos(th));
            v[std::size_t(row) * w + m + l] = norm * s_im * (imaginary ? std::cos(th) : std::sin(th));
        }
    }
    return v;
}

kfm::offline::map_contents build(unsigned d, unsigned features, unsigned fft_size, fmt::kernel kernel,
                                 unsigned order = 1, unsigned radial = 1) {
    kfm::offline::build_options o;
    o.method = fmt::method::ssf;
    o.kernel.kind = kernel;
    o.kernel.order = order;
    o.kernel.sigma = 1.5;
    o.input_dim = d;
    o.features = features;
    o.fft_size = fft_size;
    o.radial_points = radial;
    o.radial_rule = kfm::offline::radial_rule_kind::midpoint;  // the dense reference below assumes one midpoint radius per radial point
    o.sweeps = 1;  // the optimiser is tested elsewhere; keep qemu runs short
    o.seed = 17 + d;
    return kfm::offline::build_map(o);
}

// Rows of t (rows x projection_dim) against V times the rows of x (rows x work_dim).
void check_rows_against_dense(const kfm::offline::map_contents& map, const std::vector<double>& v,
                              const std::vector<float>& x, const std::vector<float>& t, std::size_t rows,
                              const char* path, isa i) {
    const auto& meta = map.meta;
    const std::size_t w = meta.work_dim, p = meta.projection_dim;
    for (std::size_t r = 0; r < rows; ++r) {
        double x_norm = 0.0;
        for (std::size_t c = 0; c < w; ++c) x_norm += double(x[r * w + c]) * x[r * w + c];
        // Float FFT rounding grows like log2(n) times |x|.
        const double tol = 2e-6 * std::sqrt(x_norm) * (std::log2(double(meta.block_size)) + 1.0);
        for (std::size_t row = 0; row < p; ++row) {
            double want = 0.0;
            for (std::size_t c = 0; c < w; ++c) want += v[row * w + c] * x[r * w + c];
            INFO(path << " isa " << kfm::isa_name(i) << " d " << meta.input_dim << " n " << meta.block_size
                      << " vector " << r << " of " << rows << " row " << row);
            REQUIRE(std::abs(double(t[r * p + row]) - want) <= tol);
        }
    }
}

// `rows` test vectors padded with the pipeline's zero, rows x work_dim.
std::vector<float> test_rows(const fmt::map_meta& meta, std::size_t rows, std::uint64_t seed) {
    std::vector<float> x;
    for (std::size_t r = 0; r < rows; ++r) {
        std::vector<float> one = test_vector(meta.input_dim, seed + r);
        one.resize(meta.work_dim, 0.0f);
        x.insert(x.end(), one.begin(), one.end());
    }
    return x;
}

// apply (one vector) and apply_batch (each row count: whole lane groups and leftover rows) against V.
void check_projection_against_dense(const kfm::offline::map_contents& map, std::initializer_list<std::size_t> batch_rows) {
    const auto& meta = map.meta;
    const auto v = dense_v(map);
    for (std::uint32_t row = 0; row < meta.projection_dim; ++row) {
        double sq = 0.0;
        for (std::uint32_t c = 0; c < meta.work_dim; ++c) sq += v[std::size_t(row) * meta.work_dim + c] * v[std::size_t(row) * meta.work_dim + c];
        REQUIRE(sq == doctest::Approx(1.0).epsilon(1e-12));
    }
    const file_buffer buffer(kfm::offline::serialize(map));
    const auto* ops = kfm::detail::projection_ops_for(meta.projection);
    REQUIRE(ops != nullptr);
    REQUIRE((ops->apply_batch != nullptr && ops->batch_scratch_floats != nullptr));
    for (isa i : kfm::test::known_isas()) {
        if (!kfm::isa_available(i)) continue;
        const kfm::map view = open_or_fail(buffer, i);
        std::vector<float> scratch(ops->scratch_floats(meta), 7.0f), t(meta.projection_dim, -9.0f);
        for (std::uint64_t seed = 1; seed <= 2; ++seed) {
            const std::vector<float> x = test_rows(meta, 1, seed);
            ops->apply(*kfm::detail::state_of(view), x.data(), t.data(), scratch.data());
            check_rows_against_dense(map, v, x, t, 1, "apply", i);
        }
        for (std::size_t rows : batch_rows) {
            std::vector<float> batch_scratch(ops->batch_scratch_floats(meta, rows), 7.0f);
            std::vector<float> tb(rows * meta.projection_dim, -9.0f);
            const std::vector<float> x = test_rows(meta, rows, 100 + rows);
            ops->apply_batch(*kfm::detail::state_of(view), x.data(), rows, tb.data(), batch_scratch.data());
            check_rows_against_dense(map, v, x, tb, rows, "apply_batch", i);
        }
    }
}

}  // namespace

TEST_CASE("ssf projection (single and batched) equals the dense V: odd d, small n") {
    // d = 7 pads to 8, m = 4, n = 8 (the smallest; the default would hold them in one block of 16): 29 points
    // = one full block of 16 and a truncated one.
    const auto map = build(7, 58, kfm::offline::ssf_fft_size_smallest, fmt::kernel::gaussian);
    CHECK(map.meta.work_dim == 8);
    CHECK(map.meta.block_size == 8);
    CHECK(map.meta.block_count == 2);
    check_projection_against_dense(map, {2, 3, 8, 9, 17, 33});
}

TEST_CASE("ssf projection (single and batched) equals the dense V: large n, several blocks") {
    // d = 101 pads to 102, m = 51 frequencies out of n = 1024; 2148 points over 2 blocks.
    check_projection_against_dense(build(101, 2 * 2148, 1024, fmt::kernel::arccos, 1), {2, 17});
    // d = 784 (MNIST size), the smallest n = 512, 1500 points: 2 blocks, the second truncated.
    check_projection_against_dense(build(784, 3000, kfm::offline::ssf_fft_size_smallest, fmt::kernel::arccos, 0), {3, 9});
    // The default layout at d = 16, D = 16d: one block of n = 64 (4x the smallest).
    const auto one_block = build(16, 256, 0, fmt::kernel::arccos, 1);
    CHECK(one_block.meta.block_size == 64);
    CHECK(one_block.meta.block_count == 1);
    check_projection_against_dense(one_block, {2, 17});
}

TEST_CASE("ssf transform: the feature stage on top of the projection (midpoint, 2 radial points)") {
    const auto map = build(9, 2 * 2 * 40, 0, fmt::kernel::gaussian, 1, 2);
    REQUIRE(map.meta.output_dim == 160);
    const file_buffer buffer(kfm::offline::serialize(map));
    const kfm::map view = open_or_fail(buffer, isa::scalar);
    std::vector<float> ws(kfm::workspace_bytes(view) / 4 + 1), out(map.meta.output_dim);
    const auto x = test_vector(9, 3);
    REQUIRE(kfm::transform(view, x.data(), x.size(), out.data(), out.size(), ws.data(), ws.size() * 4) == status::ok);
    const auto v = dense_v(map);
    const std::uint32_t p = map.meta.projection_dim, w = map.meta.work_dim;
    for (std::uint32_t j = 0; j < 2; ++j) {
        const auto& seg = kfm::detail::state_of(view)->view<kfm::detail::section::segments>()[j];
        for (std::uint32_t i = 0; i < p; ++i) {
            double t = 0.0;
            for (std::uint32_t c = 0; c < 9; ++c) t += v[std::size_t(i) * w + c] * x[c];
            CHECK(out[seg.out_begin + i] == doctest::Approx(seg.weight * std::cos(seg.scale * t)).epsilon(1e-4).scale(1e-3));
            CHECK(out[seg.out_begin + p + i] == doctest::Approx(seg.weight * std::sin(seg.scale * t)).epsilon(1e-4).scale(1e-3));
        }
    }
}

TEST_CASE("ssf open rejects a corrupted index set or a wrong sign count") {
    const auto map = build(16, 64, 0, fmt::kernel::arccos, 1);
    const auto good = kfm::offline::serialize(map);
    const std::uint32_t ix = section_index(good, fmt::tag::frequencies);
    const auto entry = section_at(good, ix);
    const std::vector<std::uint32_t> lambda = frequencies(map);
    kfm::map view;
    auto flip_bit = [&](std::vector<std::uint8_t>& bytes, std::uint32_t k) { bytes[std::size_t(entry.offset + k / 8)] ^= std::uint8_t(1u << (k % 8)); };
    auto open_status = [&](const std::vector<std::uint8_t>& bytes) {
        const file_buffer b(bytes);
        return kfm::open(b.data(), b.size(), &view, isa::scalar);
    };
    std::uint32_t absent = 1;  // a frequency not in the set
    while (std::find(lambda.begin(), lambda.end(), absent) != lambda.end()) ++absent;
    {
        auto bytes = good;  // one frequency fewer than work_dim / 2
        flip_bit(bytes, lambda[3]);
        reseal_section(bytes, ix);
        CHECK(open_status(bytes) == status::bad_section_size);
    }
    {
        auto bytes = good;  // one frequency more
        flip_bit(bytes, absent);
        reseal_section(bytes, ix);
        CHECK(open_status(bytes) == status::bad_section_size);
    }
    {
        auto bytes = good;  // frequency 0 in place of another (the DC row would be a point shared by every block)
        flip_bit(bytes, lambda[0]);
        flip_bit(bytes, 0);
        reseal_section(bytes, ix);
        CHECK(open_status(bytes) == status::index_out_of_range);
    }
    {
        auto changed = map;  // membership bits for half the FFT size
        for (auto& s : changed.sections)
            if (s.tag == fmt::tag::frequencies)
                s = kfm::offline::make_bits_section(fmt::tag::frequencies, std::vector<bool>(map.meta.block_size / 2, true));
        CHECK(open_status(kfm::offline::serialize(changed)) == status::bad_section_size);
    }
    {
        auto changed = map;  // no FREQ section
        std::erase_if(changed.sections, [](const auto& s) { return s.tag == fmt::tag::frequencies; });
        CHECK(open_status(kfm::offline::serialize(changed)) == status::missing_section);
    }
    {
        auto changed = map;  // one block too many in the meta: the sign bits no longer match
        changed.meta.block_count += 1;
        const file_buffer b(kfm::offline::serialize(changed));
        CHECK(kfm::open(b.data(), b.size(), &view, isa::scalar) != status::ok);
    }
}
