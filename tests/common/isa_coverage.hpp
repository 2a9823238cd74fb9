// Which ISAs a test suite actually exercised: a suite's ISA loops record each ISA they ran and each they
// skipped because this build or CPU lacks it; at exit the suite prints two lines, e.g.
//   kfm: ISAs tested: scalar avx2
//   kfm: ISAs skipped: avx512
// scripts/test-all.sh greps the first line of the kernels suite and fails when an ISA the stage must
// cover (x86: scalar avx2; AArch64: neon64; ARMv7: neon32) is missing from it.
#pragma once
#include "kfm/kfm.hpp"

namespace kfm::test {

void record_isa_tested(isa i);
void record_isa_skipped(isa i);

// Calls record_isa_tested when isa_available(i), else record_isa_skipped; returns isa_available(i).
bool isa_runs_here(isa i);

}  // namespace kfm::test
