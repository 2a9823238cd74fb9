// The Armv8.1-M MVE-F (Helium: Cortex-M55, M85) kernel table: the templated kernels instantiated for
// mve_arch, the 4-lane vocabulary of src/kernels/mve.hpp over arm_mve.h, compiled with the build's core
// flags (toolchains/cortex-m.cmake: -mcpu=cortex-m55) in its own namespace.
#include "kernels/make_table.hpp"
#include "runtime/kernel_selection.hpp"

namespace kfm::mve {
extern const detail::kernel_table table;  // external linkage for the ISA registry
constexpr detail::kernel_table every_kernel = detail::kern::make_table<detail::kern::mve_arch>(isa::mve);
KFM_CHECK_TABLE_COMPLETE(every_kernel);
constexpr detail::kernel_table table = detail::keep_selected_kernels(every_kernel);
}  // namespace kfm::mve
