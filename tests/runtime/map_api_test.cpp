// The public map API: every accessor on every builder configuration, an unopened map refused by every
// entry point (C++ and C), the C API's version / name / status queries, and the status list in full.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "common/builder_configs.hpp"
#include "common/test_maps.hpp"
#include "kfm/kfm.h"
#include "runtime/map_state.hpp"

using kfm::status;
using namespace kfm::test;

static_assert(sizeof(kfm::map) == kfm::map_storage_bytes, "the documented size is the real one");
static_assert(std::is_trivially_copyable_v<kfm::map>, "a map is plain bytes: copy it, put it in static storage");
static_assert(!std::is_aggregate_v<kfm::map>, "no public data members");

TEST_CASE("every accessor reports what the file says, on a map of every method and projection") {
    for (const auto& config : builder_configs(7, 64)) {
        CAPTURE(config.label);
        const auto contents = kfm::offline::build_map(config.options);
        const file_buffer buffer(kfm::offline::serialize(contents));
        for (std::size_t k = 0; k < kfm::isa_count(); ++k) {
            const kfm::isa i = kfm::isa_at(k);
            if (!kfm::isa_available(i)) continue;
            CAPTURE(kfm::isa_name(i));
            kfm::map m;
            REQUIRE(kfm::open(buffer.data(), buffer.size(), &m, i) == status::ok);
            const kfm::format::map_meta& meta = contents.meta;
            CHECK(m.is_open());
            CHECK(m.input_dim() == meta.input_dim);
            CHECK(m.output_dim() == meta.output_dim);
            CHECK(m.negative_dim() == meta.negative_dim);
            CHECK(static_cast<std::uint32_t>(m.method()) == meta.method);
            CHECK(static_cast<std::uint32_t>(m.kernel()) == meta.kernel);
            CHECK(static_cast<std::uint32_t>(m.projection()) == meta.projection);
            CHECK(m.active_isa() == i);
            CHECK(std::string(kfm::method_name(m.method())) != "unknown");
            CHECK(std::string(kfm::kernel_name(m.kernel())) != "unknown");
            CHECK(std::string(kfm::projection_name(m.projection())) != "unknown");
            const std::size_t one = m.workspace_bytes();
            CHECK(one > 0);
            CHECK(one == kfm::workspace_bytes(m, 1));
            CHECK(m.workspace_bytes(16) >= one);

            // A copy is the same map: same outputs from the same borrowed bytes.
            const kfm::map copy = m;
            const auto x = test_vector(m.input_dim(), 9);
            std::vector<float> a(m.output_dim()), b(m.output_dim());
            std::vector<unsigned char> ws(one);
            REQUIRE(kfm::transform(m, x.data(), x.size(), a.data(), a.size(), ws.data(), ws.size()) == status::ok);
            REQUIRE(kfm::transform(copy, x.data(), x.size(), b.data(), b.size(), ws.data(), ws.size()) == status::ok);
            CHECK(a == b);
            CHECK(std::isfinite(kfm::kernel_estimate(m, a.data(), b.data())));
        }
    }
}

TEST_CASE("open resolves the projection and the kernels once, into the map's own state") {
    const file_buffer buffer(kfm::offline::serialize(make_dense_map(dense_spec{})));
    kfm::map m;
    REQUIRE(kfm::open(buffer.data(), buffer.size(), &m, kfm::isa::scalar) == status::ok);
    const kfm::detail::map_state& s = *kfm::detail::state_of(m);
    CHECK(s.ops != nullptr);
    CHECK(s.kernels != nullptr);
    CHECK(s.active_isa == kfm::isa::scalar);
    // The state lives inside the map object (no heap, no global).
    const auto* p = reinterpret_cast<const unsigned char*>(&s);
    CHECK(p >= reinterpret_cast<const unsigned char*>(&m));
    CHECK(p + sizeof s <= reinterpret_cast<const unsigned char*>(&m) + sizeof m);
}

TEST_CASE("an unopened map is refused by every entry point, and nothing is written") {
    const file_buffer buffer(kfm::offline::serialize(make_dense_map(dense_spec{})));
    kfm::map opened;
    REQUIRE(kfm::open(buffer.data(), buffer.size(), &opened, kfm::isa::scalar) == status::ok);
    const std::size_t d = opened.input_dim(), D = opened.output_dim();
    const auto x = test_vector(static_cast<std::uint32_t>(d), 3);
    std::vector<unsigned char> ws(1 << 16);

    kfm::map never;  // default-constructed
    kfm::map failed;  // its open failed
    std::vector<std::uint8_t> damaged(buffer.data(), buffer.data() + buffer.size());
    damaged[0] ^= 1;
    const file_buffer bad(damaged);
    REQUIRE(kfm::open(bad.data(), bad.size(), &failed) == status::bad_magic);

    for (const kfm::map* m : {&never, &failed}) {
        CHECK(!m->is_open());
        CHECK(m->input_dim() == 0);
        CHECK(m->output_dim() == 0);
        CHECK(m->negative_dim() == 0);
        CHECK(static_cast<std::uint32_t>(m->method()) == 0);
        CHECK(static_cast<std::uint32_t>(m->kernel()) == 0);
        CHECK(static_cast<std::uint32_t>(m->projection()) == 0);
        CHECK(m->active_isa() == kfm::isa::automatic);
        CHECK(m->workspace_bytes() == 0);
        CHECK(kfm::workspace_bytes(*m, 4) == 0);
        std::vector<float> out(2 * D, -7.0f);
        const std::vector<float> untouched = out;
        CHECK(kfm::transform(*m, x.data(), d, out.data(), D, ws.data(), ws.size()) == status::not_open);
        std::vector<float> xs(x);
        xs.insert(xs.end(), x.begin(), x.end());
        CHECK(kfm::transform_batch(*m, xs.data(), 2, d, d, out.data(), D, ws.data(), ws.size()) == status::not_open);
        CHECK(kfm::transform_batch(*m, xs.data(), 0, d, d, out.data(), D, ws.data(), ws.size()) == status::not_open);
        CHECK(out == untouched);
        CHECK(std::isnan(kfm::kernel_estimate(*m, out.data(), out.data())));
    }
    CHECK(kfm::open(buffer.data(), buffer.size(), nullptr) == status::null_argument);
}

TEST_CASE("C API: an unopened handle is refused by every function") {
    kfm_map never = {{0}};
    const std::size_t d = 5, D = 16;
    std::vector<float> x(d, 0.5f), out(D, -7.0f);
    const std::vector<float> untouched = out;
    std::vector<unsigned char> ws(1 << 16);
    CHECK(kfm_is_open(&never) == 0);
    CHECK(kfm_is_open(nullptr) == 0);
    CHECK(kfm_input_dim(&never) == 0);
    CHECK(kfm_output_dim(&never) == 0);
    CHECK(kfm_negative_dim(&never) == 0);
    CHECK(std::string(kfm_isa(&never)) == "auto");
    CHECK(std::string(kfm_method_name(&never)) == "unknown");
    CHECK(std::string(kfm_kernel_name(&never)) == "unknown");
    CHECK(std::string(kfm_projection_name(&never)) == "unknown");
    CHECK(kfm_workspace_bytes(&never, 1) == 0);
    CHECK(kfm_transform(&never, x.data(), d, out.data(), D, ws.data(), ws.size()) == KFM_NOT_OPEN);
    CHECK(kfm_transform_batch(&never, x.data(), 1, d, d, out.data(), D, ws.data(), ws.size()) == KFM_NOT_OPEN);
    CHECK(out == untouched);
    CHECK(std::isnan(kfm_kernel_estimate(&never, out.data(), out.data())));
}

TEST_CASE("C API: version, names of an open map, and every status code described as in C++") {
    CHECK(std::string(kfm_version()) == KFM_EXPECTED_VERSION);
    CHECK(std::string(kfm::version()) == KFM_EXPECTED_VERSION);

    const auto contents = kfm::offline::build_map([] {
        kfm::offline::build_options o;
        o.method = kfm::format::method::ssf;
        o.input_dim = 6;
        o.features = 32;
        return o;
    }());
    const file_buffer buffer(kfm::offline::serialize(contents));
    kfm_map m = {{0}};
    REQUIRE(kfm_open(buffer.data(), buffer.size(), nullptr, &m) == KFM_OK);
    CHECK(kfm_is_open(&m) == 1);
    CHECK(std::string(kfm_method_name(&m)) == "ssf");
    CHECK(std::string(kfm_kernel_name(&m)) == "gaussian");
    CHECK(std::string(kfm_projection_name(&m)) == "ssf-fft");

    // The codes run 0 .. KFM_STATUS_COUNT - 1 with one distinct description each.
    std::vector<std::string> seen;
    for (int code = 0; code < KFM_STATUS_COUNT; ++code) {
        const std::string text = kfm_status_string(code);
        CHECK(text == kfm::status_string(static_cast<status>(code)));
        CHECK(text != "unknown status");
        for (const auto& other : seen) CHECK(other != text);
        seen.push_back(text);
    }
    CHECK(std::string(kfm_status_string(KFM_STATUS_COUNT)) == "unknown status");
    CHECK(std::string(kfm_status_string(-1)) == "unknown status");
    CHECK(KFM_NOT_OPEN == static_cast<int>(status::not_open));
}

TEST_CASE("method and kernel names round-trip through their lookups") {
    for (std::uint32_t v = 1; v <= static_cast<std::uint32_t>(kfm::format::method::tensorsketch); ++v) {
        const auto m = static_cast<kfm::format::method>(v);
        kfm::format::method back{};
        REQUIRE(kfm::method_from_name(kfm::method_name(m), &back) == status::ok);
        CHECK(back == m);
    }
    for (std::uint32_t v = 1; v <= static_cast<std::uint32_t>(kfm::format::kernel::delta_gaussian); ++v) {
        const auto k = static_cast<kfm::format::kernel>(v);
        kfm::format::kernel back{};
        REQUIRE(kfm::kernel_from_name(kfm::kernel_name(k), &back) == status::ok);
        CHECK(back == k);
    }
    kfm::format::method untouched = kfm::format::method::ssf;
    CHECK(kfm::method_from_name("no-such-method", &untouched) == status::unknown_method);
    CHECK(untouched == kfm::format::method::ssf);
    CHECK(kfm::method_from_name(nullptr, &untouched) == status::unknown_method);
    CHECK(std::string(kfm::method_name(static_cast<kfm::format::method>(99))) == "unknown");
}
