// ISA names, parsing and availability (availability asks the kernel dispatch whether a table exists).
#include <cstring>

#include "kernels/kernel_table.hpp"

namespace kfm {
namespace {

struct isa_entry {
    isa id;
    const char* name;
};
constexpr isa_entry isa_names[] = {
    {isa::automatic, "auto"}, {isa::scalar, "scalar"}, {isa::avx2, "avx2"},
    {isa::avx512, "avx512"},  {isa::neon64, "neon64"}, {isa::neon32, "neon32"},
};

}  // namespace

const char* isa_name(isa i) noexcept {
    for (const auto& e : isa_names)
        if (e.id == i) return e.name;
    return "unknown";
}

status isa_from_name(const char* name, isa* out) noexcept {
    if (name == nullptr || out == nullptr) return status::null_argument;
    for (const auto& e : isa_names) {
        if (std::strcmp(e.name, name) == 0) {
            *out = e.id;
            return status::ok;
        }
    }
    return status::unknown_isa;
}

std::size_t isa_count() noexcept { return sizeof(isa_names) / sizeof(isa_names[0]) - 1; }

isa isa_at(std::size_t i) noexcept { return i + 1 < sizeof(isa_names) / sizeof(isa_names[0]) ? isa_names[i + 1].id : isa::automatic; }

bool isa_available(isa i) noexcept {
    if (i == isa::automatic) return true;
    return detail::kernels_for(i) != nullptr;
}

}  // namespace kfm
