// Dispatch: every ISA this host offers returns its own table, the scalar table always exists, and the
// automatic choice is one of the available tables.
#include <doctest/doctest.h>

#include "kernel_test_util.hpp"

using kfm::isa;
using kfm::detail::kernels_for;

TEST_CASE("kernels_for returns the requested ISA's own table") {
    REQUIRE(kernels_for(isa::scalar) != nullptr);
    int available = 0;
    for (isa i : {isa::scalar, isa::avx2, isa::avx512, isa::neon64, isa::neon32}) {
        const auto* t = kernels_for(i);
        if (!t) continue;
        ++available;
        CHECK(t->id == i);
        CHECK(static_cast<bool>(t->fft));
        CHECK(static_cast<bool>(t->butterfly));
        CHECK(static_cast<bool>(t->fwht));
        CHECK(static_cast<bool>(t->gemv));
        CHECK(static_cast<bool>(t->gemm));
        CHECK(static_cast<bool>(t->features));
        CHECK(static_cast<bool>(t->fft_batch));
        CHECK(t->fft_batch_lanes >= 1);
    }
    MESSAGE("kernel tables available on this host: " << available);
    // distinct ISAs are distinct tables (no silent fallback to another ISA's table)
    for (isa i : {isa::avx2, isa::avx512, isa::neon64, isa::neon32})
        if (kernels_for(i)) CHECK(kernels_for(i) != kernels_for(isa::scalar));
}

TEST_CASE("best_isa is available and automatic resolves to it") {
    const isa best = kfm::detail::best_isa();
    REQUIRE(kernels_for(best) != nullptr);
    CHECK(kernels_for(isa::automatic) == kernels_for(best));
#if defined(__aarch64__)
    CHECK(best == isa::neon64);
#elif defined(__arm__)
    CHECK(best == isa::neon32);
#endif
}

TEST_CASE("an out-of-range ISA value has no table") {
    CHECK(kernels_for(static_cast<isa>(99)) == nullptr);
}
