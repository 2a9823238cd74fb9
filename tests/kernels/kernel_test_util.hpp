// Shared by the kernels suite: the kernel tables this host can run, from the ISA registry (every one is
// tested against the scalar/double references), a small deterministic generator, and unaligned test buffers.
#pragma once
#include <cstdint>
#include <vector>

#include "common/isa_coverage.hpp"
#include "format/fft_twiddles.hpp"
#include "kernels/kernel_table.hpp"
#include "runtime/isa_registry.hpp"

namespace kfm_test {

// The table of every registry ISA this host can run (kernels_for is null for the others).
inline std::vector<const kfm::detail::kernel_table*> available_tables() {
    std::vector<const kfm::detail::kernel_table*> out;
    for (kfm::isa i : kfm::test::known_isas())
        if (const auto* t = kfm::detail::kernels_for(i)) out.push_back(t);
    return out;
}

// ISA name for failure messages.
inline const char* name(kfm::isa i) { return kfm::isa_name(i); }

// splitmix64: deterministic test inputs, identical on every platform.
struct test_rng {
    std::uint64_t state;
    explicit test_rng(std::uint64_t seed) : state(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
    float uniform(float lo, float hi) { return float(lo + (hi - lo) * uniform()); }
    std::uint32_t below(std::uint32_t n) { return std::uint32_t(uniform() * n); }
};

// A float buffer whose data() is deliberately NOT 16/32/64-byte aligned (offset by one float from an
// aligned start), so every kernel is exercised on unaligned pointers.
struct unaligned_buffer {
    std::vector<float> storage;
    std::size_t n;
    explicit unaligned_buffer(std::size_t count) : storage(count + 32, 0.0f), n(count) {}
    float* data() {
        auto addr = reinterpret_cast<std::uintptr_t>(storage.data());
        const std::size_t to_aligned = ((64 - addr % 64) % 64) / sizeof(float);
        return storage.data() + to_aligned + 1;
    }
    float& operator[](std::size_t i) { return data()[i]; }
};

}  // namespace kfm_test
