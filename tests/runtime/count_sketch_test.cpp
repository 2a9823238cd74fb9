// TensorSketch's count_sketch_fft projection against the explicit tensor-product sum it implements:
// TS(x)[j] = sqrt(alpha) sum over (i_1..i_p) of prod_k s_k(i_k) x'_(i_k), over index tuples whose hashes
// sum to j mod D (x' = [x/|x|; sqrt(q)]), on every ISA this host runs; plus file validation.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "common/isa_coverage.hpp"
#include "common/stats_util.hpp"
#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"
#include "runtime/map_state.hpp"

namespace {

kfm::offline::build_options sketch_options(unsigned d, unsigned D, unsigned p, std::uint64_t seed) {
    kfm::offline::build_options o;
    o.method = kfm::format::method::tensorsketch;
    o.kernel.kind = kfm::format::kernel::polynomial_sphere;
    o.kernel.degree = p;
    o.kernel.scale = 3.0;
    o.input_dim = d;
    o.features = D;
    o.seed = seed;
    return o;
}

// Direct sum over all (work_dim)^p index tuples, in double, from the map's own hashes and signs.
std::vector<double> explicit_sketch(const kfm::map& map, const std::vector<float>& x) {
    const auto& m = *kfm::detail::state_of(map)->meta;
    const std::uint8_t* signs = kfm::detail::state_of(map)->view<kfm::detail::section::signs>().data;
    const std::uint32_t* indices = kfm::detail::state_of(map)->view<kfm::detail::section::indices>().data;
    const unsigned w = m.work_dim, p = m.block_count, D = m.block_size;
    std::vector<double> xw(w, 0.0);
    double norm = 0;
    for (float v : x) norm += double(v) * v;
    for (unsigned i = 0; i < m.input_dim; ++i) xw[i] = x[i] / std::sqrt(norm);
    xw[m.input_dim] = m.input_append;
    auto sign = [&](std::size_t bit) { return ((signs[bit >> 3] >> (bit & 7)) & 1u) ? -1.0 : 1.0; };
    std::vector<double> out(D, 0.0);
    std::vector<unsigned> idx(p, 0);
    for (;;) {
        double v = 1.0;
        unsigned bucket = 0;
        for (unsigned k = 0; k < p; ++k) {
            const std::size_t e = std::size_t(k) * w + idx[k];
            v *= sign(e) * xw[idx[k]];
            bucket = (bucket + indices[e]) % D;
        }
        out[bucket] += v;
        unsigned k = 0;
        while (k < p && ++idx[k] == w) idx[k++] = 0;
        if (k == p) break;
    }
    const double alpha = std::pow(2.0 / (m.kernel_scale * m.kernel_scale), double(p));
    for (double& v : out) v *= std::sqrt(alpha);
    return out;
}

}  // namespace

TEST_CASE("count_sketch_fft: equals the explicit tensor-product sketch on every ISA") {
    for (unsigned p : {1u, 2u, 3u}) {
        const auto bytes = kfm::offline::serialize(kfm::offline::build_map(sketch_options(5, 16, p, 40 + p)));
        std::vector<std::uint64_t> buffer((bytes.size() + 7) / 8);
        std::memcpy(buffer.data(), bytes.data(), bytes.size());
        const std::vector<float> x = kfm::test::random_points(1, 5, 7 + p, 1.3);
        for (auto isa : kfm::test::known_isas()) {
            if (!kfm::isa_available(isa)) continue;
            kfm::map map;
            REQUIRE(kfm::open(buffer.data(), bytes.size(), &map, isa) == kfm::status::ok);
            REQUIRE(map.output_dim() == 16);
            std::vector<float> ws(kfm::workspace_bytes(map)), out(16);
            REQUIRE(kfm::transform(map, x.data(), 5, out.data(), 16, ws.data(), ws.size()) == kfm::status::ok);
            const std::vector<double> want = explicit_sketch(map, x);
            INFO("p = " << p << ", isa = " << kfm::isa_name(isa));
            for (unsigned j = 0; j < 16; ++j) CHECK(out[j] == doctest::Approx(want[j]).epsilon(1e-4).scale(1.0));
        }
    }
}

TEST_CASE("count_sketch_fft: a hash out of range or a wrong sketch size is rejected at open") {
    kfm::offline::map_contents c = kfm::offline::build_map(sketch_options(4, 8, 2, 5));
    for (auto& s : c.sections)
        if (s.tag == kfm::format::tag::indices) {
            std::uint32_t bad = 8;  // == D
            std::memcpy(s.bytes.data(), &bad, 4);
        }
    auto bytes = kfm::offline::serialize(c);
    std::vector<std::uint64_t> buffer((bytes.size() + 7) / 8);
    std::memcpy(buffer.data(), bytes.data(), bytes.size());
    kfm::map map;
    CHECK(kfm::open(buffer.data(), bytes.size(), &map) == kfm::status::index_out_of_range);

    c = kfm::offline::build_map(sketch_options(4, 8, 2, 5));
    c.meta.block_size = 12;  // not a power of two
    bytes = kfm::offline::serialize(c);
    buffer.assign((bytes.size() + 7) / 8, 0);
    std::memcpy(buffer.data(), bytes.data(), bytes.size());
    CHECK(kfm::open(buffer.data(), bytes.size(), &map) == kfm::status::bad_meta);
}
