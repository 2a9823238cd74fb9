// Chooses the compute-kernel table: which ISA tables this build contains (KFM_HAVE_<ISA>, set by CMake
// from the platforms built) and, on x86, which of them this CPU and OS can run (CPUID feature bits plus
// XGETBV: the OS must save the YMM / ZMM state, or AVX code faults even on a capable CPU). Detection runs
// once; ARM is decided at compile time (NEON is part of the AArch64 baseline and of the ARMv7 build flags).
#include "kernels/kernel_table.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define KFM_X86 1
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
}  // namespace kfm

namespace kfm::detail {
namespace {

#if KFM_X86
struct x86_features {
    bool avx2 = false;    // AVX2 + FMA + OS-enabled YMM state
    bool avx512 = false;  // AVX-512 F, DQ, BW, VL + OS-enabled opmask/ZMM state
};

unsigned long long read_xcr0() noexcept {
    unsigned eax = 0, edx = 0;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return (static_cast<unsigned long long>(edx) << 32) | eax;
}

x86_features detect_x86() noexcept {
    x86_features f;
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return f;
    const bool osxsave = (ecx >> 27) & 1u;
    const bool avx = (ecx >> 28) & 1u;
    const bool fma = (ecx >> 12) & 1u;
    if (!osxsave || !avx) return f;
    const unsigned long long xcr0 = read_xcr0();
    const bool ymm_state = (xcr0 & 0x6u) == 0x6u;      // XMM and YMM
    const bool zmm_state = (xcr0 & 0xe6u) == 0xe6u;    // plus opmask, ZMM_Hi256, Hi16_ZMM
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return f;
    const bool avx2 = (ebx >> 5) & 1u;
    const bool avx512f = (ebx >> 16) & 1u, avx512dq = (ebx >> 17) & 1u;
    const bool avx512bw = (ebx >> 30) & 1u, avx512vl = (ebx >> 31) & 1u;
    f.avx2 = ymm_state && avx2 && fma;
    f.avx512 = f.avx2 && zmm_state && avx512f && avx512dq && avx512bw && avx512vl;
    return f;
}

const x86_features& cpu() noexcept {
    static const x86_features features = detect_x86();
    return features;
}
#endif

}  // namespace

const kernel_table* kernels_for(isa i) noexcept {
    switch (i) {
        case isa::automatic: return kernels_for(best_isa());
        case isa::scalar:
#if KFM_HAVE_SCALAR
            return &scalar::table;
#else
            return nullptr;
#endif
        case isa::avx2:
#if KFM_HAVE_AVX2 && KFM_X86
            return cpu().avx2 ? &avx2::table : nullptr;
#else
            return nullptr;
#endif
        case isa::avx512:
#if KFM_HAVE_AVX512 && KFM_X86
            return cpu().avx512 ? &avx512::table : nullptr;
#else
            return nullptr;
#endif
        case isa::neon64:
#if KFM_HAVE_NEON64
            return &neon64::table;
#else
            return nullptr;
#endif
        case isa::neon32:
#if KFM_HAVE_NEON32
            return &neon32::table;
#else
            return nullptr;
#endif
    }
    return nullptr;
}

isa best_isa() noexcept {
#if KFM_HAVE_NEON64
    return isa::neon64;
#elif KFM_HAVE_NEON32
    return isa::neon32;
#else
#if KFM_HAVE_AVX512 && KFM_X86
    if (cpu().avx512) return isa::avx512;
#endif
#if KFM_HAVE_AVX2 && KFM_X86
    if (cpu().avx2) return isa::avx2;
#endif
    return isa::scalar;
#endif
}

}  // namespace kfm::detail
