// Stored values that are a function of the map's dims are recomputed at open and compared
// (docs/reliability.md, "Derivable values are recomputed"): the FFT twiddle table (to one ulp) and the
// butterfly (cos, sin) pairs (a rotation each).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "common/open_profiles.hpp"
#include "common/test_maps.hpp"

namespace fmt = kfm::format;
using kfm::status;

namespace {

kfm::offline::map_contents build(fmt::method method, fmt::kernel kernel, const char* directions = "dense") {
    kfm::offline::build_options o;
    o.method = method;
    o.kernel.kind = kernel;
    o.kernel.degree = 3;
    o.kernel.scale = 4.0;
    o.input_dim = 9;
    o.features = 64;
    o.sweeps = 2;
    o.directions = kfm::offline::choice_named<kfm::offline::directions_kind>(directions);
    return kfm::offline::build_map(o);
}

float* floats_of(kfm::offline::map_contents& map, std::uint32_t tag) {
    for (auto& s : map.sections)
        if (s.tag == tag) return reinterpret_cast<float*>(s.bytes.data());
    FAIL("section missing");
    return nullptr;
}

// Opens with every ISA this host runs; all must agree, and the firmware profile's output bound with this
// build's (kfm::test::check_open_profiles_agree).
status open_everywhere(const kfm::offline::map_contents& map) {
    const kfm::test::file_buffer buffer(kfm::offline::serialize(map));
    kfm::test::check_open_profiles_agree(buffer.data(), buffer.size());
    kfm::map scalar;
    const status s = kfm::open(buffer.data(), buffer.size(), &scalar, kfm::isa::scalar);
    for (std::size_t i = 0; i < kfm::isa_count(); ++i) {
        if (!kfm::isa_available(kfm::isa_at(i))) continue;
        kfm::map m;
        CHECK(kfm::open(buffer.data(), buffer.size(), &m, kfm::isa_at(i)) == s);
    }
    return s;
}

float ulps_away(float v, int ulps) {
    for (int i = 0; i < ulps; ++i) v = std::nextafter(v, std::numeric_limits<float>::infinity());
    return v;
}

}  // namespace

TEST_CASE("derived values: a twiddle table that is not fft_make_twiddles' is refused (SSF, TensorSketch)") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const auto& base : {build(fmt::method::ssf, fmt::kernel::gaussian),
                             build(fmt::method::tensorsketch, fmt::kernel::polynomial_sphere)}) {
        const std::size_t count = [&] {
            for (const auto& s : base.sections)
                if (s.tag == fmt::tag::twiddles) return std::size_t(s.count);
            return std::size_t(0);
        }();
        REQUIRE(count > 130);
        CHECK(open_everywhere(base) == status::ok);
        // The reproducer (TWID[0] = 1e30: NaN rows on AVX-512, finite rows on scalar), then values
        // a range check would pass: NaN, a sign flip, an in-range change, the last entry, 2 ulps; 1 ulp is
        // accepted (a different libm may round cos or sin the other way).
        const struct {
            const char* name;
            std::size_t index;
            std::function<float(float)> value;
            status expected;
        } edits[] = {
            {"1e30", 0, [](float) { return 1e30f; }, status::bad_parameter_value},
            {"NaN", 0, [nan](float) { return nan; }, status::bad_parameter_value},
            {"sign flip", 1, [](float v) { return -v; }, status::bad_parameter_value},
            {"in range", 7, [](float v) { return v == 0.5f ? 0.25f : 0.5f; }, status::bad_parameter_value},
            {"last entry", count - 1, [](float v) { return v + 0.25f; }, status::bad_parameter_value},
            {"two ulps", count / 2, [](float v) { return ulps_away(v, 2); }, status::bad_parameter_value},
            {"one ulp", count / 2, [](float v) { return ulps_away(v, 1); }, status::ok},
        };
        for (const auto& e : edits) {
            kfm::offline::map_contents map = base;
            float* twiddles = floats_of(map, fmt::tag::twiddles);
            twiddles[e.index] = e.value(twiddles[e.index]);
            INFO(e.name << ": entry " << e.index << " = " << twiddles[e.index]);
            CHECK(open_everywhere(map) == e.expected);
        }
    }
}

TEST_CASE("derived values: butterfly (cos, sin) pairs must be rotations (quadrature, structured SRF)") {
    for (const auto& base : {build(fmt::method::quadrature, fmt::kernel::gaussian),
                             build(fmt::method::srf, fmt::kernel::polynomial_sphere, "butterfly")}) {
        CHECK(open_everywhere(base) == status::ok);
        const struct {
            float c, s;
            status expected;
        } pairs[] = {{0.6f, 0.8f, status::ok},
                     {-1.0f, 0.0f, status::ok},
                     {0.6f, 0.6f, status::bad_parameter_value},   // |.| <= 1 but shrinks
                     {1.0f, 1.0f, status::bad_parameter_value},   // grows the input by sqrt(2) per level
                     {0.0f, 0.0f, status::bad_parameter_value},
                     {1e30f, 0.0f, status::bad_parameter_value},
                     {std::numeric_limits<float>::quiet_NaN(), 0.0f, status::bad_parameter_value}};
        for (const auto& p : pairs) {
            kfm::offline::map_contents map = base;
            float* cs = floats_of(map, fmt::tag::butterfly);
            cs[2] = p.c;
            cs[3] = p.s;
            INFO("(cos, sin) = (" << p.c << ", " << p.s << ")");
            CHECK(open_everywhere(map) == p.expected);
        }
    }
}
