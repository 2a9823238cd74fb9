// Option checks, output shapes and determinism of the SRF / GORF / GRFF / Maclaurin / TensorSketch
// builders; butterfly directions equal a dense matrix built from the same networks.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/stats_util.hpp"
#include "common/test_maps.hpp"
#include "kfm/offline.hpp"
#include "offline/sampling/butterfly_angles.hpp"

namespace {

using kfm::format::method;
using kfm::offline::build_options;

build_options poly(method m, unsigned d, unsigned D) {
    build_options o;
    o.method = m;
    o.kernel.kind = kfm::format::kernel::polynomial_sphere;
    o.kernel.degree = 3;
    o.kernel.scale = 3.0;
    o.input_dim = d;
    o.features = D;
    return o;
}

template <class T>
std::vector<T> section_values(const kfm::offline::map_contents& map, std::uint32_t tag) {
    for (const auto& s : map.sections)
        if (s.tag == tag) {
            std::vector<T> v(s.bytes.size() / sizeof(T));
            std::memcpy(v.data(), s.bytes.data(), v.size() * sizeof(T));
            return v;
        }
    FAIL("section missing");
    return {};
}

// The same map with a dense projection: row i = scale_i * row i of M_k (= column i of Q_k = M_k^T from
// the offline reference butterfly_dense_q), segments with a unit scalar scale.
kfm::offline::map_contents dense_equivalent(const kfm::offline::map_contents& map) {
    namespace fmt = kfm::format;
    const unsigned d = map.meta.work_dim, rows = map.meta.projection_dim;
    const auto cs = section_values<float>(map, fmt::tag::butterfly);
    const auto perm = section_values<std::uint32_t>(map, fmt::tag::permutation);
    const auto scales = section_values<float>(map, fmt::tag::scales);
    auto segments = section_values<fmt::feature_segment>(map, fmt::tag::segments);
    const std::size_t cs_stride = 2 * (std::size_t(map.meta.block_size) - 1);
    std::vector<float> dense(std::size_t(rows) * d);
    for (unsigned k = 0; k * d < rows; ++k) {
        const auto q = kfm::offline::butterfly_dense_q(d, cs.data() + k * cs_stride, perm.data() + std::size_t(k) * d,
                                                      map.meta.repeats);
        for (unsigned i = 0; i < d && k * d + i < rows; ++i)
            for (unsigned j = 0; j < d; ++j)
                dense[std::size_t(k * d + i) * d + j] = float(double(scales[k * d + i]) * q[std::size_t(j) * d + i]);
    }
    for (auto& seg : segments) {
        seg.scale_index = fmt::no_index;
        seg.scale = 1.0f;
    }
    kfm::offline::map_contents out;
    out.meta = map.meta;
    out.meta.projection = std::uint32_t(fmt::projection::dense);
    out.meta.block_count = out.meta.block_size = out.meta.repeats = 0;
    out.sections.push_back(kfm::offline::make_segments_section(segments));
    for (const auto& s : map.sections)
        if (s.tag != fmt::tag::segments && s.tag != fmt::tag::butterfly && s.tag != fmt::tag::permutation &&
            s.tag != fmt::tag::scales)
            out.sections.push_back(s);
    out.sections.push_back(kfm::offline::make_f32_section(fmt::tag::dense, dense));
    return out;
}

}  // namespace

TEST_CASE("poly builders: butterfly directions equal the dense matrix of the same networks") {
    for (method m : {method::gorf, method::srf}) {
        for (unsigned d : {16u, 23u}) {  // d2 = d, and d2 > d (pairs past d pass through)
            build_options o = poly(m, d, 4 * d + 12);  // several blocks, the last truncated
            o.directions = kfm::offline::directions_kind::butterfly;
            if (m == method::gorf) {
                o.kernel.kind = kfm::format::kernel::delta_gaussian;
                o.kernel.weights = {1.0, -0.5};
                o.kernel.sigmas = {1.0, 3.0};
            }
            const auto map = kfm::offline::build_map(o);
            CAPTURE(d);
            CAPTURE(std::string(kfm::offline::method_name(m)));
            CHECK(map.meta.projection == std::uint32_t(kfm::format::projection::butterfly_blocks));
            CHECK(map.meta.block_count == (map.meta.projection_dim + d - 1) / d);
            const auto reference = dense_equivalent(map);
            const auto opened = kfm::test::map_from_contents(map);
            for (std::uint64_t seed : {1u, 2u, 3u}) {
                const auto x = kfm::test::test_vector(d, seed);
                const auto got = kfm::test::transform_one(opened, x);
                const auto want = kfm::test::reference_transform(reference, x);
                REQUIRE(got.size() == want.size());
                double worst = 0.0;
                for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::fabs(got[i] - want[i]));
                CHECK(worst < 2e-5);
            }
        }
    }
}

TEST_CASE("poly builders: shapes, signatures and normalisation flags") {
    auto g = kfm::offline::build_map(poly(method::gorf, 8, 42));
    CHECK(g.meta.output_dim == 40);  // D = 4s, s = floor(42 / 4)
    CHECK(g.meta.negative_dim == 20);
    CHECK(g.meta.projection_dim == 20);
    CHECK((g.meta.flags & kfm::format::meta_flag_normalize_input) != 0);
    auto t = kfm::offline::build_map(poly(method::tensorsketch, 8, 100));
    CHECK(t.meta.output_dim == 128);  // next power of two
    CHECK(t.meta.work_dim == 9);
    CHECK(t.meta.input_append == doctest::Approx(std::sqrt(3.5)));
    auto r = kfm::offline::build_map(poly(method::maclaurin, 8, 100));
    CHECK(r.meta.output_dim == 100);
    auto s = kfm::offline::build_map(poly(method::srf, 8, 100));
    CHECK(s.meta.output_dim == 100);
    CHECK(s.meta.output_convention == static_cast<std::uint32_t>(kfm::format::output_convention::cos_phase));
}

TEST_CASE("poly builders: same seed gives the same bytes, another seed different bytes") {
    for (method m : {method::gorf, method::grff, method::tensorsketch, method::maclaurin, method::srf}) {
        build_options o = poly(m, 6, 32);
        const auto a = kfm::offline::serialize(kfm::offline::build_map(o));
        const auto b = kfm::offline::serialize(kfm::offline::build_map(o));
        o.seed = 2;
        const auto c = kfm::offline::serialize(kfm::offline::build_map(o));
        CHECK(a == b);
        CHECK(a != c);
    }
}

TEST_CASE("poly builders: gorf and grff round a request below 4 features up to one cos/sin pair per sign") {
    for (method m : {method::gorf, method::grff})
        for (unsigned features : {1u, 2u, 3u, 4u}) {
            const auto map = kfm::offline::build_map(poly(m, 8, features));
            CHECK(map.meta.output_dim == 4);
            CHECK(map.meta.negative_dim == 2);
        }
}

TEST_CASE("poly builders: impossible options are rejected with std::invalid_argument") {
    build_options o = poly(method::gorf, 8, 0);  // no features
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o = poly(method::gorf, 8, 16);
    o.spectral = static_cast<kfm::offline::spectral_kind>(5);
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o = poly(method::gorf, 8, 16);
    o.kernel.kind = kfm::format::kernel::gaussian;
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o = poly(method::grff, 8, 16);
    o.kernel.kind = kfm::format::kernel::delta_gaussian;
    o.kernel.weights = {1.0, -1.0};
    o.kernel.sigmas = {1.0};  // mismatched
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o.kernel.sigmas = {1.0, -2.0};
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o = poly(method::srf, 8, 16);
    o.kernel.scale = 1.5;  // a < 2
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o = poly(method::srf, 8, 16);
    o.directions = static_cast<kfm::offline::directions_kind>(5);  // unknown: a clear error, never a silent dense map
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o = poly(method::gorf, 8, 16);
    o.directions = static_cast<kfm::offline::directions_kind>(5);
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    for (const char* structured : {"hadamard", "butterfly"}) {
        o = poly(method::grff, 8, 16);
        o.directions = kfm::offline::choice_named<kfm::offline::directions_kind>(structured);  // GRFF is iid by definition
        CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    }
    o = poly(method::tensorsketch, 8, 70000);
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o = poly(method::maclaurin, 0, 16);
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o = poly(method::maclaurin, 8, 16);
    o.kernel.degree = 0;
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
}
