// The ISA registry (isa_registry.hpp). A row per ISA, best first: its id, its name, the CPU/OS features it
// needs at run time, and its kernel table when this build compiled platforms/<dir>/ for it (CMake defines
// KFM_HAVE_<ISA> for every platform built). An ISA is available when its table exists and the CPU has
// every feature it requires; automatic selection takes the first available row.
//
// x86 features come from CPUID plus XGETBV: the OS must save the YMM / ZMM state, or AVX code faults even
// on a capable CPU. ARM ISAs require nothing at run time: NEON is part of the AArch64 baseline and of the
// ARMv7 build flags, so a built table always runs. M-profile cores (Cortex-M) have no NEON: their builds
// carry the scalar table, and on a core with MVE-F (Helium: Cortex-M55, M85) the mve table too
// (cmake/kfm_platform.cmake). The build's -mcpu decides: it lets the compiler use MVE anywhere, so such a
// build runs only on a core with MVE-F, and a built mve table always runs. The checks below enforce both.
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "runtime/isa_registry.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define KFM_X86 1
#endif

#if KFM_HAVE_NEON32 && defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#error "a NEON kernel table in an M-profile (Cortex-M) build: the core has no NEON, the first call would fault"
#endif
#if KFM_HAVE_MVE && !(defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2))
#error "an MVE kernel table in a build whose flags do not target MVE-F: the first call would fault"
#endif

namespace kfm {
#if KFM_HAVE_SCALAR
namespace scalar { extern const detail::kernel_table table; }
#endif
#if KFM_HAVE_AVX2
namespace avx2 { extern const detail::kernel_table table; }
#endif
#if KFM_HAVE_AVX512
namespace avx512 { extern const detail::kernel_table table; }
#endif
#if KFM_HAVE_NEON64
namespace neon64 { extern const detail::kernel_table table; }
#endif
#if KFM_HAVE_NEON32
namespace neon32 { extern const detail::kernel_table table; }
#endif
#if KFM_HAVE_MVE
namespace mve { extern const detail::kernel_table table; }
#endif
}  // namespace kfm

namespace kfm::detail {
namespace {

// Run-time CPU/OS features, one bit each.
enum cpu_feature : std::uint32_t {
    cpu_avx2 = 1u << 0,
    cpu_fma = 1u << 1,
    cpu_ymm_state = 1u << 2,  // the OS saves XMM and YMM
    cpu_avx512f = 1u << 3,
    cpu_avx512dq = 1u << 4,
    cpu_avx512bw = 1u << 5,
    cpu_avx512vl = 1u << 6,
    cpu_zmm_state = 1u << 7,  // the OS saves opmask, ZMM_Hi256 and Hi16_ZMM too
};

struct isa_entry {
    isa id;
    const char* name;
    std::uint32_t required;     // cpu_feature bits; 0 when a built table always runs
    const kernel_table* table;  // null when this build lacks the ISA
};

constexpr isa_entry registry[] = {
    {isa::avx512, "avx512",
     cpu_avx2 | cpu_fma | cpu_ymm_state | cpu_avx512f | cpu_avx512dq | cpu_avx512bw | cpu_avx512vl | cpu_zmm_state,
#if KFM_HAVE_AVX512
     &avx512::table},
#else
     nullptr},
#endif
    {isa::avx2, "avx2", cpu_avx2 | cpu_fma | cpu_ymm_state,
#if KFM_HAVE_AVX2
     &avx2::table},
#else
     nullptr},
#endif
    {isa::neon64, "neon64", 0,
#if KFM_HAVE_NEON64
     &neon64::table},
#else
     nullptr},
#endif
    {isa::neon32, "neon32", 0,
#if KFM_HAVE_NEON32
     &neon32::table},
#else
     nullptr},
#endif
    {isa::mve, "mve", 0,
#if KFM_HAVE_MVE
     &mve::table},
#else
     nullptr},
#endif
    {isa::scalar, "scalar", 0,
#if KFM_HAVE_SCALAR
     &scalar::table},
#else
     nullptr},
#endif
};
constexpr std::size_t registry_size = sizeof(registry) / sizeof(registry[0]);

constexpr const char* automatic_name = "auto";

#if KFM_X86
unsigned long long read_xcr0() noexcept {
    unsigned eax = 0, edx = 0;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return (static_cast<unsigned long long>(edx) << 32) | eax;
}

std::uint32_t detect_features() noexcept {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    std::uint32_t f = 0;
    if ((ecx >> 12) & 1u) f |= cpu_fma;
    const bool osxsave = (ecx >> 27) & 1u, avx = (ecx >> 28) & 1u;
    if (osxsave && avx) {
        const unsigned long long xcr0 = read_xcr0();
        if ((xcr0 & 0x6u) == 0x6u) f |= cpu_ymm_state;
        if ((xcr0 & 0xe6u) == 0xe6u) f |= cpu_zmm_state;
    }
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return f;
    if ((ebx >> 5) & 1u) f |= cpu_avx2;
    if ((ebx >> 16) & 1u) f |= cpu_avx512f;
    if ((ebx >> 17) & 1u) f |= cpu_avx512dq;
    if ((ebx >> 30) & 1u) f |= cpu_avx512bw;
    if ((ebx >> 31) & 1u) f |= cpu_avx512vl;
    return f;
}
#else
std::uint32_t detect_features() noexcept { return 0; }
#endif

// Detected once and cached without a function-local static (its thread-safe guard needs the C++ ABI
// library, which a plain C program linking the runtime does not have). Racing first calls store the
// same value, so relaxed order suffices.
constexpr std::uint32_t features_known = 1u << 31;
std::atomic<std::uint32_t> cached_features{0};

std::uint32_t cpu_features() noexcept {
    std::uint32_t f = cached_features.load(std::memory_order_relaxed);
    if ((f & features_known) == 0) {
        f = detect_features() | features_known;
        cached_features.store(f, std::memory_order_relaxed);
    }
    return f;
}

const isa_entry* entry_of(isa i) noexcept {
    for (const auto& e : registry)
        if (e.id == i) return &e;
    return nullptr;
}

isa_support support_of(const isa_entry& e) noexcept {
    if (e.table == nullptr) return isa_support::not_built;
    if ((cpu_features() & e.required) != e.required) return isa_support::cpu_lacks;
    return isa_support::available;
}

}  // namespace

isa_support isa_support_of(isa i) noexcept {
    const isa_entry* e = entry_of(i);
    return e == nullptr ? isa_support::unknown : support_of(*e);
}

const char* isa_support_name(isa_support s) noexcept {
    switch (s) {
        case isa_support::available: return "available";
        case isa_support::not_built: return "not built";
        case isa_support::cpu_lacks: return "CPU lacks it";
        case isa_support::unknown: break;
    }
    return "unknown";
}

isa best_isa() noexcept {
    for (const auto& e : registry)
        if (support_of(e) == isa_support::available) return e.id;
    return isa::scalar;  // not reached: the scalar table is always built
}

const kernel_table* kernels_for(isa i) noexcept {
    if (i == isa::automatic) i = best_isa();
    const isa_entry* e = entry_of(i);
    return e != nullptr && support_of(*e) == isa_support::available ? e->table : nullptr;
}

status resolve_isa(isa requested, isa* chosen, const kernel_table** table) noexcept {
    if (requested != isa::automatic && entry_of(requested) == nullptr) return status::unknown_isa;
    if (requested == isa::automatic) {
#if KFM_X86
        const char* env = std::getenv("KFM_ISA");
        if (env != nullptr && env[0] != '\0') {
            if (status s = isa_from_name(env, &requested); s != status::ok) return s;
        }
#endif
        if (requested == isa::automatic) requested = best_isa();
    }
    const kernel_table* t = kernels_for(requested);
    if (t == nullptr) return status::isa_unavailable;
    *chosen = requested;
    *table = t;
    return status::ok;
}

}  // namespace kfm::detail

namespace kfm {

std::size_t isa_count() noexcept { return detail::registry_size; }

isa isa_at(std::size_t i) noexcept { return i < detail::registry_size ? detail::registry[i].id : isa::automatic; }

const char* isa_name(isa i) noexcept {
    if (i == isa::automatic) return detail::automatic_name;
    const detail::isa_entry* e = detail::entry_of(i);
    return e != nullptr ? e->name : "unknown";
}

status isa_from_name(const char* name, isa* out) noexcept {
    if (name == nullptr || out == nullptr) return status::null_argument;
    if (std::strcmp(name, detail::automatic_name) == 0) {
        *out = isa::automatic;
        return status::ok;
    }
    for (const auto& e : detail::registry) {
        if (std::strcmp(e.name, name) == 0) {
            *out = e.id;
            return status::ok;
        }
    }
    return status::unknown_isa;
}

bool isa_available(isa i) noexcept {
    return i == isa::automatic || detail::isa_support_of(i) == detail::isa_support::available;
}

}  // namespace kfm
