// The kernel_landmarks projection (Nystroem) is verified at open as strictly as the others: each section's
// size against the dims, finite values (NaN in the landmarks or in M), the stored landmark norms against
// the landmarks, sigma, the kernel (gaussian, Matern at nu = 1/2, 3/2, 5/2, rational quadratic), and no padding of the input.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "common/test_maps.hpp"
#include "kfm/offline.hpp"
#include "offline/sampling/random.hpp"

namespace fmt = kfm::format;
using kfm::status;
using namespace kfm::test;

namespace {

kfm::offline::map_contents nystroem_map() {
    kfm::offline::build_options o;
    o.method = fmt::method::nystroem;
    o.input_dim = 5;
    o.features = 12;
    o.data_rows = 30;
    o.data.resize(o.data_rows * o.input_dim);
    kfm::offline::rng r(2);
    for (float& v : o.data) v = float(2.0 * r.uniform() - 1.0);
    return kfm::offline::build_map(o);
}

status open_contents(const kfm::offline::map_contents& map) {
    const file_buffer buffer(kfm::offline::serialize(map));
    kfm::map v;
    return kfm::open(buffer.data(), buffer.size(), &v, kfm::isa::scalar);
}

kfm::offline::section& section_of(kfm::offline::map_contents& map, std::uint32_t tag) {
    for (auto& s : map.sections)
        if (s.tag == tag) return s;
    FAIL("no such section");
    return map.sections.front();
}

void set_f32(kfm::offline::section& s, std::size_t i, float v) { std::memcpy(s.bytes.data() + 4 * i, &v, 4); }

// Drops the last element of an f32 section.
void shorten(kfm::offline::section& s) {
    s.bytes.resize(s.bytes.size() - 4);
    --s.count;
}

}  // namespace

TEST_CASE("kernel_landmarks: a built map opens; every wrong size, NaN or inconsistency is refused") {
    REQUIRE(open_contents(nystroem_map()) == status::ok);
    for (std::uint32_t tag : {fmt::tag::dense, fmt::tag::landmark_norms, fmt::tag::kernel_inverse_root}) {
        auto map = nystroem_map();
        shorten(section_of(map, tag));
        CHECK(open_contents(map) == status::bad_section_size);
        map = nystroem_map();
        set_f32(section_of(map, tag), 3, std::numeric_limits<float>::quiet_NaN());
        CHECK(open_contents(map) == status::bad_parameter_value);
        map = nystroem_map();
        std::erase_if(map.sections, [&](const auto& s) { return s.tag == tag; });
        CHECK(open_contents(map) == status::missing_section);
    }
    auto map = nystroem_map();
    auto& norms = section_of(map, fmt::tag::landmark_norms);
    float v;
    std::memcpy(&v, norms.bytes.data() + 4, 4);
    set_f32(norms, 1, v * (1.0f + 0x1p-16f));  // a norm that is not its landmark's
    CHECK(open_contents(map) == status::bad_parameter_value);

    map = nystroem_map();
    map.meta.kernel_sigma = 0.0;
    CHECK(open_contents(map) == status::bad_parameter_value);
    map.meta.kernel_sigma = 1e-30;  // -1 / (2 sigma^2) overflows float
    CHECK(open_contents(map) == status::bad_parameter_value);
    map = nystroem_map();
    map.meta.kernel = std::uint32_t(fmt::kernel::laplacian);  // an L1 distance: not from dot products
    CHECK(open_contents(map) == status::unknown_kernel);
    // Matern opens at the closed-form orders only; rational quadratic needs -alpha and 1/(2 alpha l^2) as floats.
    map.meta.kernel = std::uint32_t(fmt::kernel::matern);
    for (double nu : {0.5, 1.5, 2.5}) {
        map.meta.kernel_scale = nu;
        CHECK(open_contents(map) == status::ok);
    }
    for (double nu : {1.0, 2.0, 3.5, 2.5000001}) {
        map.meta.kernel_scale = nu;
        CHECK(open_contents(map) == status::unknown_kernel);
    }
    map.meta.kernel_scale = 1.5;
    map.meta.kernel_sigma = 1e-39;  // sqrt(3) / l overflows float
    CHECK(open_contents(map) == status::bad_parameter_value);
    map = nystroem_map();
    map.meta.kernel = std::uint32_t(fmt::kernel::rational_quadratic);
    map.meta.kernel_scale = 0.7;
    CHECK(open_contents(map) == status::ok);
    map.meta.kernel_scale = 1e39;  // -alpha is not a float
    CHECK(open_contents(map) == status::bad_parameter_value);
    map.meta.kernel_scale = 0.0;
    CHECK(open_contents(map) == status::bad_parameter_value);
    map = nystroem_map();
    map.meta.work_dim = map.meta.input_dim + 1;
    CHECK(open_contents(map) != status::ok);
    map = nystroem_map();
    map.meta.projection = std::uint32_t(fmt::projection::dense);  // LNRM and KIRT are not a dense map's
    CHECK(open_contents(map) == status::unexpected_section);
}
