// Dispatch through the ISA registry: every ISA this host offers returns its own complete table, the
// others none (and say why), automatic takes the first available ISA in registry order, and the scalar
// reference is the always-available fallback at the end.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "kernel_test_util.hpp"

using kfm::isa;
using kfm::detail::isa_support;
using kfm::detail::kernels_for;

TEST_CASE("kernels_for returns the requested ISA's own complete table, or null with a reason") {
    REQUIRE(kernels_for(isa::scalar) != nullptr);
    const std::size_t tested = kfm::test::print_isa_coverage("kernels");
    std::size_t available = 0;
    for (isa i : kfm::test::known_isas()) {
        CAPTURE(kfm::isa_name(i));
        const auto* t = kernels_for(i);
        const isa_support support = kfm::detail::isa_support_of(i);
        CHECK((support != isa_support::unknown));
        CHECK((t != nullptr) == (support == isa_support::available));
        CHECK(kfm::isa_available(i) == (t != nullptr));
        if (!t) continue;
        ++available;
        CHECK(t->id == i);
        CHECK(kfm::detail::is_complete(*t));
        // distinct ISAs are distinct tables (no silent fallback to another ISA's table)
        if (i != isa::scalar) CHECK(t != kernels_for(isa::scalar));
    }
    CHECK(available == tested);
}

TEST_CASE("the registry lists every ISA once, scalar last") {
    const auto isas = kfm::test::known_isas();
    REQUIRE(!isas.empty());
    CHECK(isas.back() == isa::scalar);
    std::set<std::uint32_t> ids;
    std::set<std::string> names;
    for (isa i : isas) {
        CHECK(i != isa::automatic);
        ids.insert(static_cast<std::uint32_t>(i));
        names.insert(kfm::isa_name(i));
    }
    CHECK(ids.size() == isas.size());
    CHECK(names.size() == isas.size());
    CHECK(kfm::isa_at(isas.size()) == isa::automatic);
}

TEST_CASE("best_isa is the first available ISA in registry order and automatic resolves to it") {
    const isa best = kfm::detail::best_isa();
    REQUIRE(kernels_for(best) != nullptr);
    CHECK(kernels_for(isa::automatic) == kernels_for(best));
    for (isa i : kfm::test::known_isas()) {
        if (kernels_for(i) == nullptr) continue;
        CHECK(i == best);
        break;
    }
#if defined(__aarch64__) || defined(__arm__)
    CHECK(best != isa::scalar);  // NEON is decided at compile time: an ARM build always runs it
#endif
}

TEST_CASE("an out-of-range ISA value has no table and is unknown to the registry") {
    CHECK(kernels_for(static_cast<isa>(99)) == nullptr);
    CHECK((kfm::detail::isa_support_of(static_cast<isa>(99)) == isa_support::unknown));
    CHECK((kfm::detail::isa_support_of(isa::automatic) == isa_support::unknown));
}

TEST_CASE("is_complete (each platform's static_assert) refuses a table with an entry unset") {
    const kfm::detail::kernel_table scalar = *kernels_for(isa::scalar);
    REQUIRE(kfm::detail::is_complete(scalar));
    CHECK(!kfm::detail::is_complete(kfm::detail::kernel_table{}));
    kfm::detail::kernel_table t = scalar;
    t.expand = nullptr;  // the last member: a member added but not assigned by make_table ends up null like this
    CHECK(!kfm::detail::is_complete(t));
    t = scalar;
    t.fft_batch = nullptr;
    CHECK(!kfm::detail::is_complete(t));
    t = scalar;
    t.fft_batch_row = nullptr;
    CHECK(!kfm::detail::is_complete(t));
    t = scalar;
    t.block_product = nullptr;
    CHECK(!kfm::detail::is_complete(t));
    t = scalar;
    t.complex_block_product = nullptr;
    CHECK(!kfm::detail::is_complete(t));
    t = scalar;
    t.fft_batch_lanes = 0;
    CHECK(!kfm::detail::is_complete(t));
}
