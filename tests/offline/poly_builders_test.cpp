// Option checks, output shapes and determinism of the SRF / GORF / GRFF / Maclaurin / TensorSketch
// builders.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "kfm/offline.hpp"

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

}  // namespace

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

TEST_CASE("poly builders: impossible options are rejected with std::invalid_argument") {
    build_options o = poly(method::gorf, 8, 3);  // fewer than 4 features
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o = poly(method::gorf, 8, 16);
    o.spectral = "nonsense";
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
    o.directions = "butterfly";  // not implemented: a clear error, never a silent dense map
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o = poly(method::grff, 8, 16);
    o.directions = "hadamard";  // GRFF is iid by definition
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o = poly(method::tensorsketch, 8, 70000);
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o = poly(method::maclaurin, 0, 16);
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
    o = poly(method::maclaurin, 8, 16);
    o.kernel.degree = 0;
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
}
