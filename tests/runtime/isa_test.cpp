// ISA selection through the registry: every available ISA gives the scalar results within tolerance, the
// others are refused at open; isa names round-trip (C++ and C API); KFM_ISA overrides automatic selection
// on x86 and an unknown name is an error.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "common/isa_coverage.hpp"
#include "common/test_maps.hpp"
#include "kfm/kfm.h"
#include "runtime/isa_registry.hpp"
#include "runtime/map_state.hpp"

namespace fmt = kfm::format;
using kfm::isa;
using kfm::status;
using namespace kfm::test;

namespace {

const std::vector<isa> all_isas = known_isas();

std::vector<float> run(const kfm::map& v, const std::vector<float>& x) {
    std::vector<float> out(v.output_dim()), ws(kfm::workspace_bytes(v) / sizeof(float) + 1);
    REQUIRE(kfm::transform(v, x.data(), x.size(), out.data(), out.size(), ws.data(), ws.size() * sizeof(float)) == status::ok);
    return out;
}

}  // namespace

TEST_CASE("isa names round-trip") {
    std::vector<isa> named = all_isas;
    named.push_back(isa::automatic);
    for (isa i : named) {
        isa back = isa::scalar;
        REQUIRE(kfm::isa_from_name(kfm::isa_name(i), &back) == status::ok);
        CHECK(back == i);
    }
    CHECK(std::string(kfm::isa_name(isa::automatic)) == "auto");
    CHECK(std::string(kfm::isa_name(static_cast<isa>(99))) == "unknown");
    isa out = isa::scalar;
    CHECK(kfm::isa_from_name("sse9", &out) == status::unknown_isa);
    CHECK(kfm::isa_from_name("", &out) == status::unknown_isa);
    CHECK(kfm::isa_from_name(nullptr, &out) == status::null_argument);
    CHECK(out == isa::scalar);
    CHECK(kfm::isa_available(isa::scalar));
    CHECK(kfm::isa_available(isa::automatic));
    CHECK(!kfm::isa_available(static_cast<isa>(99)));
}

TEST_CASE("isa_count / isa_at enumerate the registry, and the C API agrees") {
    const std::size_t tested = print_isa_coverage("runtime");
    REQUIRE(kfm::isa_count() == all_isas.size());
    REQUIRE(kfm_isa_count() == kfm::isa_count());
    std::size_t available = 0;
    for (std::size_t k = 0; k < kfm::isa_count(); ++k) {
        const isa i = kfm::isa_at(k);
        CAPTURE(kfm::isa_name(i));
        CHECK(i != isa::automatic);
        REQUIRE(kfm_isa_name_at(k) != nullptr);
        CHECK(std::string(kfm_isa_name_at(k)) == kfm::isa_name(i));
        CHECK(kfm_isa_available(kfm_isa_name_at(k)) == (kfm::isa_available(i) ? 1 : 0));
        if (kfm::isa_available(i)) ++available;
    }
    CHECK(available == tested);
    CHECK(available >= 1);
    CHECK(kfm::isa_at(kfm::isa_count()) == isa::automatic);
    CHECK(kfm_isa_name_at(kfm_isa_count()) == nullptr);
    CHECK(kfm_isa_available("auto") == 1);
    CHECK(kfm_isa_available("scalar") == 1);
    CHECK(kfm_isa_available("sse9") == 0);
    CHECK(kfm_isa_available(nullptr) == 0);
}

TEST_CASE("resolve_isa: the chosen ISA and its table, or an error that writes nothing") {
    const kfm::detail::kernel_table* table = nullptr;
    isa chosen = isa::automatic;
    for (isa i : all_isas) {
        CAPTURE(kfm::isa_name(i));
        const status s = kfm::detail::resolve_isa(i, &chosen, &table);
        if (!kfm::isa_available(i)) {
            CHECK(s == status::isa_unavailable);
            continue;
        }
        REQUIRE(s == status::ok);
        CHECK(chosen == i);
        CHECK(table == kfm::detail::kernels_for(i));
    }
    chosen = isa::scalar;
    table = nullptr;
    CHECK(kfm::detail::resolve_isa(static_cast<isa>(99), &chosen, &table) == status::unknown_isa);
    CHECK(chosen == isa::scalar);
    CHECK(table == nullptr);
}

TEST_CASE("every available ISA matches the scalar kernels") {
    dense_spec spec;
    spec.input_dim = 33;
    spec.projection_dim = 40;
    spec.scale_array = spec.weight_array = true;
    spec.two_segments = true;
    const file_buffer buffer(kfm::offline::serialize(make_dense_map(spec)));
    const auto x = test_vector(spec.input_dim, 11);
    const auto reference = run(open_or_fail(buffer, isa::scalar), x);
    for (isa i : all_isas) {
        kfm::map v;
        const status s = kfm::open(buffer.data(), buffer.size(), &v, i);
        if (!kfm::isa_available(i)) {
            CHECK(s == status::isa_unavailable);
            continue;
        }
        REQUIRE(s == status::ok);
        CHECK(v.active_isa() == i);
        const auto out = run(v, x);
        for (std::size_t j = 0; j < out.size(); ++j) {
            INFO(kfm::isa_name(i) << " feature " << j);
            CHECK(out[j] == doctest::Approx(reference[j]).epsilon(1e-4).scale(1.0));
        }
    }
    kfm::map v;
    CHECK(kfm::open(buffer.data(), buffer.size(), &v, static_cast<isa>(99)) == status::unknown_isa);
}

TEST_CASE("KFM_ISA selects the ISA for isa::automatic on x86") {
    const file_buffer buffer(kfm::offline::serialize(make_dense_map(dense_spec{})));
    kfm::map v;
#if defined(__x86_64__) || defined(__i386__)
    const char* saved = std::getenv("KFM_ISA");
    const std::string previous = saved ? saved : "";
    ::setenv("KFM_ISA", "scalar", 1);
    REQUIRE(kfm::open(buffer.data(), buffer.size(), &v) == status::ok);
    CHECK(v.active_isa() == isa::scalar);
    ::setenv("KFM_ISA", "not-an-isa", 1);
    kfm::map untouched;
    CHECK(kfm::open(buffer.data(), buffer.size(), &untouched) == status::unknown_isa);
    CHECK(!untouched.is_open());
    for (isa i : all_isas) {
        ::setenv("KFM_ISA", kfm::isa_name(i), 1);
        const status s = kfm::open(buffer.data(), buffer.size(), &v);
        CHECK(s == (kfm::isa_available(i) ? status::ok : status::isa_unavailable));
        if (s == status::ok) CHECK(v.active_isa() == i);
    }
    if (saved) ::setenv("KFM_ISA", previous.c_str(), 1);
    else ::unsetenv("KFM_ISA");
#endif
    // Without an override, automatic picks the best ISA.
    const char* env = std::getenv("KFM_ISA");
    if (env == nullptr || env[0] == '\0') {
        REQUIRE(kfm::open(buffer.data(), buffer.size(), &v) == status::ok);
        CHECK(kfm::isa_available(v.active_isa()));
        CHECK(v.active_isa() != isa::automatic);
    }
}
