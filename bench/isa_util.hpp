// Shared by the kernel benchmarks: the kernel tables this host can run (ISAs the CPU lacks are
// skipped, never faked) and aligned buffers.
#pragma once
#include <cstdlib>
#include <string>
#include <vector>

#include "format/fft_twiddles.hpp"
#include "kernels/kernel_table.hpp"
#include "runtime/isa_registry.hpp"

namespace kfm_bench {

struct host_isa {
    kfm::isa id;
    std::string name;
    const kfm::detail::kernel_table* table;
};

// The registry's ISAs (kfm::isa_at, best first) that this build and CPU can run.
inline std::vector<host_isa> host_isas() {
    std::vector<host_isa> out;
    for (std::size_t k = 0; k < kfm::isa_count(); ++k) {
        const kfm::isa id = kfm::isa_at(k);
        if (const auto* t = kfm::detail::kernels_for(id)) out.push_back({id, kfm::isa_name(id), t});
    }
    return out;
}

// 64-byte aligned float buffer (kernels accept any alignment; benchmarks use the common case).
struct aligned_floats {
    float* p;
    explicit aligned_floats(std::size_t n)
        : p(static_cast<float*>(std::aligned_alloc(64, ((n * sizeof(float) + 63) / 64) * 64))) {}
    ~aligned_floats() { std::free(p); }
    aligned_floats(const aligned_floats&) = delete;
    aligned_floats& operator=(const aligned_floats&) = delete;
    float* data() const { return p; }
    float& operator[](std::size_t i) const { return p[i]; }
};

// Deterministic values in [-1, 1).
inline float test_value(std::size_t i) {
    std::uint32_t z = std::uint32_t(i) * 2654435761u + 12345u;
    z ^= z >> 15;
    z *= 2246822519u;
    z ^= z >> 13;
    return float(z) * (2.0f / 4294967296.0f) - 1.0f;
}

}  // namespace kfm_bench
