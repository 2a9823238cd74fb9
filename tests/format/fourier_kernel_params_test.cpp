// The parameters of the Matérn, rational-quadratic and Laplacian kernels in META are verified at open:
// a NaN, zero or negative nu / alpha / length is refused with bad_parameter_value, a kernel id past the
// last known one with unknown_kernel; the built maps themselves open.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "common/test_maps.hpp"
#include "kfm/offline.hpp"

namespace fmt = kfm::format;
using kfm::status;
using kfm::offline::map_contents;

namespace {

status open_map(const map_contents& map) {
    const kfm::test::file_buffer buffer(kfm::offline::serialize(map));
    kfm::map v;
    return kfm::open(buffer.data(), buffer.size(), &v, kfm::isa::scalar);
}

map_contents built(fmt::kernel k) {
    kfm::offline::build_options o;
    o.method = fmt::method::rff;
    o.kernel.kind = k;
    o.kernel.sigma = 1.5;
    o.kernel.nu = 2.5;
    o.kernel.alpha = 0.5;
    o.input_dim = 5;
    o.features = 16;
    return kfm::offline::build_map(o);
}

}  // namespace

TEST_CASE("matern / rational-quadratic / laplacian maps open, and their parameters are checked") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (fmt::kernel k : {fmt::kernel::matern, fmt::kernel::rational_quadratic, fmt::kernel::laplacian}) {
        CAPTURE(kfm::kernel_name(k));
        map_contents map = built(k);
        REQUIRE(open_map(map) == status::ok);
        CHECK(map.meta.kernel_sigma == 1.5);
        for (double bad : {nan, 0.0, -1.0}) {
            CAPTURE(bad);
            map_contents m = map;
            m.meta.kernel_sigma = bad;
            CHECK(open_map(m) == status::bad_parameter_value);
            if (k == fmt::kernel::laplacian) continue;
            m = map;
            m.meta.kernel_scale = bad;  // nu or alpha
            CHECK(open_map(m) == status::bad_parameter_value);
        }
    }
    CHECK(built(fmt::kernel::matern).meta.kernel_scale == 2.5);
    CHECK(built(fmt::kernel::rational_quadratic).meta.kernel_scale == 0.5);
    map_contents m = built(fmt::kernel::laplacian);
    m.meta.kernel = static_cast<std::uint32_t>(fmt::kernel::laplacian) + 1;
    CHECK(open_map(m) == status::unknown_kernel);
}
