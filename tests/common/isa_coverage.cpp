#include "common/isa_coverage.hpp"

#include <cstdio>
#include <mutex>

namespace kfm::test {
namespace {

// Indexed by the isa value; printed once, at static destruction, only by suites that recorded something.
class isa_record {
public:
    void mark(isa i, bool ran) {
        const std::lock_guard<std::mutex> lock(mutex_);
        const auto k = static_cast<std::size_t>(i);
        if (k >= slots) return;
        (ran ? tested_ : skipped_)[k] = true;
        used_ = true;
    }
    ~isa_record() {
        if (!used_) return;
        print("tested", tested_, nullptr);
        print("skipped", skipped_, tested_);  // an ISA tested somewhere is not listed as skipped
    }

private:
    static constexpr std::size_t slots = 8;
    static void print(const char* what, const bool* set, const bool* exclude) {
        std::printf("kfm: ISAs %s:", what);
        for (std::size_t k = 1; k < slots; ++k)
            if (set[k] && (exclude == nullptr || !exclude[k])) std::printf(" %s", isa_name(static_cast<isa>(k)));
        std::printf("\n");
        std::fflush(stdout);
    }
    std::mutex mutex_;
    bool tested_[slots] = {};
    bool skipped_[slots] = {};
    bool used_ = false;
};

isa_record& record() {
    static isa_record r;
    return r;
}

}  // namespace

void record_isa_tested(isa i) { record().mark(i, true); }
void record_isa_skipped(isa i) { record().mark(i, false); }

bool isa_runs_here(isa i) {
    const bool available = isa_available(i);
    record().mark(i, available);
    return available;
}

}  // namespace kfm::test
