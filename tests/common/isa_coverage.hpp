// The ISAs a test loops over: every one of the registry (kfm::isa_at, best first). Tests run those
// kfm::isa_available says this host offers and skip the rest; print_isa_coverage says which were skipped
// and why, so a host without e.g. AVX-512 shows it in the test output instead of passing silently.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "kfm/kfm.hpp"
#include "runtime/isa_registry.hpp"

namespace kfm::test {

inline std::vector<kfm::isa> known_isas() {
    std::vector<kfm::isa> out;
    for (std::size_t k = 0; k < kfm::isa_count(); ++k) out.push_back(kfm::isa_at(k));
    return out;
}

// "ISAs tested: avx2 scalar; skipped: avx512 (CPU lacks it), neon64 (not built)". Returns the tested count.
inline std::size_t print_isa_coverage(const char* suite) {
    std::string tested, skipped;
    std::size_t count = 0;
    for (kfm::isa i : known_isas()) {
        const auto support = kfm::detail::isa_support_of(i);
        if (support == kfm::detail::isa_support::available) {
            tested += std::string(tested.empty() ? "" : " ") + kfm::isa_name(i);
            ++count;
        } else {
            skipped += std::string(skipped.empty() ? "" : ", ") + kfm::isa_name(i) + " (" +
                       kfm::detail::isa_support_name(support) + ")";
        }
    }
    std::printf("[%s] ISAs tested: %s; skipped: %s\n", suite, tested.c_str(), skipped.empty() ? "none" : skipped.c_str());
    std::fflush(stdout);
    return count;
}

}  // namespace kfm::test
