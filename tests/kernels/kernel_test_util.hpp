// Shared by the kernels suite: the kernel tables this host can run, from the ISA registry (every one is
// tested against the scalar/double references of kernel_reference.hpp, which also has the deterministic
// generator), and unaligned test buffers.
#pragma once
#include <cstdint>
#include <vector>

#include "common/isa_coverage.hpp"
#include "format/fft_twiddles.hpp"
#include "kernel_reference.hpp"
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

// A random butterfly network of size d (kernel_reference.hpp: uniform angles, then a uniform permutation)
// with the simplex step's coefficients r and diag, for the butterfly and butterfly_simplex_batch tests.
struct butterfly_network {
    unsigned d, log2_d2;
    std::vector<float> cs, r, diag;
    std::vector<std::uint32_t> perm;
};

inline butterfly_network random_butterfly_network(unsigned d, test_rng& rng) {
    const unsigned log2_d2 = butterfly_log2_d2(d);
    butterfly_network net{d, log2_d2, std::vector<float>(2 * ((1u << log2_d2) - 1)), std::vector<float>(d),
                          std::vector<float>(d), std::vector<std::uint32_t>(d)};
    random_rotations(rng, log2_d2, net.cs.data());
    simplex_coefficients(d, net.r.data(), net.diag.data());
    random_permutation(rng, d, net.perm.data());
    return net;
}

}  // namespace kfm_test
