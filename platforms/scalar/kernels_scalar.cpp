// The scalar kernel table: the plain one-lane instantiation of the kernels, the reference every SIMD
// ISA is tested against and the fallback on CPUs without a SIMD table.
#include "kernels/make_table.hpp"
#include "runtime/kernel_selection.hpp"

namespace kfm::scalar {
extern const detail::kernel_table table;  // external linkage for the ISA registry
constexpr detail::kernel_table every_kernel = detail::kern::make_table<detail::kern::scalar_arch>(isa::scalar);
KFM_CHECK_TABLE_COMPLETE(every_kernel);
constexpr detail::kernel_table table = detail::keep_selected_kernels(every_kernel);
}  // namespace kfm::scalar
