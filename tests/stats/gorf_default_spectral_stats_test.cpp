// GORF / GRFF on the polynomial-sphere kernel default to the signed-mixture spectral model (unbiased for
// its fitted surrogate; poly_stats_test checks that), not the paper's biased bessel-1d model: the default
// build is the signed-mixture build byte for byte, and it has a lower Gram error than bessel-1d.
#include <doctest/doctest.h>

#include <string>

#include "common/stats_util.hpp"
#include "kfm/offline.hpp"

using kfm::offline::build_options;

namespace {

build_options poly(kfm::format::method m, unsigned d, unsigned degree, std::uint64_t seed) {
    build_options o;
    o.method = m;
    o.kernel.kind = kfm::format::kernel::polynomial_sphere;
    o.kernel.degree = degree;
    o.kernel.scale = 3.0;
    o.input_dim = d;
    o.features = 4 * d;  // s = d
    o.seed = seed;
    return o;
}

}  // namespace

TEST_CASE("gorf and grff: the default spectral model is signed-mixture") {
    for (auto m : {kfm::format::method::gorf, kfm::format::method::grff}) {
        CAPTURE(kfm::offline::method_name(m));
        build_options explicit_mixture = poly(m, 9, 2, 3);
        explicit_mixture.spectral = kfm::offline::spectral_kind::signed_mixture;
        const auto by_default = kfm::offline::serialize(kfm::offline::build_map(poly(m, 9, 2, 3)));
        CHECK(by_default == kfm::offline::serialize(kfm::offline::build_map(explicit_mixture)));
        const auto map = kfm::test::map_from_options(poly(m, 9, 2, 3));
        CHECK((map.state().meta->method_flags & kfm::format::method_flag_gorf_signed_mixture) != 0);
        build_options bessel = poly(m, 9, 2, 3);
        bessel.spectral = kfm::offline::spectral_kind::bessel_1d;
        CHECK(kfm::offline::serialize(kfm::offline::build_map(bessel)) != by_default);
    }
}

TEST_CASE("gorf: the default has a lower Gram error than bessel-1d at s = d (a = 3, p = 1, 2, 3)") {
    const unsigned d = 16, n = 60, seeds = 20;
    const auto x = kfm::test::random_points(n, d, 31, 1.0, true);
    const auto y = kfm::test::random_points(n, d, 32, 1.0, true);
    for (unsigned degree : {1u, 2u, 3u}) {
        CAPTURE(degree);
        double mixture = 0.0, bessel = 0.0;
        for (unsigned s = 0; s < seeds; ++s) {
            build_options b = poly(kfm::format::method::gorf, d, degree, 100 + s);
            b.spectral = kfm::offline::spectral_kind::bessel_1d;
            mixture += kfm::test::gram_error(kfm::test::map_from_options(poly(kfm::format::method::gorf, d, degree, 100 + s)),
                                             x, n, y, n).rel_frobenius;
            bessel += kfm::test::gram_error(kfm::test::map_from_options(b), x, n, y, n).rel_frobenius;
        }
        MESSAGE("gorf p = " << degree << ": rel. Frobenius signed-mixture " << mixture / seeds << ", bessel-1d "
                            << bessel / seeds);
        CHECK(mixture < 0.8 * bessel);
    }
}
