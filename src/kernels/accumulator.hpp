// The type the runtime accumulates in outside the kernels (the input's norm, Maclaurin products, the head's
// dot products): double, except in the firmware profile (KFM_FIRMWARE) on a core whose FPU has no double
// precision (Cortex-M4F: __ARM_FP without bit 3), where every double operation would be one of libgcc's
// software routines (2.5 KB of flash, tens of instructions each). There it is float: the results differ
// from the double ones by float roundings of the sums (about 1e-7 relative), which the Cortex-M stage bounds
// (scores within 1e-5 of the host's), and every bound of open still holds (runtime/output_bound.hpp bounds
// the magnitudes of these sums, and float has the range it assumes).
#pragma once

namespace kfm::detail {

#if KFM_FIRMWARE && defined(__ARM_FP) && (__ARM_FP & 8) == 0
using accumulator = float;
#else
using accumulator = double;
#endif

}  // namespace kfm::detail
