// The cost bound (docs/reliability.md, "A transform's cost is bounded by the file"): counts that drive
// work are refused at open beyond what the builders use, and every map the builders write stays within
// the documented work_limit.
#include <doctest/doctest.h>

#include <cstring>
#include <stdexcept>
#include <vector>

#include "common/builder_configs.hpp"
#include "common/open_profiles.hpp"
#include "common/test_maps.hpp"
#include "runtime/work_bound.hpp"

namespace fmt = kfm::format;
using kfm::status;

namespace {

kfm::offline::build_options options(fmt::method method, fmt::kernel kernel, unsigned d, unsigned features) {
    kfm::offline::build_options o;
    o.method = method;
    o.kernel.kind = kernel;
    o.kernel.degree = 3;
    o.kernel.scale = 4.0;
    o.input_dim = d;
    o.features = features;
    o.seed = 5;
    return o;
}

// Opens with the scalar kernels, after checking that the firmware profile's output bound decides as this
// build's (kfm::test::check_open_profiles_agree).
status open_contents(const kfm::offline::map_contents& map) {
    const kfm::test::file_buffer buffer(kfm::offline::serialize(map));
    kfm::test::check_open_profiles_agree(buffer.data(), buffer.size());
    kfm::map opened;
    return kfm::open(buffer.data(), buffer.size(), &opened, kfm::isa::scalar);
}

}  // namespace

TEST_CASE("work bound: butterfly repeats above format::max_butterfly_repeats are refused at open") {
    auto srf = options(fmt::method::srf, fmt::kernel::polynomial_sphere, 5, 16);
    srf.directions = kfm::offline::directions_kind::butterfly;
    const auto quadrature = options(fmt::method::quadrature, fmt::kernel::gaussian, 5, 16);
    for (const auto& o : {quadrature, srf}) {
        kfm::offline::map_contents map = kfm::offline::build_map(o);
        INFO(kfm::offline::method_name(o.method));
        REQUIRE(map.meta.repeats == fmt::max_butterfly_repeats);
        CHECK(open_contents(map) == status::ok);
        // The reproducer: 2^32 - 1 repeats with valid checksums made one transform run for minutes.
        for (std::uint32_t repeats : {0xffffffffu, 1u << 20, fmt::max_butterfly_repeats + 1}) {
            map.meta.repeats = repeats;
            CHECK(open_contents(map) == status::bad_meta);
        }
        map.meta.repeats = 1;
        CHECK(open_contents(map) == status::ok);
    }
}

TEST_CASE("work bound: more sketches than format::max_polynomial_degree are refused at open") {
    // d = 1 and scale 2 (appended sqrt(q) = 1): the largest degree within the finite-output contract.
    auto o = options(fmt::method::tensorsketch, fmt::kernel::polynomial_sphere, 1, 2);
    o.kernel.degree = fmt::max_polynomial_degree;
    o.kernel.scale = 2.0;
    kfm::offline::map_contents map = kfm::offline::build_map(o);
    CHECK(open_contents(map) == status::ok);
    map.meta.block_count = fmt::max_polynomial_degree + 1;
    CHECK(open_contents(map) == status::bad_meta);
    o.kernel.degree = fmt::max_polynomial_degree + 1;
    CHECK_THROWS_AS(kfm::offline::build_map(o), std::invalid_argument);
}

TEST_CASE("work bound: every builder map, and the largest TensorSketch degree, stay within work_limit") {
    std::vector<kfm::test::builder_config> configs = kfm::test::builder_configs(13, 96);
    for (const auto& c : kfm::test::builder_configs(5, 40)) configs.push_back(c);
    kfm::test::builder_config deepest;
    deepest.label = "tensorsketch/degree 100";
    deepest.options = options(fmt::method::tensorsketch, fmt::kernel::polynomial_sphere, 3, 2);
    deepest.options.kernel.degree = fmt::max_polynomial_degree;
    deepest.options.input_dim = 1;
    deepest.options.kernel.scale = 2.0;
    configs.push_back(deepest);
    for (const auto& config : configs) {
        const kfm::test::file_buffer buffer(kfm::offline::serialize(kfm::offline::build_map(config.options)));
        const kfm::map map = kfm::test::open_or_fail(buffer);
        kfm::test::check_open_profiles_agree(buffer.data(), buffer.size());
        const kfm::detail::map_state& state = *kfm::detail::state_of(map);
        const std::uint64_t work = kfm::detail::transform_work(state);
        const std::uint64_t limit = kfm::detail::work_limit(state, buffer.size());
        INFO(config.label << ": work " << work << ", limit " << limit);
        CHECK(work > state.meta->output_dim);  // the model counts every output at least once
        CHECK(work <= limit);
    }
}
