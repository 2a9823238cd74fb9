// The AArch64-NEON kernel table: the templated kernels instantiated for xsimd::neon64, compiled with this
// platform's flags (platform.cmake) in its own namespace.
#include "kernels/make_table.hpp"
#include "runtime/kernel_selection.hpp"

namespace kfm::neon64 {
extern const detail::kernel_table table;  // external linkage for the ISA registry
constexpr detail::kernel_table every_kernel = detail::kern::make_table<xsimd::neon64>(isa::neon64);
KFM_CHECK_TABLE_COMPLETE(every_kernel);
constexpr detail::kernel_table table = detail::keep_selected_kernels(every_kernel);
}  // namespace kfm::neon64
