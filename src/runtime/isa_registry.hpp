// The ISA registry: every instruction set the library knows, best first, with the CPU features it needs
// and its kernel table. Dispatch, name parsing, availability, KFM_ISA, the CLI, the tests and the
// benchmarks all walk this one list (src/runtime/isa_registry.cpp); nothing else spells the ISAs out.
#pragma once
#include <cstdint>

#include "kernels/kernel_table.hpp"
#include "kfm/kfm.hpp"

namespace kfm::detail {

// The table for one ISA (isa::automatic: the best one), or null when this build or CPU lacks it.
// Both walk the registry.
const kernel_table* kernels_for(isa i) noexcept;
// Best available ISA for this CPU: the first available one in registry order.
isa best_isa() noexcept;

// Why an ISA can or cannot run here.
enum class isa_support {
    available,  // built into this library and this CPU (and OS) can run it
    not_built,  // this build has no kernel table for it (another architecture, or not compiled)
    cpu_lacks,  // built, but this CPU or OS lacks a feature it needs
    unknown,    // not an ISA of the registry (isa::automatic included)
};
isa_support isa_support_of(isa i) noexcept;
// "available", "not built", "CPU lacks it", "unknown".
const char* isa_support_name(isa_support s) noexcept;

// The ISA to run for `requested` (isa::automatic: the KFM_ISA override on x86, else the best available) and
// its table. status::unknown_isa for a value or KFM_ISA name outside the registry, status::isa_unavailable
// when the build or the CPU lacks it; *chosen and *table are written only on success.
status resolve_isa(isa requested, isa* chosen, const kernel_table** table) noexcept;

}  // namespace kfm::detail
